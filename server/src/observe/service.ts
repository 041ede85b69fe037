// /v1/observe without HTTP: the plan (plan.ts) picks the mode and the engine; the mode's home
// (modes/*.ts) answers a URL or the caller's capture. The route (routes/observe.ts) wraps it
// with validation, the URL check, credits and error rendering.
import type { ModeOutput, ObserveCall, ObserveDeps, ObserveModeHandler, ObserveOutput } from "./deps.js";
import * as map from "./modes/map.js";
import * as read from "./modes/read.js";
import * as visual from "./modes/visual.js";

const MODES: Record<ObserveCall["plan"]["mode"], ObserveModeHandler> = { read, map, visual };

export async function runObserve(deps: ObserveDeps, call: ObserveCall): Promise<ObserveOutput> {
  const { req, plan } = call;
  const mode = MODES[plan.mode];
  const out: ModeOutput = plan.engine === "capture" ? await mode.fromCapture(deps, call) : await mode.fromUrl(deps, call, plan.engine);
  return { url: req.url, engine: plan.engine, ...out };
}
