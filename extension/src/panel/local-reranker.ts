// The learned reranker for local mode. None is bundled yet, so local mode ranks with the
// heuristic, as a server without a model does (ml_rerank says why).
import type { Reranker } from "@sightline/shared/rank";

export function localReranker(): Reranker | null {
  return null;
}
