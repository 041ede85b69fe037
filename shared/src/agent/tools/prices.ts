// What an MCP call costs, for every transport (docs/ledger.md "MCP"). The rule: a session on a
// local headless Chromium (`sightline mcp --headless`) does its work on the person's machine and
// is free; a session backed by the API (the server's /mcp, `sightline mcp --headless --api`)
// pays for the work the server does, what the call's REST twin costs: `snapshot` and
// `screenshot` refine a capture (their marks are a refinement) as POST /v1/snapshot does;
// `read` is extracted in the page, and acting costs nothing.
import { SNAPSHOT_CREDITS } from "../../contract/index.js";
import type { Billable } from "../session/session.js";

/** Credits of each priced call; every other tool is free. */
export type PriceList = Readonly<Record<Billable, number>>;

/** Local: nothing is charged. */
export const LOCAL_PRICES: PriceList = { snapshot: 0, read: 0, screenshot: 0 };

/** Backed by the API: what the REST twin costs. */
export const API_PRICES: PriceList = { snapshot: SNAPSHOT_CREDITS, read: 0, screenshot: SNAPSHOT_CREDITS };

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
