// The current element most like one that went stale: same role and name first, then same
// name, then same role nearest to where it was. Named for the agent to retry, never used for it.
import type { RefinedElement } from "../../contract/index.js";

const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim().toLowerCase();
const label = (el: RefinedElement) => norm(el.name) || norm(el.text);

function distance(a: RefinedElement, b: RefinedElement): number {
  const ay = a.doc_y ?? a.center_y ?? a.bbox.y;
  const by = b.doc_y ?? b.center_y ?? b.bbox.y;
  return Math.hypot((a.center_x ?? a.bbox.x) - (b.center_x ?? b.bbox.x), ay - by);
}

export function closestElement(gone: RefinedElement, current: RefinedElement[]): RefinedElement | null {
  const others = current.filter((el) => el.id !== gone.id);
  const name = label(gone);
  const byDistance = (list: RefinedElement[]) => list.sort((a, b) => distance(gone, a) - distance(gone, b))[0] ?? null;
  if (name) {
    const same = others.filter((el) => el.role === gone.role && label(el) === name);
    if (same.length) return byDistance(same);
    const named = others.filter((el) => label(el) === name);
    if (named.length) return byDistance(named);
  }
  const role = others.filter((el) => el.role === gone.role && distance(gone, el) < 200);
  return byDistance(role);
}
