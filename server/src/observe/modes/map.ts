// Map mode (and the element half of visual): collected raw elements → refineSnapshot with the
// request's filter and limit → observe elements with 0..100 importance (spec 2.5).
import {
  validateSnapshotRequest,
  type ObserveElement,
  type ObserveRequest,
  type SnapshotRequest,
  type Viewport,
} from "@sightline/shared/contract";
import type { refineSnapshot } from "@sightline/shared/refine";
import { indexRaw, toObserveElements } from "../elements.js";

export interface MapResult {
  viewport: Viewport;
  interactable_elements: ObserveElement[];
}

/** Observe has no default element limit (spec 2.2), so neither limit nor cap applies unless asked. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export function mapElements(
  snapshot: SnapshotRequest,
  req: ObserveRequest,
  refine: typeof refineSnapshot,
  opts: { attributes: boolean; maxElements: number },
): MapResult {
  // The page produced this body; a hostile page can shape it, so it is validated like a request.
  const body = validateSnapshotRequest(
    { ...snapshot, url: req.url, options: { limit: req.options?.limit ?? NO_LIMIT, filter: req.options?.filter } },
    { maxElements: opts.maxElements },
  );
  const refined = refine(body, { cap: NO_LIMIT, reranker: null });
  return {
    viewport: refined.viewport,
    interactable_elements: toObserveElements(refined.elements, indexRaw(body.raw_elements), {
      visualCues: req.options?.include_visual_cues === true,
      attributes: opts.attributes,
    }),
  };
}
