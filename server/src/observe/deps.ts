// What every observe mode works with: the dependencies (runtime.ts builds them once per server)
// and the one request it answers.
import type { ObserveRequest, ObserveResponse } from "@sightline/shared/contract";
import type { refineSnapshot } from "@sightline/shared/refine";
import type { BrowserPool, EngineName, RenderRequest } from "../browser/index.js";
import type { HostPolicy, Lookup } from "@sightline/shared/net";
import type { ScreenshotService } from "../storage/index.js";
import type { ObservePlan } from "./plan.js";

export interface ObserveDeps {
  pool: BrowserPool;
  policy: HostPolicy;
  screenshots: ScreenshotService;
  refine: typeof refineSnapshot;
  renderTimeoutMs: number;
  /** Most raw elements a page may yield. */
  maxRawElements: number;
  /** DNS for the egress proxy (tests); the system resolver otherwise. */
  lookup?: Lookup;
}

/** One validated observe request, its plan, and where its screenshot links point. */
export interface ObserveCall {
  req: ObserveRequest;
  plan: ObservePlan;
  /** Base of signed screenshot links (SIGHTLINE_PUBLIC_URL, else the listen address). */
  baseUrl: string;
  /** The account asking: its renders get its fair share of the render slots. */
  tenant: string;
}

/** The mode-specific part of a success response (the route adds status and credits). */
export type ObserveOutput = Omit<ObserveResponse, "status" | "credits_used" | "credits_remaining">;

/** What a mode answers; the dispatcher adds `url` and `engine`. */
export type ModeOutput = Omit<ObserveOutput, "url" | "engine">;

/** Each mode answers a URL (rendered from the network) and a caller's capture (nothing fetched). */
export interface ObserveModeHandler {
  fromUrl(deps: ObserveDeps, call: ObserveCall, engine: EngineName): Promise<ModeOutput>;
  fromCapture(deps: ObserveDeps, call: ObserveCall): Promise<ModeOutput>;
}

/** How the call's URL is rendered: the egress policy, the render budget, the account's share, the test DNS. */
export function renderRequest(deps: ObserveDeps, call: ObserveCall, engine: EngineName, extra: Partial<RenderRequest> = {}): RenderRequest {
  return { url: call.req.url, engine, policy: deps.policy, timeoutMs: deps.renderTimeoutMs, tenant: call.tenant, lookup: deps.lookup, ...extra };
}
