// Local mode: the refinement engine the server runs, in this process (no ML reranker, so it
// matches a server started without SIGHTLINE_ML_RERANK).
import { SNAPSHOT_DEFAULT_CAP, type SnapshotRequest } from "../contract/index.js";
import { refineSnapshot } from "../refine/index.js";
import type { PageSnapshot } from "./snapshot.js";

/** Refines a request in this process exactly as the server would (no ML reranker). */
export function refineLocally(req: SnapshotRequest, cap: number = SNAPSHOT_DEFAULT_CAP): PageSnapshot {
  const result = refineSnapshot(req, { cap });
  return {
    status: "success",
    url: req.url,
    timestamp: new Date().toISOString(),
    credits_used: 0,
    credits_remaining: null,
    error: null,
    ...result,
    mode: "local",
    request: req,
  };
}

