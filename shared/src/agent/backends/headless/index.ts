// @sightline/shared/agent/headless (Node): the headless backend (an agent's own Chromium, held to
// the host policy of /v1/observe), its Playwright driver and its refiner.
export { HeadlessBackend, type HeadlessOptions } from "./backend.js";
export { PlaywrightDriver, pageAgentBundlePath } from "./driver.js";
export { checkAgentUrl, NavigationWatch, POLICY_HINT } from "./egress.js";
export { localRefine } from "./refine.js";
export { DeferredBackend } from "./deferred.js";
export { uploadFile } from "./files.js";
