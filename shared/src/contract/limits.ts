// Numbers fixed by the contract (spec section 8). Server-tunable caps live in server config;
// these are the defaults and the values callers can rely on.

/** `options.limit` default for /v1/snapshot. */
export const SNAPSHOT_DEFAULT_LIMIT = 50;
/** Default server-side cap on `options.limit` (SIGHTLINE_SNAPSHOT_CAP overrides). */
export const SNAPSHOT_DEFAULT_CAP = 100;
/** Credits per successful /v1/snapshot request. */
export const SNAPSHOT_CREDITS = 1;

/** `options.contentLimit` default for /v1/observe read mode, in characters. */
export const OBSERVE_DEFAULT_CONTENT_LIMIT = 50_000;

/** Credits per /v1/observe request, by mode and engine (spec 4.1). */
export const OBSERVE_CREDITS = {
  read: 1,
  map: { performance: 2, precision: 10 },
  visual: 10,
} as const;

/** Screenshot URL validity (spec 8): 24 hours. */
export const SCREENSHOT_URL_TTL_MS = 24 * 60 * 60 * 1000;

/** Default client-side timeout of the SDK (spec 8). */
export const CLIENT_DEFAULT_TIMEOUT_MS = 30_000;

/** Importance ranges (spec 8). */
export const SNAPSHOT_IMPORTANCE_MAX = 1000;
export const OBSERVE_IMPORTANCE_MAX = 100;

/** Deepest `iframe_content` nesting accepted (frames inside frames inside frames...). */
export const MAX_IFRAME_DEPTH = 4;
