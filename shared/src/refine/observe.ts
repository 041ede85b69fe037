// Bridge to /v1/observe map mode, whose importance is 0..100 (spec 2.5, 8).
import type { RefinedElement } from "../contract/index.js";

/**
 * Observe-mode importance (0..100) of a refined element: the engine's 0..1000 importance
 * scaled down, so the role tiers of 2.5 and the visibility adjustments keep their order.
 * Elements sorted by it keep the snapshot order (ties aside).
 */
export function toObserveImportance(element: Pick<RefinedElement, "importance">): number {
  const v = Math.round(element.importance / 10);
  return v < 0 ? 0 : v > 100 ? 100 : v;
}
