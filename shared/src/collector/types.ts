// Public types of the collector. The request body is the contract's SnapshotRequest.
import type { ClientDiagnostics, ClientMetrics, PageType, RawElement } from "../contract/index.js";

export interface CollectOptions {
  /** Stop after this many raw elements, frames included (default 8000). */
  maxElements?: number;
  /** Hit-test in-viewport elements for occlusion (default true). */
  occlusion?: boolean;
  /** Walk same-origin iframes (default true). */
  frames?: boolean;
  /** Maximum characters of `text` per element (default 200). */
  maxTextLength?: number;
  /** Only keep elements that intersect the viewport (default false: the whole page). */
  viewportOnly?: boolean;
  /**
   * Also report every element whose role is not generic (paragraphs, table cells, emphasis…)
   * and, with span/div, generic ones: for accessibility audits (default false).
   */
  allRoles?: boolean;
  /** Add per-phase times (ms) as client_metrics.phases_ms (for benchmarks). */
  timings?: boolean;
  /**
   * Mark elements whose text the person cannot see, `attributes.text_hidden` "all" | "part",
   * judged per text run from layout and paint (visibility/). For agents' snapshots; it costs a
   * layout pass over the elements' text, so default false.
   */
  textVisibility?: boolean;
  /**
   * The listener-recording init script runs in the page's world (the caller added it) while
   * the collector runs in another (Sightline's isolated world): ask the page's world for its
   * records (listeners.ts). Default false: nothing is asked, so a page without the script sees
   * no sign of a collect.
   */
  pageListeners?: boolean;
}

/**
 * What collect() puts in `attributes` beyond spec 2.7 (the contract tolerates extra keys).
 * Keys without a value are left out rather than sent as null (payload size), except
 * `accessible_name`, which is always a string, and `value: null` next to `value_redacted`.
 * - `role`: the computed ARIA role (dom-accessibility-api + role-fixes.ts), never absent.
 * - `aria_label` / `accessible_name`: the computed accessible name (accname 1.2 +
 *   name-fixes.ts). `accessible_name` is "" when the element has no name: use it verbatim.
 * - `name`: the HTML `name` attribute (form field name), not the accessible name.
 * - `nearby_text`: for fields (textbox, combobox, checkbox, …) and unnamed controls: the
 *   <label> text, else the closest preceding text (following text for checkboxes/radios).
 * - `purpose` / `purpose_words`: for inputs, selects, text areas and buttons in a form (fields
 *   also outside one): the label of their form, fieldset or search region ("Newsletter"), and the
 *   words their own and their form's markup says about it (purpose.ts).
 * - `context_text`: for buttons and links with a short label: the text of their card (closest
 *   ancestor, ≤ 3 levels, that says more; ≤ 160 chars), e.g. a result row's duration (context-text.ts).
 * - `inferred_name` / `inferred_from`: for a control whose accessible name is empty, a glyph or an
 *   icon font's ligature, what its icon says it is ("trash (delete)"), and where that came from:
 *   icon-class | ligature | svg-title | svg-use | data-icon | image-file | symbol |
 *   background-image (icon-names.ts). The accessible name stays as computed.
 * - `found_by`: how a candidate its markup did not make was found: "listener" (a recorded click
 *   listener, see listeners.ts), "delegated-listener" (a look-alike child of a container whose
 *   listener serves them), "visual" (no listener records: a visually distinct leaf box, with
 *   `visual_kind` swatch | icon | tile | shape).
 * - `has_click_handler`: "true" for an inline on* handler or an `onclick` property.
 * - `is_clickable`: "true" when the element is an interactive candidate with cursor:pointer
 *   (computed, or from a `:hover { cursor: pointer }` rule; then also `cursor_on_hover`).
 * - `tabindex`, `contenteditable`, `autocomplete`, `class_name` (≤ 100 chars), `level`
 *   (heading level), `in_shadow` ("true" inside an open shadow root), `frame_depth`.
 * - iframes: `frame` = "same-origin" | "cross-origin" | "unavailable", `iframe_src`; a
 *   same-origin frame's elements are in the iframe element's `iframe_content` (boxes in
 *   top-viewport coordinates), not repeated at the top level.
 * - `value_redacted`: "true" for secret fields (the one rule, shared/src/agent/core/secrets.ts:
 *   passwords, one-time codes, PINs, card fields, by type, autocomplete, name, id or label);
 *   their value is null.
 * - `text_hidden` (with `textVisibility` only): "all" when the person cannot see the element's
 *   text (or, without text, its box), "part" when some of its text or of the label naming it
 *   is hidden (visibility/runs.ts).
 * Styles: z_index, cursor and position always; colours, font size/weight and opacity for
 * elements within about two screens of the viewport.
 */
export type CollectedAttributes = Record<string, string | null>;

export interface CollectResult {
  url: string;
  viewport: { width: number; height: number };
  raw_elements: RawElement[];
  client_metrics: ClientMetrics;
  client_diagnostics: ClientDiagnostics;
}

export interface ReadOptions {
  /** `markdown` (default) or `text`. */
  format?: "markdown" | "text";
  /** Maximum characters of `content` (default: no limit). */
  contentLimit?: number;
  /** Drop what the live page does not render (display:none) before extraction (default true). */
  stripHidden?: boolean;
  /** Markdown keeps links and image URLs (default true); false keeps their text (alt text) only. */
  links?: boolean;
  /**
   * Keep figure captions and photo credits (default false: like trafilatura and the read
   * benchmarks' hand-marked content, the text leaves them out; see docs/read-mode.md).
   */
  captions?: boolean;
  /** Use the main-content fallback when Readability fails or keeps too little (default true). */
  fallback?: boolean;
  /**
   * Wrap every text run the person cannot see (judged from the live layout, per run) in
   * ⟦hidden⟧…⟦/hidden⟧, adjacent runs merged (agent/session/provenance.ts). For agents; default false,
   * which leaves the output as it was.
   */
  markHidden?: boolean;
}

export interface ReadResult {
  title: string;
  description: string;
  content: string;
  /** Sightline addition: which extractor produced `content` (diagnostics). */
  extractor?: "readability" | "main-content" | "model" | "none";
  /**
   * Sightline addition: the kind of page read mode took this for (what the page declares in
   * schema.org / Open Graph, else its structure); it decides what the extractor keeps.
   */
  page_type?: PageType;
  /** Sightline addition: text lengths of both candidates (diagnostics). */
  stats?: { readability_chars: number; main_content_chars: number };
  /** With `markHidden`: how many hidden passages `content` marks. */
  hidden_passages?: number;
}
