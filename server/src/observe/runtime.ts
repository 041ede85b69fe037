// What /v1/observe renders with, built once per server by createApp and closed with it: the
// browser pool (local Chromium or remote browser servers) and, lazily on first use, the
// screenshot storage and its link signer.
import { SCREENSHOT_URL_TTL_MS } from "@sightline/shared/contract";
import type { refineSnapshot } from "@sightline/shared/refine";
import type { Logger } from "pino";
import { BrowserPool } from "../browser/index.js";
import type { ServerConfig } from "../config.js";
import type { Ledger } from "../ledger/index.js";
import { parseAllowList, type HostPolicy } from "@sightline/shared/net";
import { ScreenshotService, UrlSigner, openScreenshotStorage } from "../storage/index.js";
import { DEFAULT_OBSERVE_CONFIG, type ObserveConfig } from "./config.js";
import type { ObserveDeps } from "./deps.js";

export interface ObserveRuntime {
  /** The pool every observe render and capture layout runs in (/ready probes it too). */
  pool: BrowserPool;
  /** SIGHTLINE_ALLOW_PRIVATE_HOSTS parsed: renders, and the bridge's navigate, are held to it. */
  policy: HostPolicy;
  /** The modes' dependencies; the first call opens the screenshot storage (retried after a failure). */
  deps(): Promise<ObserveDeps>;
  /** Closes the pool. */
  close(): Promise<void>;
}

export interface ObserveRuntimeParts {
  config: ServerConfig;
  logger: Logger;
  /** Screenshots are kept in the ledger's PostgreSQL when there is one, else under dataDir. */
  ledger: Pick<Ledger, "database">;
  refine: typeof refineSnapshot;
}

export function createObserveRuntime(parts: ObserveRuntimeParts): ObserveRuntime {
  const { config, logger } = parts;
  const cfg: ObserveConfig = config.observe ?? DEFAULT_OBSERVE_CONFIG;
  const pool = new BrowserPool({
    executablePath: cfg.chromiumPath,
    concurrency: cfg.concurrency,
    queueLimit: cfg.queueLimit,
    preemptAfterMs: cfg.preemptAfterMs,
    spares: cfg.spares,
    endpoints: cfg.browserEndpoints,
    proxyHost: cfg.proxyHost,
    log: (level, msg, fields) => logger[level](fields ?? {}, msg),
  });
  const policy = parseAllowList(cfg.allowPrivateHosts);
  const build = async (): Promise<ObserveDeps> => {
    // Kept an hour past the link's life, then swept.
    const { store, secret } = await openScreenshotStorage({
      dataDir: config.dataDir,
      signingSecret: cfg.signingSecret,
      database: parts.ledger.database,
      maxAgeMs: SCREENSHOT_URL_TTL_MS + 3600_000,
    });
    return {
      pool,
      policy,
      screenshots: new ScreenshotService(store, new UrlSigner(secret)),
      refine: parts.refine,
      renderTimeoutMs: cfg.renderTimeoutMs,
      maxRawElements: config.maxRawElements,
    };
  };
  let ready: Promise<ObserveDeps> | null = null;
  return {
    pool,
    policy,
    deps: () =>
      (ready ??= build().catch((err: unknown) => {
        ready = null; // try again on the next request
        throw err;
      })),
    close: () => pool.close(),
  };
}
