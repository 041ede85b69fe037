// How a session outside the server refines: in this process (free), or, with an API client,
// the refinements its priced calls pay for (the agent's snapshot, a screenshot's marks: see
// ../../tools/prices.ts) through the API, charged like POST /v1/snapshot; the pictures behind
// diffs and stale hints stay here, free.
import type { SessionDeps } from "../../session/session.js";
import type { Sightline } from "../../../client/index.js";
import { snapshotRequest } from "../../../playwright/snapshot.js";

// The engine (and its ranking tables) loads on the first refinement, not before the MCP server
// answers initialize: most of a second of a server's start on a busy machine.
let engine: Promise<typeof import("../../../playwright/local.js")> | null = null;
export function loadRefineEngine(): Promise<typeof import("../../../playwright/local.js")> {
  engine ??= import("../../../playwright/local.js");
  return engine;
}

export function localRefine(client: Sightline | null): SessionDeps["refine"] {
  return async (req, opts, purpose) => {
    const body = snapshotRequest(req, opts);
    if (client && purpose !== "internal") return client.snapshot(body);
    return (await loadRefineEngine()).refineLocally(body);
  };
}
