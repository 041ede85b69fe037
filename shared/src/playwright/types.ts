// What a page snapshot is, apart from how it is made (snapshot.ts collects, local.ts refines
// in process), so neither needs the other's module for its types.
import type { SnapshotRequest, SnapshotResponse } from "../contract/index.js";

export type SnapshotMode = "api" | "local";

/**
 * A snapshot response plus the request that produced it. In local mode nothing is charged:
 * `credits_used` is 0 and `credits_remaining` is null.
 */
export type PageSnapshot = Omit<SnapshotResponse, "credits_remaining"> & {
  credits_remaining: number | null;
  mode: SnapshotMode;
  request: SnapshotRequest;
};
