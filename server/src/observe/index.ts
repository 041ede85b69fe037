// /v1/observe's parts: read, map and visual (modes/*.ts) on the pooled headless Chromium (or on
// a page the caller captured), with the egress policy, credits per mode (plan.ts) and signed
// screenshot links. The HTTP routes are routes/observe.ts and routes/screenshots.ts.
export { createObserveRuntime, type ObserveRuntime, type ObserveRuntimeParts } from "./runtime.js";
export { readObserveConfig, observeConfig, DEFAULT_OBSERVE_CONFIG, type ObserveConfig } from "./config.js";
export { planObserve, type ObservePlan, type ObserveEngine } from "./plan.js";
export { runObserve } from "./service.js";
export type { ObserveCall, ObserveDeps, ObserveOutput, ModeOutput } from "./deps.js";
export { collectSnapshot, readContent } from "./collector.js";
