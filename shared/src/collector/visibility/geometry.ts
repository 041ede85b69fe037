// Rectangles in viewport coordinates, and the clip shapes CSS can give a box (clip-path,
// clip), reduced to the rectangle that bounds what they let through. A bounding rectangle is
// a superset of the shape: a shape it calls empty shows nothing (inset(50%), circle(0),
// a polygon on a line), and one it calls non-empty may still show a little less than it says.

export interface Rect {
  l: number;
  t: number;
  r: number;
  b: number;
}

export const EVERYWHERE: Rect = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
export const NOWHERE: Rect = { l: 0, t: 0, r: 0, b: 0 };

export function intersect(a: Rect, b: Rect): Rect {
  if (a === EVERYWHERE) return b;
  if (b === EVERYWHERE) return a;
  return { l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) };
}

export const width = (r: Rect): number => Math.max(0, r.r - r.l);
export const height = (r: Rect): number => Math.max(0, r.b - r.t);
export const isEmpty = (r: Rect): boolean => !(r.r > r.l && r.b > r.t);
export const fromDOMRect = (d: DOMRectReadOnly): Rect => ({ l: d.left, t: d.top, r: d.right, b: d.bottom });
export const overlaps = (a: Rect, b: Rect): boolean => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

/** A length of a computed value against a reference size: `12px`, `50%`, `calc(50% - 4px)`. */
export function lengthOf(s: string, ref: number): number | null {
  const v = s.trim();
  if (!v) return null;
  if (v.startsWith("calc(")) {
    let sum = 0;
    // Computed calc() is a sum of percentage and pixel terms.
    const terms = v.slice(5, -1).replace(/\s*-\s*/g, " +-").split(/\s*\+\s*/).filter(Boolean);
    for (const t of terms) {
      const n = lengthOf(t.replace(/^\+/, ""), ref);
      if (n === null) return null;
      sum += n;
    }
    return sum;
  }
  const m = /^(-?[\d.]+(?:e-?\d+)?)(px|%)?$/.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] === "%" ? (n * ref) / 100 : n;
}

/** Splits at top-level commas or spaces (not inside calc()). */
function splitTop(s: string, sep: "," | " "): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of s) {
    if (c === "(") depth++;
    else if (c === ")") depth--;
    if (depth === 0 && (sep === "," ? c === "," : /\s/.test(c))) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** `50% 50%` / `left top` / `center` as a point in a w×h box. */
function positionOf(s: string | undefined, w: number, h: number): [number, number] {
  if (!s) return [w / 2, h / 2];
  const kw: Record<string, number> = { left: 0, top: 0, center: 50, right: 100, bottom: 100 };
  const parts = splitTop(s, " ");
  const x = parts[0] ?? "center";
  const y = parts[1] ?? "center";
  const at = (p: string, ref: number) => (p in kw ? (kw[p] * ref) / 100 : lengthOf(p, ref) ?? ref / 2);
  return [at(x, w), at(y, h)];
}

function radiusOf(s: string, cx: number, cy: number, w: number, h: number, ref: number, axis: "x" | "y" | "r"): number {
  if (s === "closest-side") return axis === "x" ? Math.min(cx, w - cx) : axis === "y" ? Math.min(cy, h - cy) : Math.min(cx, w - cx, cy, h - cy);
  if (s === "farthest-side") return axis === "x" ? Math.max(cx, w - cx) : axis === "y" ? Math.max(cy, h - cy) : Math.max(cx, w - cx, cy, h - cy);
  return Math.max(0, lengthOf(s, ref) ?? 0);
}

/**
 * The part of `box` (the element's border box, viewport coordinates) a computed clip-path lets
 * through, as its bounding rectangle; EVERYWHERE when the value clips nothing or cannot be
 * read (url() references are resolved by the caller).
 */
export function clipPathRect(value: string, box: Rect): Rect {
  const v = value.trim();
  if (!v || v === "none") return EVERYWHERE;
  const w = width(box);
  const h = height(box);
  const m = /^([a-z-]+)\((.*)\)/s.exec(v);
  if (!m) return EVERYWHERE; // a lone geometry box (border-box): the box itself
  const [, fn, args] = m;
  if (fn === "inset") {
    // inset(top [right [bottom [left]]] [round …]), the shorthand's order.
    const parts = splitTop(args.split(/\s+round\s+/)[0] ?? "", " ");
    const [t = "0", r = t, b = t, l = r] = parts;
    const px = (x: string, ref: number) => lengthOf(x, ref) ?? 0;
    return { l: box.l + px(l, w), t: box.t + px(t, h), r: box.r - px(r, w), b: box.b - px(b, h) };
  }
  if (fn === "circle" || fn === "ellipse") {
    const [shape, at] = args.split(/\s*\bat\b\s*/);
    const [cx, cy] = positionOf(at, w, h);
    const radii = splitTop(shape ?? "", " ");
    let rx: number;
    let ry: number;
    if (fn === "circle") {
      rx = ry = radiusOf(radii[0] ?? "closest-side", cx, cy, w, h, Math.hypot(w, h) / Math.SQRT2, "r");
    } else {
      rx = radiusOf(radii[0] ?? "closest-side", cx, cy, w, h, w, "x");
      ry = radiusOf(radii[1] ?? "closest-side", cx, cy, w, h, h, "y");
    }
    return { l: box.l + cx - rx, t: box.t + cy - ry, r: box.l + cx + rx, b: box.t + cy + ry };
  }
  if (fn === "polygon") {
    const pts = splitTop(args, ",").filter((p) => !/^(?:nonzero|evenodd)$/.test(p));
    let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
    for (const p of pts) {
      const [xs, ys] = splitTop(p, " ");
      const x = lengthOf(xs ?? "0", w) ?? 0;
      const y = lengthOf(ys ?? "0", h) ?? 0;
      l = Math.min(l, x);
      r = Math.max(r, x);
      t = Math.min(t, y);
      b = Math.max(b, y);
    }
    if (!pts.length) return NOWHERE;
    return { l: box.l + l, t: box.t + t, r: box.l + r, b: box.t + b };
  }
  if (fn === "path") {
    // The numbers of the path as points: an empty path (M0 0) bounds nothing.
    const nums = (args.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
    if (nums.length < 2) return NOWHERE;
    let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
    for (let i = 0; i + 1 < nums.length; i += 2) {
      l = Math.min(l, nums[i]);
      r = Math.max(r, nums[i]);
      t = Math.min(t, nums[i + 1]);
      b = Math.max(b, nums[i + 1]);
    }
    return r - l <= 0 || b - t <= 0 ? NOWHERE : EVERYWHERE;
  }
  return EVERYWHERE;
}

/** The computed `clip` of an absolutely positioned box: `rect(top, right, bottom, left)`. */
export function clipRect(value: string, box: Rect): Rect {
  const m = /^rect\((.*)\)$/.exec(value.trim());
  if (!m) return EVERYWHERE;
  const parts = m[1].split(/\s*,\s*|\s+/);
  if (parts.length !== 4) return EVERYWHERE;
  const [t, r, b, l] = parts.map((p) => (p === "auto" ? null : lengthOf(p, 0)));
  return { l: box.l + (l ?? 0), t: box.t + (t ?? 0), r: r === null ? box.r : box.l + r, b: b === null ? box.b : box.t + b };
}
