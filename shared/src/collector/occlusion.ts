// Occlusion by hit-testing. The centre is tested first (where an agent clicks); only when
// something else is there are four inset points tested, so an element is never called
// occluded from one point (a badge over the centre of a wide button does not hide it).
// Hits are shadow-aware (descend through open shadow roots) and frame-aware (each frame in
// the chain must be the top hit in its parent before the frame's own document is tested).
//
// A hit test costs Chromium about as much as walking the page's layers (0.05-0.2 ms on real
// 6,000-element pages), and a page with an overlay can need a thousand. So: a point's hit is
// looked up once per collect() (the DOM does not change meanwhile; nested elements with the same
// box, like li > a, share all five points), and the insets stop as soon as the verdict is known.

import { LABELABLE_TAGS } from "./element-labels.js";

export interface HitFrame {
  doc: Document;
  /** Frame content origin in top-viewport coordinates. */
  offX: number;
  offY: number;
  /** The <iframe> element in the parent document (null for the top document). */
  frameEl: Element | null;
  parent: HitFrame | null;
}

function composedParent(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const p = n.parentNode;
  return p && (p as ShadowRoot).host ? (p as ShadowRoot).host : null;
}

/** Hits already computed in this collect(), per document and point. */
export type HitCache = Map<Document, Map<string, Element | null>>;

function cachedHit(cache: HitCache, doc: Document, x: number, y: number): Element | null {
  let hits = cache.get(doc);
  if (!hits) cache.set(doc, (hits = new Map()));
  const key = `${x},${y}`;
  let hit = hits.get(key);
  if (hit === undefined) hits.set(key, (hit = deepElementFromPoint(doc, x, y)));
  return hit;
}

/** Topmost element at a point, descending into open shadow roots. */
export function deepElementFromPoint(root: Document, x: number, y: number): Element | null {
  let hit = root.elementFromPoint(x, y);
  for (let i = 0; hit && hit.shadowRoot && i < 32; i++) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/**
 * Elements a <label> can name (its `control` is always one of these): the labelable HTML
 * elements, and custom elements (which may be form-associated).
 */
const mayHaveLabel = (el: Element): boolean => LABELABLE_TAGS.has(el.localName) || el.localName.includes("-");

/**
 * The hit counts as the element itself: the element, its descendant, its ancestor, or its
 * label. `labelled` is mayHaveLabel(el): no label names any other element, so for those the
 * label test is not made at every ancestor of every hit.
 */
function isSelf(el: Element, hit: Element | null, labelled: boolean): boolean {
  if (!hit) return false;
  if (hit === el) return true;
  for (let n: Element | null = hit, i = 0; n && i < 64; n = composedParent(n), i++) {
    if (n === el) return true;
    if (labelled && n.localName === "label" && (n as HTMLLabelElement).control === el) return true;
  }
  // An ancestor on top means nothing else covers the element there (pointer-events:none
  // children, transparent icons): not occluded.
  for (let n: Element | null = composedParent(el), i = 0; n && i < 64; n = composedParent(n), i++) {
    if (n === hit) return true;
  }
  return false;
}

function hitsSelf(el: Element, frame: HitFrame, x: number, y: number, cache: HitCache, labelled: boolean): boolean {
  // The top document (most elements): one hit, no frame chain to build (its offsets are 0).
  if (!frame.parent) return isSelf(el, cachedHit(cache, frame.doc, x - frame.offX, y - frame.offY), labelled);
  const chain: HitFrame[] = [];
  for (let f: HitFrame | null = frame; f; f = f.parent) chain.unshift(f);
  for (let i = 0; i < chain.length; i++) {
    const f = chain[i];
    const hit = cachedHit(cache, f.doc, x - f.offX, y - f.offY);
    if (i < chain.length - 1) {
      if (hit !== chain[i + 1].frameEl) return false;
    } else return isSelf(el, hit, labelled);
  }
  return false;
}

/**
 * `rect` in top-viewport coordinates; points outside the viewport are not tested. `cache`
 * holds the hits of this collect() (pass the same map for every element of one collect).
 */
export function isOccluded(
  el: Element,
  rect: { x: number; y: number; width: number; height: number },
  frame: HitFrame,
  vw: number,
  vh: number,
  cache: HitCache = new Map(),
): boolean {
  const inView = (x: number, y: number) => x >= 0 && y >= 0 && x < vw && y < vh;
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + rect.height / 2;
  const labelled = mayHaveLabel(el);
  if (inView(cx, cy) && hitsSelf(el, frame, cx, cy, cache, labelled)) return false;
  const points: Array<[number, number]> = [];
  for (const [fx, fy] of INSETS) {
    const x = rect.x + rect.width * fx;
    const y = rect.y + rect.height * fy;
    if (inView(x, y)) points.push([x, y]);
  }
  if (!points.length) return inView(cx, cy);
  // Occluded when fewer than `need` insets hit the element itself (fewer than two, and not
  // all of them): stop once the count of self hits settles that either way.
  const need = Math.min(2, points.length);
  let self = 0;
  for (let i = 0; i < points.length; i++) {
    if (hitsSelf(el, frame, points[i][0], points[i][1], cache, labelled)) self++;
    if (self >= need) return false;
    if (self + (points.length - i - 1) < need) return true;
  }
  return true; // not reached: on the last point one of the two tests above decides
}

const INSETS: Array<[number, number]> = [
  [0.2, 0.2],
  [0.8, 0.2],
  [0.2, 0.8],
  [0.8, 0.8],
];
