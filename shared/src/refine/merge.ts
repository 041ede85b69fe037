// Nested duplicates: a tab and the link inside it, a list item and its only button, a custom
// control and the native one it wraps — one target reported twice, the wrong one often first.
// Two clickable candidates whose boxes coincide are merged: the one an agent should click is
// kept (it carries a label; then a widget item's role; then a native control over an ARIA role
// over a cursor/handler; then the inner one, where the click lands), and the other's id goes in its `merged_ids` (the page
// still knows that id, so an action by it still resolves). A widget item (a tab, a menu item)
// wins over the plain link or button inside it: it carries the role and state, and the click
// lands in the same box.
// A part of a control is the control too: an icon or label inside a button or link (an <i>, a
// ligature <span>, an <svg> that inherits the pointer cursor) with no click handler of its own
// and no words the control lacks is merged into the control that holds it; the control is kept
// (it has the role, and a click on it lands on the part anyway).
import type { RawElement, RefinedElement } from "../contract/index.js";

const NATIVE = new Set(["button", "a", "input", "select", "textarea", "summary", "option"]);
const CLICK_ROLES = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox", "radio", "switch", "treeitem", "gridcell"]);
/** Edges within this many px, and IoU at least MIN_IOU: the same box. */
const SLACK = 4;
const MIN_IOU = 0.85;
const CELL = 8;

export interface MergeItem {
  el: RefinedElement;
  raw: RawElement;
  interactive: boolean;
}

function clickable(w: MergeItem): boolean {
  return w.interactive || w.el.visual_cues.is_clickable;
}

/** Roles of a composite widget's items: they carry the state (selected tab, checked item) the plain link inside lacks. */
const WIDGET_ROLES = new Set(["tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "checkbox", "radio", "switch", "gridcell"]);

function merit(w: MergeItem): number {
  const e = w.el;
  let m = 0;
  if (e.name || e.text) m += 16;
  if (WIDGET_ROLES.has(e.role)) m += 8;
  if (e.tag !== null && NATIVE.has(e.tag)) m += 4;
  if (CLICK_ROLES.has(e.role)) m += 2;
  return m;
}

function iou(a: RefinedElement["bbox"], b: RefinedElement["bbox"]): number {
  const x1 = Math.max(a.x, b.x), y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width), y2 = Math.min(a.y + a.height, b.y + b.height);
  const i = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const u = a.width * a.height + b.width * b.height - i;
  return u > 0 ? i / u : 0;
}

function same(a: RefinedElement["bbox"], b: RefinedElement["bbox"]): boolean {
  return Math.abs(a.x - b.x) <= SLACK && Math.abs(a.y - b.y) <= SLACK && Math.abs(a.width - b.width) <= 2 * SLACK &&
    Math.abs(a.height - b.height) <= 2 * SLACK && iou(a, b) >= MIN_IOU;
}

/** Attributes that say an element handles clicks itself (not a cursor inherited from its control). */
const OWN_HANDLER = ["has_click_handler", "onclick", "has_onclick", "found_by"] as const;

/** A handler-less part that only looks clickable because its control is (not a control itself). */
function partOnly(w: MergeItem): boolean {
  const e = w.el;
  if ((e.tag !== null && NATIVE.has(e.tag)) || WIDGET_ROLES.has(e.role)) return false;
  const a = w.raw.attributes;
  if (a) for (const k of OWN_HANDLER) if (a[k] !== undefined && a[k] !== null && a[k] !== "false") return false;
  return true;
}

function inside(inner: RefinedElement["bbox"], outer: RefinedElement["bbox"]): boolean {
  return inner.x >= outer.x - SLACK && inner.y >= outer.y - SLACK && inner.x + inner.width <= outer.x + outer.width + SLACK &&
    inner.y + inner.height <= outer.y + outer.height + SLACK;
}

/** Whether `outer` is a control and `part` says nothing it does not (its words or icon are the control's). */
function holds(outer: MergeItem, part: MergeItem): boolean {
  const o = outer.el, p = part.el;
  if (!outer.interactive || !(CLICK_ROLES.has(o.role) || (o.tag !== null && NATIVE.has(o.tag)))) return false;
  const words = p.name || p.text;
  if (words && words !== o.name && words !== o.text) return false;
  return p.inferred_name === undefined || p.inferred_name === o.inferred_name || Boolean(o.name || o.text);
}

/** How far back (in document order) a part's control may be: it is its ancestor, just before it. */
const PART_LOOKBACK = 3;

/** Returns `items` without the merged-away duplicates (order kept). Boxes are bucketed: O(n). */
export function mergeDuplicates<T extends MergeItem>(items: T[]): T[] {
  const grid = new Map<string, number[]>();
  const gone = new Uint8Array(items.length);
  let merged = 0;
  for (let i = 0; i < items.length; i++) {
    const w = items[i];
    const b = w.el.bbox;
    if (!clickable(w) || b.width <= 0 || b.height <= 0) continue;
    if (partOnly(w)) {
      for (let j = i - 1; j >= 0 && j >= i - PART_LOOKBACK; j--) {
        const o = items[j];
        if (gone[j] || !inside(b, o.el.bbox) || o.el.in_viewport !== w.el.in_viewport || !holds(o, w)) continue;
        o.el.merged_ids = [...(o.el.merged_ids ?? []), w.el.id, ...(w.el.merged_ids ?? [])];
        gone[i] = 1;
        merged++;
        break;
      }
      if (gone[i]) continue;
    }
    const cx = Math.round(b.x / CELL), cy = Math.round(b.y / CELL);
    // Earlier items in the neighbouring cells (a box within SLACK px lands in one of them).
    for (let dx = -1; dx <= 1 && !gone[i]; dx++) {
      for (let dy = -1; dy <= 1 && !gone[i]; dy++) {
        const cell = grid.get(`${cx + dx}|${cy + dy}`);
        if (!cell) continue;
        for (const j of cell) {
          if (gone[j] || !same(items[j].el.bbox, b) || items[j].el.in_viewport !== w.el.in_viewport) continue;
          // i comes later in document order: the inner one. Keep it unless j is worth more.
          const keepInner = merit(w) >= merit(items[j]);
          const [keep, drop] = keepInner ? [i, j] : [j, i];
          const k = items[keep].el;
          k.merged_ids = [...(k.merged_ids ?? []), items[drop].el.id, ...(items[drop].el.merged_ids ?? [])];
          gone[drop] = 1;
          merged++;
          if (drop === i) break;
        }
      }
    }
    if (!gone[i]) {
      const key = `${cx}|${cy}`;
      const cell = grid.get(key);
      if (cell) cell.push(i);
      else grid.set(key, [i]);
    }
  }
  return merged === 0 ? items : items.filter((_, i) => !gone[i]);
}
