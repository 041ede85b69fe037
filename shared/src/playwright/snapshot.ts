// snapshot(page): collect the live page with the injected collector, then refine it through
// the API (POST /v1/snapshot) or locally with the same engine the server runs.
import type { Page } from "playwright-core";
import type { Filter, SnapshotRequest, SnapshotResponse } from "../contract/index.js";
import type { Sightline } from "../client/index.js";
import type { Reranker } from "../rank/index.js";
import { collectorScript } from "./bundle.js";
import { clientFromEnv } from "./env.js";
import { tracksListeners } from "./listeners.js";
import type { PageSnapshot, SnapshotMode } from "./types.js";
import { SightlineWorld } from "./world.js";

export type { PageSnapshot, SnapshotMode };


/** What the collector's collectJSON accepts (see shared/src/collector/types.ts). */
export interface CollectorOptions {
  maxElements?: number;
  occlusion?: boolean;
  frames?: boolean;
  maxTextLength?: number;
  viewportOnly?: boolean;
  /** Mark elements whose text the person cannot see (`attributes.text_hidden`); for agents. */
  textVisibility?: boolean;
}

export interface PageSnapshotOptions {
  goal?: string;
  /** Most elements returned (default 50, capped at 100 by the server). */
  limit?: number;
  filter?: Filter;
  /**
   * `api` sends the capture to POST /v1/snapshot (1 credit); `local` refines in this process
   * (no server, no credits). Default: `api` when a client is given or SIGHTLINE_API_KEY is
   * set, else `local`.
   */
  mode?: SnapshotMode;
  /** Client for API mode (default: from SIGHTLINE_BASE_URL / SIGHTLINE_API_KEY). */
  client?: Sightline;
  /** Cap for local mode, like the server's SIGHTLINE_SNAPSHOT_CAP. Default 100. */
  cap?: number;
  /** Goal reranker for local mode: default decided like the server's; null = heuristic only. */
  reranker?: Reranker | null;
  collector?: CollectorOptions;
  /** Path of dist/collector.js, when not the one beside this package. */
  bundlePath?: string;
}


/** collectJSON() in Sightline's world of a page or a frame (agent/backends/headless/frames.ts too). */
export const COLLECT = "(o) => globalThis.sightline.collectJSON(o)";

/** Runs the collector in the page and returns the /v1/snapshot request body it built. */
export async function collectPage(page: Page, opts: { collector?: CollectorOptions; bundlePath?: string } = {}): Promise<SnapshotRequest> {
  for (let attempt = 0; ; attempt++) {
    try {
      // In Sightline's isolated world (world.ts): the page cannot answer in the collector's place.
      const o = tracksListeners(page) ? { ...opts.collector, pageListeners: true } : (opts.collector ?? {});
      const json = await SightlineWorld.of(page).call<string>(COLLECT, [o], [collectorScript(opts.bundlePath)]);
      return JSON.parse(json) as SnapshotRequest;
    } catch (err) {
      // The page navigated under us (a redirect, a late form submit): collect the new document once.
      if (attempt > 0 || !/context was destroyed|navigat/i.test(String(err))) throw err;
      await page.waitForLoadState("domcontentloaded").catch(() => undefined);
    }
  }
}

/** Builds the request body from a capture and the caller's goal/limit/filter. */
export function snapshotRequest(captured: SnapshotRequest, opts: Pick<PageSnapshotOptions, "goal" | "limit" | "filter">): SnapshotRequest {
  const req: SnapshotRequest = { ...captured };
  if (opts.goal) req.goal = opts.goal;
  if (opts.limit !== undefined || opts.filter !== undefined) {
    req.options = { ...(opts.limit !== undefined ? { limit: opts.limit } : {}), ...(opts.filter ? { filter: opts.filter } : {}) };
  }
  return req;
}

export async function snapshot(page: Page, opts: PageSnapshotOptions = {}): Promise<PageSnapshot> {
  const client = opts.client ?? (opts.mode === "local" ? null : clientFromEnv());
  const mode: SnapshotMode = opts.mode ?? (client ? "api" : "local");
  const req = snapshotRequest(await collectPage(page, opts), opts);
  // The engine (and its ranking tables) loads only when a caller refines locally.
  if (mode === "local") return (await import("./local.js")).refineLocally(req, opts.cap, opts.reranker);
  if (!client) throw new Error("Sightline snapshot: API mode needs a client or SIGHTLINE_API_KEY (or use mode: \"local\")");
  const res = await client.snapshot(req);
  return { ...res, mode: "api", request: req };
}
