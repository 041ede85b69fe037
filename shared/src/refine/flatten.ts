// iframe_content flattening: a frame's raw elements arrive nested under the iframe element,
// already in top-level viewport coordinates, and are refined like any other element.
import { MAX_IFRAME_DEPTH, type RawElement } from "../contract/index.js";

function usable(e: unknown): e is RawElement {
  if (e === null || typeof e !== "object") return false;
  const r = (e as RawElement).rect;
  return typeof (e as RawElement).id === "number" && r !== null && typeof r === "object";
}

/**
 * Depth-first, document order: each iframe element is followed by its frame's elements.
 * (refineSnapshot walks frames itself; this is for the passes that need one flat list:
 * viewport derivation, parent lookups.)
 * Frames nested deeper than MAX_IFRAME_DEPTH, and items without an id or rect (possible in
 * local mode, where nothing validated them), are skipped.
 */
export function flattenElements(top: readonly RawElement[]): RawElement[] {
  let nested = false;
  for (const e of top) if (e && e.iframe_content && e.iframe_content.length > 0) { nested = true; break; }
  if (!nested) return top.filter(usable);
  const out: RawElement[] = [];
  const walk = (list: readonly unknown[], depth: number) => {
    for (const e of list) {
      if (!usable(e)) continue;
      out.push(e);
      const kids = e.iframe_content;
      if (kids && kids.length > 0 && depth < MAX_IFRAME_DEPTH) walk(kids, depth + 1);
    }
  };
  walk(top, 0);
  return out;
}
