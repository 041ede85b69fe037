// @sightline/shared/playwright (Node): drive a Playwright page with Sightline snapshots.
export {
  snapshot,
  collectPage,
  snapshotRequest,
  type PageSnapshot,
  type PageSnapshotOptions,
  type SnapshotMode,
  type CollectorOptions,
} from "./snapshot.js";
export { refineLocally, localReranker, defaultModelPath } from "./local.js";
export { click, type, type as typeText, press, type ActionResult, type ActionOutcome, type ActionOptions, type TypeOptions } from "./actions.js";
export { waitForStable, type StableOptions, type StableResult } from "./stable.js";
export { trackListeners, tracksListeners, LISTENER_INIT_SCRIPT } from "./listeners.js";
export { injectCollector, collectorBundlePath, collectorSource, collectorScript } from "./bundle.js";
export { SightlineWorld, WORLD_NAME, type WorldScript } from "./world.js";
export { clientFromEnv, settingsFromEnv, DEFAULT_BASE_URL, type EnvSettings } from "./env.js";
export { PlaywrightDriver, pageAgentBundlePath } from "./driver.js";
