// POST /v1/observe: read, map and visual on the pooled headless Chromium (or on a page the
// caller captured), with the egress policy, credits per mode and signed screenshot links.
export { registerObserve, createObserveRuntime, liveObserveRuntimes, type ObserveRuntime } from "./route.js";
export { readObserveConfig, observeConfig, DEFAULT_OBSERVE_CONFIG, type ObserveConfig } from "./config.js";
export { planObserve, type ObservePlan, type ObserveEngine } from "./plan.js";
export { runObserve, type ObserveDeps, type ObserveOutput } from "./service.js";
export { collectSnapshot, readContent } from "./collector.js";
