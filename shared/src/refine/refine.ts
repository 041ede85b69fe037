import type { RefineResult, SnapshotRequest } from "../contract/index.js";
import type { Reranker } from "../rank/index.js";

export interface RefineOptions {
  /** Server cap on options.limit (spec 4.2 rule 3). Default SNAPSHOT_DEFAULT_CAP. */
  cap?: number;
  /** Learned reranker; null or absent means ml_rerank says it is disabled. */
  reranker?: Reranker | null;
}

/** Placeholder until the engine lands: see refine/README in the issue. */
export function refineSnapshot(_req: SnapshotRequest, _opts: RefineOptions = {}): RefineResult {
  throw new Error("refineSnapshot: not implemented yet");
}
