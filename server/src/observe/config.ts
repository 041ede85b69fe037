// /v1/observe settings: the browser pool, render time budget, egress policy and screenshot
// links. Read from the environment by loadConfig (config.ts) as `config.observe`.
import { parseAllowList, PolicyError } from "@sightline/shared/net";

export interface ObserveConfig {
  /** Chromium executable (CHROMIUM_PATH). */
  chromiumPath: string;
  /** Renders at once (SIGHTLINE_BROWSER_CONCURRENCY). */
  concurrency: number;
  /** Requests that may wait for a render slot; more get 503 (SIGHTLINE_BROWSER_QUEUE). */
  queueLimit: number;
  /** How long an account below its fair share of the render slots waits before another
   *  account's newest render is stopped for it, ms (SIGHTLINE_BROWSER_PREEMPT_MS). */
  preemptAfterMs: number;
  /** Spare contexts kept ready ahead of renders, one per engine and JavaScript setting at most;
   *  0 turns them off (SIGHTLINE_BROWSER_SPARES). */
  spares: number;
  /** Time budget of one render, ms; past it the request gets 504 (SIGHTLINE_RENDER_TIMEOUT_MS). */
  renderTimeoutMs: number;
  /** Private hosts/CIDRs the renderer may reach, or `*` (SIGHTLINE_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: string;
  /** Public base URL written into screenshot links; else the request's origin (SIGHTLINE_PUBLIC_URL). */
  publicUrl: string | null;
  /** HMAC secret for screenshot links; else `<dataDir>/signing-secret` (SIGHTLINE_SIGNING_SECRET). */
  signingSecret: string | null;
  /** Playwright browser-server ws:// endpoints used instead of a local Chromium
   *  (SIGHTLINE_BROWSER_ENDPOINTS, comma-separated); empty: launch Chromium here. */
  browserEndpoints: string[];
  /** Address the per-render egress proxies listen on, reachable by the browsers
   *  (SIGHTLINE_EGRESS_PROXY_HOST; default 127.0.0.1, for browsers on this machine). */
  proxyHost: string;
}

export const DEFAULT_OBSERVE_CONFIG: ObserveConfig = {
  chromiumPath: "/usr/bin/chromium",
  concurrency: 2,
  queueLimit: 8,
  preemptAfterMs: 2000,
  // read (JavaScript off first) and map/visual (on) each keep one ready
  spares: 2,
  renderTimeoutMs: 30_000,
  allowPrivateHosts: "",
  publicUrl: null,
  signingSecret: null,
  browserEndpoints: [],
  proxyHost: "127.0.0.1",
};

/** Defaults with some fields replaced (tests: `config: { observe: observeConfig({ ... }) }`). */
export function observeConfig(over: Partial<ObserveConfig> = {}): ObserveConfig {
  return { ...DEFAULT_OBSERVE_CONFIG, ...over };
}

type Env = Record<string, string | undefined>;

/**
 * The observe settings from the environment. `fail` makes the error for a malformed value
 * (loadConfig passes its ConfigError, so startup reports it like every other variable).
 */
export function readObserveConfig(env: Env, fail: (message: string) => Error = (m) => new Error(m)): ObserveConfig {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw fail(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`);
    return n;
  };
  const allow = env.SIGHTLINE_ALLOW_PRIVATE_HOSTS?.trim() ?? "";
  try {
    parseAllowList(allow); // fail at startup, not on the first request
  } catch (err) {
    throw err instanceof PolicyError ? fail(err.message) : err;
  }
  const publicUrl = env.SIGHTLINE_PUBLIC_URL?.trim() || null;
  if (publicUrl && !/^https?:\/\/[^/]+/i.test(publicUrl)) {
    throw fail(`SIGHTLINE_PUBLIC_URL must be an http(s) URL, got ${JSON.stringify(publicUrl)}`);
  }
  const endpoints = (env.SIGHTLINE_BROWSER_ENDPOINTS ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of endpoints) {
    if (!/^wss?:\/\/[^/]+/i.test(e)) throw fail(`SIGHTLINE_BROWSER_ENDPOINTS must be ws:// or wss:// URLs separated by commas, got ${JSON.stringify(e)}`);
  }
  const proxyHost = env.SIGHTLINE_EGRESS_PROXY_HOST?.trim() || DEFAULT_OBSERVE_CONFIG.proxyHost;
  if (!/^[\w.:-]+$/.test(proxyHost)) throw fail(`SIGHTLINE_EGRESS_PROXY_HOST must be an IP address or host name, got ${JSON.stringify(proxyHost)}`);
  return {
    browserEndpoints: endpoints,
    proxyHost,
    chromiumPath: env.CHROMIUM_PATH?.trim() || DEFAULT_OBSERVE_CONFIG.chromiumPath,
    concurrency: int("SIGHTLINE_BROWSER_CONCURRENCY", DEFAULT_OBSERVE_CONFIG.concurrency, 1, 64),
    queueLimit: int("SIGHTLINE_BROWSER_QUEUE", DEFAULT_OBSERVE_CONFIG.queueLimit, 0, 10_000),
    preemptAfterMs: int("SIGHTLINE_BROWSER_PREEMPT_MS", DEFAULT_OBSERVE_CONFIG.preemptAfterMs, 0, 600_000),
    spares: int("SIGHTLINE_BROWSER_SPARES", DEFAULT_OBSERVE_CONFIG.spares, 0, 8),
    renderTimeoutMs: int("SIGHTLINE_RENDER_TIMEOUT_MS", DEFAULT_OBSERVE_CONFIG.renderTimeoutMs, 1000, 600_000),
    allowPrivateHosts: allow,
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, "") : null,
    signingSecret: env.SIGHTLINE_SIGNING_SECRET?.trim() || null,
  };
}
