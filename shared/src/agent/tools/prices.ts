// What an MCP call costs, in one file: a session on a local headless Chromium (`sightline mcp
// --headless`) is free; the server's /mcp charges what the call's REST twin costs (`snapshot` and
// `screenshot` refine a capture, as POST /v1/snapshot does; `read` is extracted in the page, and
// acting costs nothing); `sightline mcp --headless --api` pays for its snapshots only (its
// screenshot marks are refined on this machine).
import { SNAPSHOT_CREDITS } from "../../contract/index.js";
import type { Billable } from "../session/session.js";

/** Credits of each priced call; every other tool is free. */
export type PriceList = Readonly<Record<Billable, number>>;

/** Local: nothing is charged. */
export const LOCAL_PRICES: PriceList = { snapshot: 0, read: 0, screenshot: 0 };

/** The server's /mcp: what the REST twin costs. */
export const API_PRICES: PriceList = { snapshot: SNAPSHOT_CREDITS, read: 0, screenshot: SNAPSHOT_CREDITS };

/** `sightline mcp --headless --api`: the agent's snapshots go through the API; the rest is local. */
export const HEADLESS_API_PRICES: PriceList = { snapshot: SNAPSHOT_CREDITS, read: 0, screenshot: 0 };

/** The REST call each priced tool pays like, for descriptions and the docs. */
export const REST_TWIN: Readonly<Record<Billable, string>> = {
  snapshot: "POST /v1/snapshot",
  read: "nothing (extracted in the page)",
  screenshot: "POST /v1/snapshot (its marks are a refinement)",
};

/** " Free." or " Costs 1 credit, like POST /v1/snapshot." for a tool's description. */
export function priceNote(prices: PriceList, what: Billable | null): string {
  const n = what ? prices[what] : 0;
  if (!what || n === 0) return " Free.";
  return ` Costs ${n} credit${n === 1 ? "" : "s"}, like ${REST_TWIN[what].split(" (")[0]}.`;
}
