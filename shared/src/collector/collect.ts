// collect(): one walk over the composed tree (document, open shadow roots, same-origin
// frames) that reads styles and boxes only (no DOM writes, so layout is computed once), then
// a hit-test pass for occlusion. Output: a ready /v1/snapshot request body.
import type { RawElement } from "../contract/index.js";
import { libraryStyle, nameOf, type NameContext } from "./name.js";
import { detectCaptcha } from "./captcha.js";
import { roleOf } from "./role.js";
import {
  Attr,
  GROUP_ROLES,
  GROUP_TAGS,
  Kind,
  SEQUENCE_ROLES,
  SEQUENCE_TAGS,
  kindOf,
  scanAttributes,
  type AttrScan,
} from "./candidates.js";
import { scanStyleRules, emptyRuleSets, type RuleSets } from "./style-rules.js";
import { nearbyText } from "./nearby-text.js";
import { contextText } from "./context-text.js";
import { inferIconName } from "./icon-names.js";
import { FOUND_BY_NAMES, FoundBy, ROOT_SHARE, delegates, listenerRegistry, readLooks, shortLeaf, visualCandidate, type Visual } from "./listeners.js";
import { isOccluded, type HitCache, type HitFrame } from "./occlusion.js";
import { patchLabels, type LabelPatch } from "./element-labels.js";
import { isSensitiveField, scrubSecrets } from "./privacy.js";
import { hrefResolver, type HrefResolver } from "./href.js";
import { collectorState, idFor, installMutationClock, quietMs, type CollectorState } from "./state.js";
import { displayCache, styleCache, type StyleOf } from "./style-cache.js";
import { clip, flat, shortText, squash, withTextCache } from "./text.js";
import type { CollectOptions, CollectResult } from "./types.js";

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base", "datalist"]);
const TEXT_INPUT_BUTTONS = new Set(["submit", "button", "reset", "image"]);
const VALUE_MAX = 200;
/** A label that may be an icon font's ligature ("delete", "star_border"). */
const LOWER_WORD = /^[a-z]+(?:_[a-z]+)*$/;
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch", "listbox"]);

interface Frame extends HitFrame {
  win: Window;
  /** Visible part of this frame, top-viewport coordinates. */
  clip: { l: number; t: number; r: number; b: number };
  out: RawElement[];
  depth: number;
  /** Elements given click-like listeners (the init script's records), or null: none recorded. */
  listeners: WeakSet<object> | null;
  /** Also read looks (no records, or the page listens at the top and may delegate from there). */
  looks: boolean;
}

interface Inherited {
  container: number;
  sequence: boolean;
  /** Inside an interactive candidate (its descendants are parts of it, not new controls). */
  interactiveArea: number;
  parentPointer: boolean;
  shadow: boolean;
  /** A container whose click listener serves its look-alike children (event delegation). */
  delegate: Element | null;
  /** Inside a recorded listener's subtree: its parts may be what it handles, so read their looks. */
  looks: boolean;
}

interface Pending {
  el: Element;
  raw: RawElement;
  frame: Frame;
}

/** A positioned box that may paint over others (fixed, sticky, absolute, z-indexed). */
interface Occluder {
  el: Element;
  x: number;
  y: number;
  r: number;
  b: number;
}

function lap(prof: Record<string, number>, key: string, since: number): number {
  const now = performance.now();
  prof[key] = (prof[key] ?? 0) + now - since;
  return now;
}

interface Ctx {
  allRoles: boolean;
  names: NameContext;
  labels: LabelPatch | null;
  hrefs: HrefResolver;
  /** Per-step time accumulators when options.timings is set. */
  prof: Record<string, number> | null;
  state: CollectorState;
  rules: RuleSets;
  occluders: Occluder[];
  style: StyleOf;
  vw: number;
  vh: number;
  scrollY: number;
  max: number;
  textMax: number;
  frames: boolean;
  viewportOnly: boolean;
  count: number;
  pending: Pending[];
  secrets: string[];
}

const r1 = (n: number) => Math.round(n * 10) / 10;

function sequenceLike(tag: string, role: string | null): boolean {
  return SEQUENCE_TAGS.has(tag) || (role !== null && SEQUENCE_ROLES.has(role));
}

function visitChildren(parent: Element | ShadowRoot, ctx: Ctx, f: Frame, inh: Inherited): void {
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
    if (ctx.count >= ctx.max) return;
    visit(c, ctx, f, inh);
  }
}

function visit(el: Element, ctx: Ctx, f: Frame, inh: Inherited): void {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag)) return;
  // Not through the style cache: the walk reads each element once, and a cached declaration
  // saves only the getComputedStyle() call, not the property reads (the library's own reads
  // go through ctx.style).
  const cs = f.win.getComputedStyle(el);
  // Computed-style reads and layout queries are the walk's main cost (about a µs each): every
  // element pays for display (or a visibility check), cursor and position; candidates for the rest.
  const scan = scanAttributes(el);
  let kind = kindOf(el, tag, scan, ctx.allRoles);
  // Script-only controls: a recorded click listener (or a delegating parent's) makes a candidate.
  let found = FoundBy.None;
  let delegating = false;
  let opensLooks = false;
  const reg = f.listeners;
  if (reg !== null && kind !== Kind.Interactive) {
    if (reg.has(el) && tag !== "body" && tag !== "html") {
      const r = el.getBoundingClientRect();
      if (r.width * r.height >= ROOT_SHARE * ctx.vw * ctx.vh) f.looks = true; // an app root: delegates from the top
      else if (delegates(el)) delegating = true;
      else {
        // A listener on a drawing or a group of parts (an <svg>, a widget) may handle clicks on them.
        opensLooks = el.firstElementChild !== null && !inh.looks;
        kind = Kind.Interactive;
        scan.handler = true;
        found = FoundBy.Listener;
      }
    } else if (inh.delegate !== null && el.parentElement === inh.delegate) {
      kind = Kind.Interactive;
      found = FoundBy.Delegated;
    }
  }
  // A candidate is checked for visibility first: a visible element has a box, so its display
  // is not "none" and need not be read (display matters further only for non-candidates).
  let visible = kind !== Kind.None ? checkVisible(el) : null;
  let display = "";
  // display matters for what is under the element; a non-candidate with no element children
  // needs it only for the nested-pointer test below (read there). Left unread, a display:none
  // leaf still ends unseen: zero box, checkVisibility() false, no descendants, and (not being a
  // group container) no id taken.
  const leaf = kind === Kind.None && el.firstElementChild === null && el.shadowRoot === null && !GROUP_TAGS.has(tag);
  if (visible !== true && !leaf) {
    display = cs.display;
    if (display === "none") return; // nothing under it can be seen
  }
  const cursor = cs.cursor;
  const pointer = cursor === "pointer";
  const pos = cs.position;
  let hoverPointer = false;
  if (kind === Kind.None || kind === Kind.Structural) {
    if (pointer && !inh.parentPointer && tag !== "body" && tag !== "html") kind = Kind.Interactive;
    else if (!pointer && ctx.rules.hoverPointer.has(el)) {
      kind = Kind.Interactive;
      hoverPointer = true;
    }
  }
  // No listener records: a visually distinct leaf outside any control is a low-priority candidate.
  let look: Visual | null = null;
  if (kind === Kind.None && (f.looks || inh.looks) && (inh.interactiveArea === 0 || inh.looks) && shortLeaf(el) && tag !== "body" && (look = visualCandidate(el, tag, cs, f.win)) !== null) {
    kind = Kind.Interactive;
    found = FoundBy.Visual;
  } else if (found !== FoundBy.None && shortLeaf(el)) look = visualCandidate(el, tag, cs, f.win); // what a script-only control looks like
  let next = inh;
  let rawArea = 0;
  let emitted: RawElement | null = null;

  if (kind === Kind.None && pointer && inh.parentPointer && inh.interactiveArea > 0 && (display || (display = cs.display)) !== "inline") {
    // Nested pointer element inside a clickable region: an icon or a sub-control when it is
    // clearly smaller than the region (at most half its area).
    const r = el.getBoundingClientRect();
    const area = r.width * r.height;
    if (area > 0 && area <= inh.interactiveArea / 2) kind = Kind.Interactive;
  }

  let box: DOMRect | null = null;
  if (kind !== Kind.None && (visible ?? (visible = isVisible(el, cs)))) {
    box = el.getBoundingClientRect();
    // Each DOMRect getter is a call into the browser: read the four values once.
    const bw = box.width;
    const bh = box.height;
    rawArea = bw * bh;
    if (rawArea > 0) emitted = emit(el, tag, kind, scan, cs, hoverPointer ? "pointer" : cursor, pos, box.left, box.top, bw, bh, hoverPointer, ctx, f, inh, found, look);
  }
  if (f.depth === 0 && pos !== "static" && (pos !== "relative" || cs.zIndex !== "auto")) {
    // Only positioned boxes paint over content that comes before them; elements no such box
    // overlaps need no hit test (hit tests cost O(page) each in Chromium).
    box = box ?? el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) ctx.occluders.push({ el, x: box.left, y: box.top, r: box.right, b: box.bottom });
  }

  const role = emitted ? (emitted.attributes?.role as string) : scan.roleAttr;
  const isGroup = GROUP_TAGS.has(tag) || (role !== null && GROUP_ROLES.has(role));
  const interactiveArea = kind === Kind.Interactive && rawArea > 0 ? rawArea : inh.interactiveArea;
  if (isGroup || pointer !== inh.parentPointer || interactiveArea !== inh.interactiveArea || (el.shadowRoot && !inh.shadow) || delegating || inh.delegate !== null || opensLooks) {
    next = {
      container: isGroup ? idFor(el, ctx.state) : inh.container,
      sequence: isGroup ? sequenceLike(tag, role) : inh.sequence,
      interactiveArea,
      parentPointer: pointer,
      shadow: inh.shadow,
      delegate: delegating ? el : null,
      looks: inh.looks || opensLooks,
    };
  }

  if (tag === "iframe" || tag === "frame") {
    if (emitted && ctx.frames) walkFrame(el as HTMLIFrameElement, emitted, ctx, f);
    return;
  }
  const sr = el.shadowRoot;
  if (sr) {
    scanStyleRules(sr, ctx.rules);
    visitChildren(sr, ctx, f, next.shadow ? next : { ...next, shadow: true });
  }
  visitChildren(el, ctx, f, next);
}

// checkOpacity/checkVisibilityCSS only: opacityProperty/visibilityProperty are their aliases,
// and every key given costs a property read when the browser converts the options.
const VISIBILITY_OPTIONS = { checkOpacity: true, checkVisibilityCSS: true };

type CheckVisibility = (this: Element, o: object) => boolean;
/**
 * The browser's checkVisibility, looked up once: `el.checkVisibility` on elements of many
 * classes is a megamorphic lookup per call. The same native function accepts elements of
 * same-origin frames.
 */
const CHECK_VISIBILITY: CheckVisibility | null =
  typeof Element !== "undefined" && typeof (Element.prototype as { checkVisibility?: unknown }).checkVisibility === "function"
    ? ((Element.prototype as unknown as { checkVisibility: CheckVisibility }).checkVisibility)
    : null;

/**
 * checkVisibility() where the browser has it (rendered, not visibility:hidden, not
 * transparent itself or through an ancestor); null where it does not.
 */
function checkVisible(el: Element): boolean | null {
  return CHECK_VISIBILITY ? CHECK_VISIBILITY.call(el, VISIBILITY_OPTIONS) : null;
}

/** Not visibility:hidden, not transparent (itself or an ancestor), rendered. */
function isVisible(el: Element, cs: CSSStyleDeclaration): boolean {
  return checkVisible(el) ?? (cs.visibility === "visible" && cs.opacity !== "0");
}

/**
 * Styles of 2.7. Colours and fonts (for visual cues) are read for elements within about two
 * screens of the viewport only: far below the fold they cost more than they tell.
 */
function stylesOf(cs: CSSStyleDeclaration, cursor: string, position: string, near: boolean): RawElement["styles"] {
  // z-index only applies to positioned boxes (and flex/grid items, rare for controls).
  const z_index = position === "static" ? "auto" : cs.zIndex;
  if (!near) return { z_index, cursor, position };
  // One literal, not a spread of the short form (one allocation, no property copying).
  return {
    z_index,
    cursor,
    position,
    background_color: cs.backgroundColor,
    color: cs.color,
    font_size: cs.fontSize,
    font_weight: cs.fontWeight,
    opacity: cs.opacity,
  };
}

const flatOrNull = (s: string | null): string | null => (s === null ? null : flat(s));

function putIf(attrs: Record<string, string | null>, k: string, v: string | null | undefined): void {
  if (v !== null && v !== undefined && v !== "") attrs[k] = v;
}

function emit(
  el: Element,
  tag: string,
  kind: Kind,
  scan: AttrScan,
  cs: CSSStyleDeclaration,
  /** Cursor and position as the walk read them (each computed-style read costs a µs). */
  cursor: string,
  position: string,
  /** The element's border box (getBoundingClientRect) in its frame's viewport. */
  left: number,
  top: number,
  w: number,
  h: number,
  hoverPointer: boolean,
  ctx: Ctx,
  f: Frame,
  inh: Inherited,
  /** Which path made it a candidate when its markup did not (listener records, looks). */
  found: FoundBy = FoundBy.None,
  look: Visual | null = null,
): RawElement | null {
  const x = left + f.offX;
  const y = top + f.offY;
  // Visible part: inside the top viewport and inside every frame on the way.
  const inViewport =
    x < Math.min(ctx.vw, f.clip.r) && x + w > Math.max(0, f.clip.l) && y < Math.min(ctx.vh, f.clip.b) && y + h > Math.max(0, f.clip.t);
  if (ctx.viewportOnly && !inViewport) return null;

  let tp = ctx.prof ? performance.now() : 0;
  const has = scan.has;
  const role = roleOf(el, has);
  if (ctx.prof) tp = lap(ctx.prof, "role", tp);
  const isInput = tag === "input";
  const sensitive =
    (isInput || tag === "textarea") &&
    isSensitiveField(el, { type: (has & Attr.Type) !== 0, autocomplete: (has & Attr.Autocomplete) !== 0, name: (has & Attr.Name) !== 0, id: (has & Attr.Id) !== 0 });
  const inputType = isInput ? (el as HTMLInputElement).type : null;
  let value: string | null = null;
  let redacted: string | null = null;
  if (isInput || tag === "textarea" || tag === "select") {
    const v = (el as HTMLInputElement).value ?? "";
    if (sensitive) {
      redacted = "true";
      if (v.length >= 3) ctx.secrets.push(v);
    } else value = flat(clip(v, VALUE_MAX));
  }
  let text: string;
  if (isInput) text = inputType && TEXT_INPUT_BUTTONS.has(inputType) ? squash((el as HTMLInputElement).value || (has & Attr.Alt ? el.getAttribute("alt") : "") || "") : "";
  else if (tag === "textarea") text = "";
  else if (tag === "select") {
    const sel = el as HTMLSelectElement;
    const opt = sel.selectedIndex >= 0 ? sel.options[sel.selectedIndex] : null;
    text = opt ? squash(opt.text) : "";
  } else text = shortText(el, ctx.textMax);
  text = flat(text);

  if (ctx.prof) tp = lap(ctx.prof, "text", tp);
  // Candidates reach emit() only when displayed and visible (isVisible()).
  const name = flat(clip(nameOf(el, role, ctx.names, true, has), 300));
  if (ctx.prof) tp = lap(ctx.prof, "name", tp);
  const isToggle = inputType === "checkbox" || inputType === "radio";
  const nativeDisabled = (el as HTMLButtonElement).disabled;
  // Keys without a value are left out (the contract allows null or absent): on a big page
  // most of them are empty and moving the JSON out of the page is the costly part.
  const attrs: Record<string, string | null> = { role };
  // Attributes the element does not carry (scan.has) are not read at all.
  if (has & Attr.Type) putIf(attrs, "type_", el.getAttribute("type"));
  putIf(attrs, "aria_label", name);
  // The computed name verbatim, also when empty ("" is an answer: no name), so a consumer
  // need not fall back to text or title for elements the algorithm leaves unnamed.
  attrs.accessible_name = name;
  if (has & Attr.Href) putIf(attrs, "href", tag === "a" || tag === "area" ? ctx.hrefs.resolve(el as HTMLAnchorElement) : el.getAttribute("href"));
  // Labels matter for fields; for other controls only when they have no words of their own.
  if (kind === Kind.Interactive && (FIELD_ROLES.has(role) || (!name && !text))) putIf(attrs, "nearby_text", flatOrNull(nearbyText(el, ctx.labels?.labelsFor)));
  // Icon-only controls: what the icon says it is (class tokens, SVG, image file, glyph), beside
  // the unchanged accessible name. Only short or empty labels are looked at (rare on any page).
  let inferred: string | null = null;
  if (kind === Kind.Interactive) {
    const lbl = name || text;
    if (lbl.length <= 3 || (lbl.length <= 30 && LOWER_WORD.test(lbl))) {
      const inf = inferIconName(el, name, text, () => cs.backgroundImage);
      if (inf) {
        inferred = inf.name;
        attrs.inferred_name = inf.name;
        attrs.inferred_from = inf.from;
      } else if (look !== null && look.hint !== null && !lbl) {
        // A swatch or a drawn shape: what it looks like is all it says ("blue square").
        inferred = look.hint;
        attrs.inferred_name = look.hint;
        attrs.inferred_from = look.kind;
      }
    }
  }
  if (found !== FoundBy.None) attrs.found_by = FOUND_BY_NAMES[found];
  if (look !== null) attrs.visual_kind = look.kind;
  if (kind === Kind.Interactive && (role === "button" || role === "link" || inferred !== null || found !== FoundBy.None) && (text || name || inferred || found !== FoundBy.None)) {
    putIf(attrs, "context_text", flatOrNull(contextText(el, text || name || "")));
  }
  if (has & Attr.Name) putIf(attrs, "name", el.getAttribute("name"));
  putIf(attrs, "input_type", inputType);
  if (value !== null) attrs.value = value;
  if (redacted) {
    attrs.value = null;
    attrs.value_redacted = redacted;
  }
  if (isToggle) attrs.checked = String((el as HTMLInputElement).checked);
  if (typeof nativeDisabled === "boolean") attrs.disabled = String(nativeDisabled);
  if (has) {
    if (has & Attr.AriaChecked) putIf(attrs, "aria_checked", el.getAttribute("aria-checked"));
    if (has & Attr.AriaDisabled) putIf(attrs, "aria_disabled", el.getAttribute("aria-disabled"));
    if (has & Attr.AriaExpanded) putIf(attrs, "aria_expanded", el.getAttribute("aria-expanded"));
    if (has & Attr.Placeholder) putIf(attrs, "placeholder", el.getAttribute("placeholder"));
    if (has & Attr.Title) putIf(attrs, "title", el.getAttribute("title"));
    if (has & Attr.Alt) putIf(attrs, "alt", el.getAttribute("alt"));
    if (has & Attr.Id) putIf(attrs, "id", el.id);
  }
  if (ctx.prof) tp = lap(ctx.prof, "attrs", tp);
  const cls = has & Attr.Class ? el.getAttribute("class") : null;
  if (cls) attrs.class_name = flat(clip(cls.trim(), 100));
  // Sightline additions, only when they carry something.
  if (scan.handler) attrs.has_click_handler = "true";
  if (kind === Kind.Interactive && cursor === "pointer") attrs.is_clickable = "true";
  if (hoverPointer) attrs.cursor_on_hover = "pointer";
  if (scan.tabindex !== null) attrs.tabindex = String(scan.tabindex);
  if (scan.editable) attrs.contenteditable = "true";
  if (inh.shadow) attrs.in_shadow = "true";
  const ac = has & Attr.Autocomplete ? el.getAttribute("autocomplete") : null;
  if (ac) attrs.autocomplete = ac;
  if (tag.length === 2 && tag[0] === "h" && tag[1] >= "1" && tag[1] <= "6") attrs.level = tag[1];
  if (f.depth > 0) attrs.frame_depth = String(f.depth);

  const id = idFor(el, ctx.state);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const raw: RawElement = {
    id,
    tag,
    rect: { x: r1(x), y: r1(y), width: r1(w), height: r1(h) },
    styles: stylesOf(cs, cursor, position, y + h > -ctx.vh && y < 3 * ctx.vh),
    attributes: attrs,
    text,
    in_viewport: inViewport,
    is_occluded: false,
    scroll_y: r1(ctx.scrollY),
    center_x: r1(cx),
    center_y: r1(cy),
    doc_y: r1(cy + ctx.scrollY),
    // Joined, not concatenated: a flat string (see flat()).
    group_key: inh.sequence ? [inh.container, role].join("|") : [inh.container, role, `x${Math.round(x / 16)}`].join("|"),
  };
  if (ctx.prof) lap(ctx.prof, "rest", tp);
  f.out.push(raw);
  ctx.count++;
  if (inViewport) ctx.pending.push({ el, raw, frame: f });
  return raw;
}

function walkFrame(iframe: HTMLIFrameElement, raw: RawElement, ctx: Ctx, parent: Frame): void {
  const attrs = raw.attributes as Record<string, string | null>;
  attrs.role = attrs.role === "generic" ? "iframe" : attrs.role;
  const src = iframe.getAttribute("src");
  if (src) attrs.iframe_src = flat(clip(iframe.src || src, 300));
  let doc: Document | null = null;
  try {
    doc = iframe.contentDocument;
  } catch {
    doc = null;
  }
  if (!doc) {
    // Cross-origin (or not loaded): the frame is reported, its content cannot be read.
    attrs.frame = iframe.contentWindow ? "cross-origin" : "unavailable";
    raw.iframe_content = [];
    return;
  }
  attrs.frame = "same-origin";
  if (parent.depth + 1 > 4 || !doc.documentElement) {
    raw.iframe_content = [];
    return;
  }
  const r = iframe.getBoundingClientRect();
  const pcs = ctx.style(iframe);
  const offX = parent.offX + r.left + iframe.clientLeft + (parseFloat(pcs.paddingLeft) || 0);
  const offY = parent.offY + r.top + iframe.clientTop + (parseFloat(pcs.paddingTop) || 0);
  const cw = iframe.clientWidth - (parseFloat(pcs.paddingLeft) || 0) - (parseFloat(pcs.paddingRight) || 0);
  const ch = iframe.clientHeight - (parseFloat(pcs.paddingTop) || 0) - (parseFloat(pcs.paddingBottom) || 0);
  const frame: Frame = {
    doc,
    win: doc.defaultView ?? window,
    offX,
    offY,
    frameEl: iframe,
    parent,
    clip: {
      l: Math.max(parent.clip.l, offX),
      t: Math.max(parent.clip.t, offY),
      r: Math.min(parent.clip.r, offX + cw),
      b: Math.min(parent.clip.b, offY + ch),
    },
    out: [],
    depth: parent.depth + 1,
    listeners: doc.defaultView ? listenerRegistry(doc.defaultView) : null,
    looks: true,
  };
  frame.looks = readLooks(frame.listeners, frame.win);
  scanStyleRules(doc, ctx.rules);
  if (doc.defaultView) ctx.labels?.add(doc.defaultView);
  const inh: Inherited = { container: 0, sequence: false, interactiveArea: 0, parentPointer: false, shadow: false, delegate: null, looks: false };
  if (doc.body) visit(doc.body, ctx, frame, inh);
  raw.iframe_content = frame.out;
}

function composedContains(outer: Element, inner: Element): boolean {
  for (let n: Node | null = inner; n; ) {
    if (n === outer) return true;
    const p: Node | null = n.parentNode;
    n = p && p.nodeType === 11 ? (p as ShadowRoot).host ?? null : p;
  }
  return false;
}

/** Some positioned box, neither an ancestor nor a descendant, overlaps the element. */
function mayBeCovered(el: Element, rect: { x: number; y: number; width: number; height: number }, occluders: Occluder[]): boolean {
  const r = rect.x + rect.width;
  const b = rect.y + rect.height;
  for (const o of occluders) {
    if (o.x >= r || o.r <= rect.x || o.y >= b || o.b <= rect.y || o.el === el) continue;
    if (composedContains(o.el, el) || composedContains(el, o.el)) continue;
    return true;
  }
  return false;
}

/** The scrub pass: a secret value that leaked into a name or text (embedded controls) is masked. */
function scrub(list: RawElement[], secrets: string[]): void {
  for (const raw of list) {
    raw.text = scrubSecrets(raw.text ?? "", secrets);
    const a = raw.attributes as Record<string, string | null>;
    for (const k of ["aria_label", "nearby_text", "context_text", "value", "title", "placeholder"]) {
      if (a[k]) a[k] = scrubSecrets(a[k] as string, secrets);
    }
    if (raw.iframe_content && raw.iframe_content.length) scrub(raw.iframe_content as RawElement[], secrets);
  }
}

export async function collect(options: CollectOptions = {}): Promise<CollectResult> {
  return collectSync(options);
}

export function collectSync(options: CollectOptions = {}): CollectResult {
  const t0 = performance.now();
  const phases: Record<string, number> = {};
  const mark = (name: string, since: number): number => {
    const now = performance.now();
    phases[name] = Math.round((now - since) * 10) / 10;
    return now;
  };
  const state = collectorState();
  installMutationClock(document, state);
  const vw = window.innerWidth || document.documentElement.clientWidth;
  const vh = window.innerHeight || document.documentElement.clientHeight;
  const rules = emptyRuleSets();
  const style = styleCache(rules.generatedContent);
  const ctx: Ctx = {
    names: { style, display: displayCache(style), lib: libraryStyle(style), generated: rules.generatedContent },
    state,
    rules,
    labels: null,
    hrefs: hrefResolver(),
    allRoles: options.allRoles === true,
    prof: options.timings ? {} : null,
    occluders: [],
    style,
    vw,
    vh,
    scrollY: window.scrollY,
    max: options.maxElements ?? 8000,
    textMax: options.maxTextLength ?? 200,
    frames: options.frames !== false,
    viewportOnly: options.viewportOnly === true,
    count: 0,
    pending: [],
    secrets: [],
  };
  const top: Frame = {
    doc: document,
    win: window,
    offX: 0,
    offY: 0,
    frameEl: null,
    parent: null,
    clip: { l: 0, t: 0, r: vw, b: vh },
    out: [],
    depth: 0,
    listeners: listenerRegistry(window),
    looks: true,
  };
  top.looks = readLooks(top.listeners, window);
  let t = performance.now();
  scanStyleRules(document, rules);
  t = mark("style_rules", t);
  const root = document.body ?? document.documentElement;
  ctx.labels = patchLabels(window);
  ctx.names.labels = ctx.labels;
  // One text cache for the walk and the captcha check: the latter's bounded read of the page
  // text reuses every card and control the walk has read instead of walking them again.
  const captcha = withTextCache(() => {
    try {
      if (root) visit(root, ctx, top, { container: 0, sequence: false, interactiveArea: 0, parentPointer: false, shadow: false, delegate: null, looks: false });
    } finally {
      ctx.labels?.restore();
    }
    t = mark("walk", t);
    if (options.occlusion !== false) {
      const hits: HitCache = new Map();
      for (const p of ctx.pending) {
        if (p.frame.depth === 0 && !mayBeCovered(p.el, p.raw.rect, ctx.occluders)) continue;
        p.raw.is_occluded = isOccluded(p.el, p.raw.rect, p.frame, vw, vh, hits);
      }
    }
    t = mark("occlusion", t);
    if (ctx.secrets.length) scrub(top.out, ctx.secrets);
    const found = detectCaptcha(document);
    t = mark("captcha", t);
    return found;
  });
  const nodeCount = document.getElementsByTagName("*").length;
  mark("total", t0);
  const metrics: Record<string, unknown> = {
    ready_state: document.readyState,
    quiet_ms: quietMs(state),
    node_count: nodeCount,
    collect_ms: phases.total,
  };
  if (ctx.prof) for (const [k, v] of Object.entries(ctx.prof)) phases[`emit_${k}`] = Math.round(v * 10) / 10;
  if (options.timings) metrics.phases_ms = phases;
  return {
    url: location.href,
    viewport: { width: vw, height: vh },
    raw_elements: top.out,
    client_metrics: metrics as CollectResult["client_metrics"],
    client_diagnostics: { captcha },
  };
}
