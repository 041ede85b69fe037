// One element as one prompt line, e.g.
//   [12] button "Search" @(640,88) primary
//   [7] textbox[email] "Email" value="a@b.c" @(320,210) offscreen
//   [9] button inferred "trash (delete)" row "Dana Lee Lunch on Friday" @(900,140)
//   [31] textbox[email] "your@email.com" in form "Newsletter" @(980,2210) offscreen
// Short words, no JSON punctuation: an element costs ~10-20 o200k tokens.
import type { RefinedElement } from "../contract/index.js";

/** Longest quoted label kept, in characters (labels are cut with "…"). */
export const MAX_LABEL_CHARS = 60;
/** Longest value kept. */
export const MAX_VALUE_CHARS = 40;

const clean = (s: string | null | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

const quote = (s: string) => `"${s.replace(/"/g, "'")}"`;

/** An input type the role already says (checkbox is a checkbox; a submit input is a button). */
export function redundantType(role: string, type: string): boolean {
  if (!type || type === "text" || type === role) return true;
  if (role === "button") return ["submit", "button", "reset", "image"].includes(type);
  if (role === "searchbox") return type === "search";
  if (role === "spinbutton") return type === "number";
  return false;
}

/** The words that describe what the element is, e.g. `textbox[email]`, `link`. */
function kind(el: RefinedElement): string {
  const role = el.role || el.tag || "element";
  const type = clean(el.input_type);
  return redundantType(role, type) ? role : `${role}[${type}]`;
}

/**
 * The human label: accessible name, else visible text. The visible text is kept beside the
 * name only when it says something the name does not (icon buttons with a title, etc.).
 */
export function labelOf(el: RefinedElement): { label: string; extra: string } {
  const name = clean(el.name);
  const text = clean(el.text);
  if (!name) return { label: cut(text, MAX_LABEL_CHARS), extra: "" };
  const n = name.toLowerCase();
  const t = text.toLowerCase();
  const extra = text && !n.includes(t) && !t.includes(n) ? cut(text, MAX_LABEL_CHARS / 2) : "";
  return { label: cut(name, MAX_LABEL_CHARS), extra };
}

function states(el: RefinedElement): string[] {
  const out: string[] = [];
  if (el.visual_cues?.is_primary) out.push("primary");
  if (el.disabled) out.push("disabled");
  if (el.aria_checked === "mixed") out.push("mixed");
  else if (el.checked === true) out.push("checked");
  else if (el.checked === false && (el.role === "checkbox" || el.role === "radio" || el.role === "switch")) out.push("unchecked");
  if (el.expanded === true) out.push("expanded");
  else if (el.expanded === false) out.push("collapsed");
  if (el.in_viewport === false) out.push("offscreen");
  if (el.is_occluded) out.push("occluded");
  if (el.diff_status) out.push(el.diff_status.toLowerCase());
  return out;
}

export interface LineOptions {
  /** Append the link target for links (costs ~5-15 tokens per link). Default false. */
  includeHref?: boolean;
  /**
   * Also write the nearby static text of labelled elements (e.g. the "Duration: 2h 23m" beside a
   * "Book" button): context an LLM may need to choose, at ~5-10 tokens per element. Default
   * false (unlabelled elements always get it).
   */
  includeNearby?: boolean;
}

/** Formats one element. */
export function formatElement(el: RefinedElement, opts: LineOptions = {}): string {
  const parts = [`[${el.id}]`, kind(el)];
  const { label, extra } = labelOf(el);
  if (label) parts.push(quote(label));
  if (extra) parts.push(`text ${quote(extra)}`);
  // What an icon-only control's icon says it is: marked, since the page does not name it.
  const inferred = clean(el.inferred_name);
  if (inferred) parts.push(`inferred ${quote(cut(inferred, MAX_LABEL_CHARS / 2))}`);
  // A look-alike field or button: the form it belongs to ("Newsletter", "Sign in").
  const purpose = clean(el.purpose);
  if (purpose) parts.push(`in form ${quote(cut(purpose, MAX_LABEL_CHARS / 2))}`);
  // A look-alike control (a list's trash icons, "Book" buttons): the row it belongs to.
  const row = clean(el.context_text);
  if (row) parts.push(`row ${quote(cut(row, MAX_LABEL_CHARS))}`);
  const near = clean(el.nearby_text);
  if (label && opts.includeNearby && near && !label.toLowerCase().includes(near.toLowerCase())) {
    parts.push(`near ${quote(cut(near, MAX_LABEL_CHARS / 2))}`);
  }
  if (!label && !row && near) parts.push(`near ${quote(cut(clean(el.nearby_text), MAX_LABEL_CHARS / 2))}`);
  const toggle = el.role === "checkbox" || el.role === "radio" || el.role === "switch";
  if (el.value_redacted) parts.push("value=<redacted>");
  // A checkbox's value ("on") is what it submits, not its state: the state words say that.
  else if (!toggle && clean(el.value)) parts.push(`value=${quote(cut(clean(el.value), MAX_VALUE_CHARS))}`);
  const cx = el.center_x ?? el.bbox.x + el.bbox.width / 2;
  const cy = el.center_y ?? el.bbox.y + el.bbox.height / 2;
  parts.push(`@(${Math.round(cx)},${Math.round(cy)})`);
  parts.push(...states(el));
  if (opts.includeHref && el.href) parts.push(`-> ${cut(el.href, 80)}`);
  return parts.join(" ");
}
