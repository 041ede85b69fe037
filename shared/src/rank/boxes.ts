// Which candidates' centres fall inside a candidate's box (a landmark, list or card holding
// controls): shared by the heuristic's and the model's container features.
import type { RefinedElement } from "../contract/index.js";

/** What these functions read of a candidate (structural: no import of features.ts, no cycle). */
type Candidate = { element: Pick<RefinedElement, "bbox"> };

/**
 * Candidate centres sorted by y, so "which centres fall inside this box" is a binary search and
 * a scan of the box's rows, not a pass over every candidate (a page can have thousands).
 */
export interface Centres {
  ys: Float64Array;
  xs: Float64Array;
  ids: Int32Array;
}

export function centresOf(cands: Candidate[]): Centres {
  const n = cands.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const cy = (i: number) => cands[i].element.bbox.y + cands[i].element.bbox.height / 2;
  order.sort((a, b) => cy(a) - cy(b));
  const ys = new Float64Array(n), xs = new Float64Array(n), ids = new Int32Array(n);
  order.forEach((ci, k) => {
    const b = cands[ci].element.bbox;
    ys[k] = b.y + b.height / 2;
    xs[k] = b.x + b.width / 2;
    ids[k] = ci;
  });
  return { ys, xs, ids };
}

/** How many other candidates (at most `cap`) have their centre strictly inside candidate i's box. */
export function holds(i: number, cands: Candidate[], c: Centres, cap: number): number {
  const b = cands[i].element.bbox;
  const y0 = b.y, y1 = b.y + b.height, x0 = b.x, x1 = b.x + b.width;
  let lo = 0, hi = c.ys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.ys[mid] <= y0) lo = mid + 1;
    else hi = mid;
  }
  let k = 0;
  for (let j = lo; j < c.ys.length && c.ys[j] < y1; j++) {
    if (c.ids[j] !== i && c.xs[j] > x0 && c.xs[j] < x1 && ++k >= cap) break;
  }
  return k;
}

