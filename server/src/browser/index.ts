// Server-side rendering: the Chromium pool, the two engines and one-URL rendering behind the
// egress proxy.
export { BrowserPool, CHROMIUM_ARGS, type PoolOptions, type PoolStats } from "./pool.js";
export { ENGINES, RENDER_VIEWPORT, navigate, waitForDomQuiet, type EngineName, type EngineSpec } from "./engines.js";
export { renderUrl, contextOptions, NavigationError, type RenderRequest, type RenderedPage } from "./render.js";
export type { ContextRecipe, ContextResources, PreparedContext } from "./spares.js";
export { PoolBusyError, PoolPreemptedError, RenderTimeoutError, BrowserCrashedError, PoolClosedError } from "./errors.js";
