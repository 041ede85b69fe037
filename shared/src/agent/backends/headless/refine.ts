// How a session outside the server refines: in this process (free), or its own snapshot calls
// through the API (charged like POST /v1/snapshot) with diffs still refined here.
import type { SessionDeps } from "../../session/session.js";
import type { Sightline } from "../../../client/index.js";
import { refineLocally } from "../../../playwright/local.js";
import { snapshotRequest } from "../../../playwright/snapshot.js";

export function localRefine(client: Sightline | null): SessionDeps["refine"] {
  return async (req, opts, purpose) => {
    const body = snapshotRequest(req, opts);
    if (client && purpose === "snapshot") return client.snapshot(body);
    return refineLocally(body);
  };
}
