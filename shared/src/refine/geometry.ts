// Geometry: viewport derivation, in-viewport tests, centres and the grouping of elements into
// lists/columns/rows (group_key, group_index, dominant group).
import type { RawElement, Viewport } from "../contract/index.js";

const fin = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Used when the viewport is omitted and no element has a box to derive it from. */
export const FALLBACK_VIEWPORT: Viewport = { width: 1280, height: 720 };

/**
 * Viewport when the request omits it: width = the largest right edge (x + width) of elements
 * with a box; height = the largest bottom edge (y + height) of elements the collector marked
 * `in_viewport` (of all elements when none carries the flag), both rounded up, at least 1.
 * With no boxed element at all, FALLBACK_VIEWPORT (1280x720).
 */
export function deriveViewport(elements: readonly RawElement[]): Viewport {
  let maxRight = 0, maxBottomVisible = 0, maxBottomAll = 0;
  let anyBox = false, anyFlag = false;
  for (const e of elements) {
    const r = e.rect;
    if (!r || typeof r !== "object") continue;
    const x = fin(r.x), y = fin(r.y), w = fin(r.width), h = fin(r.height);
    if (!(w > 0) || !(h > 0)) continue;
    anyBox = true;
    const right = x + w, bottom = y + h;
    if (right > maxRight) maxRight = right;
    if (bottom > maxBottomAll) maxBottomAll = bottom;
    if (e.in_viewport === true) {
      anyFlag = true;
      if (bottom > maxBottomVisible) maxBottomVisible = bottom;
    } else if (e.in_viewport === false) anyFlag = true;
  }
  if (!anyBox) return { ...FALLBACK_VIEWPORT };
  const height = anyFlag && maxBottomVisible > 0 ? maxBottomVisible : maxBottomAll;
  return { width: Math.max(1, Math.ceil(maxRight)), height: Math.max(1, Math.ceil(height)) };
}

/** Whether a viewport-coordinate box intersects the viewport with positive area. */
export function intersectsViewport(x: number, y: number, w: number, h: number, vp: Viewport): boolean {
  return w > 0 && h > 0 && x < vp.width && y < vp.height && x + w > 0 && y + h > 0;
}

/** Share (0..1) of the viewport a box covers. */
export function viewportCoverage(x: number, y: number, w: number, h: number, vp: Viewport): number {
  const ix = Math.max(0, Math.min(x + w, vp.width) - Math.max(x, 0));
  const iy = Math.max(0, Math.min(y + h, vp.height) - Math.max(y, 0));
  const area = vp.width * vp.height;
  return area > 0 ? Math.min(1, (ix * iy) / area) : 0;
}

/** What grouping needs of an element. */
export interface GroupItem {
  id: number;
  role: string;
  x: number;
  /** Top edge in document coordinates. */
  docTop: number;
  center_x: number;
  doc_y: number;
  interactive: boolean;
  /** Key sent by the collector, or null to compute a geometric one. */
  rawKey: string | null;
  group_key: string | null;
  group_index: number | null;
  in_dominant_group: boolean | null;
}

/** Pixel size of the geometric buckets: items of one list share a left edge or a top edge. */
const BUCKET = 8;

/**
 * Fill group_key (collector's, else geometric), group_index (0-based by doc_y, then x, then id,
 * within the group) and in_dominant_group; return the dominant key.
 *
 * Geometric key: an element joins the column of same-role elements sharing its left edge
 * (`col:<role>:<x>`) or the row sharing its top edge (`row:<role>:<y>`), whichever is larger
 * (column on ties) — vertical lists and horizontal menus both come out as one group.
 *
 * Dominant group: the key with most interactive members (all members when nothing is
 * interactive); ties go to the group that starts higher on the page, then to the smaller key.
 */
export function assignGroups(items: GroupItem[]): string | null {
  // Numeric bucket ids (role number x bucket) keep the counting off string building and
  // hashing; the key string is made once per distinct group.
  const roleIds = new Map<string, number>();
  const counts = new Map<number, number>();
  const colIds = new Float64Array(items.length);
  const rowIds = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.rawKey !== null) continue;
    let rid = roleIds.get(it.role);
    if (rid === undefined) { rid = roleIds.size; roleIds.set(it.role, rid); }
    // Two disjoint id spaces: columns even, rows odd; buckets offset to stay non-negative.
    const cb = Math.round(it.x / BUCKET) + 1e6, rb = Math.round(it.docTop / BUCKET) + 1e6;
    const cid = (rid * 4e6 + cb) * 2, rowId = (rid * 4e6 + rb) * 2 + 1;
    colIds[i] = cid;
    rowIds[i] = rowId;
    counts.set(cid, (counts.get(cid) ?? 0) + 1);
    counts.set(rowId, (counts.get(rowId) ?? 0) + 1);
  }
  const roleNames: string[] = [];
  for (const [name, id] of roleIds) roleNames[id] = name;
  const keyText = new Map<number, string>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.rawKey !== null) { it.group_key = it.rawKey; continue; }
    const c = counts.get(colIds[i]) ?? 0, r = counts.get(rowIds[i]) ?? 0;
    const id = r > c ? rowIds[i] : colIds[i];
    let k = keyText.get(id);
    if (k === undefined) {
      const isRow = id % 2 === 1;
      const v = (id - (isRow ? 1 : 0)) / 2;
      const rid = Math.floor(v / 4e6), bucket = (v - rid * 4e6 - 1e6) * BUCKET;
      k = `${isRow ? "row" : "col"}:${roleNames[rid]}:${bucket}`;
      keyText.set(id, k);
    }
    it.group_key = k;
  }

  // One sort for all groups; each group's counter then yields its 0-based index.
  const order = items.slice().sort((a, b) => a.doc_y - b.doc_y || a.center_x - b.center_x || a.id - b.id);
  const next = new Map<string, number>();
  const stats = new Map<string, { all: number; interactive: number; top: number }>();
  let anyInteractive = false;
  for (const it of order) {
    const k = it.group_key as string;
    const n = next.get(k) ?? 0;
    it.group_index = n;
    next.set(k, n + 1);
    let s = stats.get(k);
    if (!s) { s = { all: 0, interactive: 0, top: it.doc_y }; stats.set(k, s); }
    s.all++;
    if (it.interactive) { s.interactive++; anyInteractive = true; }
  }

  let dominant: string | null = null;
  let best = { n: -1, top: Infinity };
  for (const [k, s] of stats) {
    const n = anyInteractive ? s.interactive : s.all;
    if (n > best.n || (n === best.n && (s.top < best.top || (s.top === best.top && dominant !== null && k < dominant)))) {
      dominant = k;
      best = { n, top: s.top };
    }
  }
  for (const it of items) it.in_dominant_group = dominant !== null && it.group_key === dominant;
  return dominant;
}
