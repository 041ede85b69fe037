// Row context for look-alike controls: a list's trash icons, "Book" buttons or stars are the same
// control many times over, and only the row or card around each (the collector's
// `context_text`) tells them apart. Such controls get it as `context_text`, which goal ranking
// weighs and toPrompt writes; a control whose label is its own gets nothing (payload). Likewise
// the form a control belongs to (`purpose`), for look-alike fields and buttons.
import type { RawElement, RefinedElement } from "../contract/index.js";
import { compact } from "./text.js";

const CONTEXT_CAP = 160;

/** A label with digits, prices and separators masked: "Book 2" and "Book 3" look alike. */
function shapeOf(el: RefinedElement): string {
  const label = el.text || el.name || el.inferred_name || "";
  return `${el.role}|${label.toLowerCase().replace(/[\d.,$€£¥]+/g, "#")}`;
}

/** Share of a context's characters at which it may be a list of its neighbours' labels, not a card. */
const LISTING_SHARE = 0.5;

/**
 * The row or card text of look-alike controls, where it tells them apart. Left out: a text
 * that two look-alikes share (a menu shown twice, desktop and mobile, gives each link the same
 * list), and a text that mostly lists other controls' labels (a menu's "Home About Shop Contact" tells the
 * agent nothing of one link).
 */
export function markRowContext(items: ReadonlyArray<{ el: RefinedElement; raw: RawElement }>): void {
  let shapes: Map<string, number> | null = null;
  const withCtx: Array<{ el: RefinedElement; ctx: string; shape: string }> = [];
  for (const { el, raw } of items) {
    const c = raw.attributes?.context_text;
    if (typeof c !== "string" || c === "") continue;
    const shape = shapeOf(el);
    shapes ??= new Map();
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    withCtx.push({ el, ctx: compact(c, CONTEXT_CAP), shape });
  }
  if (shapes === null) return;
  // How often each (shape, context) pair occurs: a context shared within a shape separates nothing.
  const pairs = new Map<string, number>();
  for (const w of withCtx) {
    if ((shapes.get(w.shape) ?? 0) < 2) continue;
    const k = `${w.shape}\u0000${w.ctx}`;
    pairs.set(k, (pairs.get(k) ?? 0) + 1);
  }
  let labels: LabelIndex | null = null;
  for (const { el, ctx, shape } of withCtx) {
    if ((shapes.get(shape) ?? 0) < 2 || ctx === "" || ctx === el.text) continue;
    if ((pairs.get(`${shape}\u0000${ctx}`) ?? 0) > 1) continue;
    labels ??= labelIndex(items);
    if (listsNeighbours(el, ctx, labels)) continue;
    el.context_text = ctx;
  }
}

/** Clickable candidates' labels (lower case), keyed by their first word. */
type LabelIndex = Map<string, string[]>;
const firstWord = (s: string): string => s.split(" ", 1)[0];

function labelIndex(items: ReadonlyArray<{ el: RefinedElement }>): LabelIndex {
  const out: LabelIndex = new Map();
  for (const { el } of items) {
    if (!el.visual_cues.is_clickable) continue;
    const label = (el.text || el.name || "").toLowerCase().replace(/\s+/g, " ").trim();
    if (label.length < 2 || label.length > 60) continue;
    const k = firstWord(label);
    let l = out.get(k);
    if (!l) out.set(k, (l = []));
    if (l.length < 50 && !l.includes(label)) l.push(label);
  }
  return out;
}

/**
 * The context is mostly other controls' labels (a menu or a tag list): at least two of them,
 * covering half of what the context says beyond the control's own label.
 */
function listsNeighbours(el: RefinedElement, ctx: string, index: LabelIndex): boolean {
  const own = (el.text || el.name || "").toLowerCase().replace(/\s+/g, " ").trim();
  const hay = ctx.toLowerCase().replace(/\s+/g, " ").trim();
  let covered = 0;
  let found = 0;
  let at = 0;
  while (at < hay.length) {
    const end = hay.indexOf(" ", at);
    const word = hay.slice(at, end < 0 ? hay.length : end);
    let step = word.length + 1;
    for (const l of index.get(word) ?? []) {
      if (l === own || !hay.startsWith(l, at)) continue;
      const after = hay[at + l.length];
      if (after !== undefined && after !== " ") continue;
      covered += l.length;
      found++;
      step = l.length + 1;
      break;
    }
    at += step;
  }
  return found >= 2 && covered >= LISTING_SHARE * Math.max(1, hay.length - own.length);
}

/** The purpose says no more than the control's own label (textbox "Search" in form "Search"). */
function repeatsLabel(el: RefinedElement, purpose: string): boolean {
  const own = `${el.name ?? ""} ${el.text ?? ""}`.toLowerCase();
  return own.includes(purpose.toLowerCase());
}

/** Roles of fields: one text field looks like another whatever its placeholder says. */
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "listbox", "slider"]);
const PURPOSE_CAP = 40;

/**
 * What a control is for, where it tells look-alikes apart: fields of the same role, or buttons
 * and links of the same role and label, that sit in forms of different purposes (the
 * collector's `purpose`: "Newsletter", "Sign in", "Search") get it as `purpose`, which toPrompt
 * writes as `in form "…"`. A page with one form says nothing more (payload), nor does a purpose
 * the control's own label already says.
 */
export function markPurpose(items: ReadonlyArray<{ el: RefinedElement; raw: RawElement }>): void {
  let groups: Map<string, Array<{ el: RefinedElement; purpose: string }>> | null = null;
  for (const { el, raw } of items) {
    if (!el.visual_cues.is_clickable && !FIELD_ROLES.has(el.role) && el.role !== "button") continue;
    const p = raw.attributes?.purpose;
    const purpose = typeof p === "string" ? compact(p, PURPOSE_CAP) : "";
    const key = FIELD_ROLES.has(el.role) ? el.role : shapeOf(el);
    groups ??= new Map();
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push({ el, purpose });
  }
  if (groups === null) return;
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const distinct = new Set(g.map((m) => m.purpose));
    if (distinct.size < 2) continue;
    for (const m of g) if (m.purpose !== "" && !repeatsLabel(m.el, m.purpose)) m.el.purpose = m.purpose;
  }
}
