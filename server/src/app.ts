// The Koa application: app-wide middleware, then the router.
//   request id → access log → error rendering → Host check (421) → CORS (answers preflights;
//   /mcp: browser origins refused unless configured) → routes → 404/405
import Koa from "koa";
import { Router } from "@koa/router";
import type { Logger } from "pino";
import type { Reranker } from "@sightline/shared/rank";
import { refineSnapshot } from "@sightline/shared/refine";
import type { Bridge } from "./bridge/index.js";
import { BridgeHub } from "./bridge/hub.js";
import type { ServerConfig } from "./config.js";
import type { AppDeps, AppState } from "./koa-types.js";
import type { Ledger } from "./ledger/index.js";
import { createApiChain } from "./middleware/api.js";
import { AuthFailures } from "./middleware/auth-failures.js";
import { accessLog } from "./middleware/access-log.js";
import { cors } from "./middleware/cors.js";
import { addressing, hostCheck } from "./middleware/origins.js";
import { errorHandler } from "./middleware/errors.js";
import { requestId } from "./middleware/request-id.js";
import { createObserveRuntime } from "./observe/runtime.js";
import { registerRoutes } from "./routes/index.js";
import { inlineEngine, type SnapshotEngine } from "./snapshot/index.js";

export interface AppParts {
  config: ServerConfig;
  ledger: Ledger;
  logger: Logger;
  reranker?: Reranker | null;
  /** The refinement engine; replaceable only to inject faults in tests. */
  refine?: typeof refineSnapshot;
  /** Where /v1/snapshot's CPU work runs (default: inline on the main thread). Closed with the app. */
  snapshots?: SnapshotEngine;
  /** The extension bridge (default: a BridgeHub the /v1/bridge socket feeds). Closed with the app. */
  bridge?: Bridge;
}

export interface CreatedApp {
  app: Koa<AppState>;
  deps: AppDeps;
  /** Ends long-lived connections (deps.onShutdown): call before closing the HTTP server. */
  shutdown(): Promise<void>;
  /** Runs the cleanups routes registered with deps.onClose. */
  close(): Promise<void>;
}

export function createApp(parts: AppParts): CreatedApp {
  const closers: (() => Promise<void> | void)[] = [];
  const stoppers: (() => Promise<void> | void)[] = [];
  const refine = parts.refine ?? refineSnapshot;
  const reranker = parts.reranker ?? null;
  const snapshots = parts.snapshots ?? inlineEngine({ refine, reranker });
  closers.push(() => snapshots.close());
  const observe = createObserveRuntime({ config: parts.config, logger: parts.logger, ledger: parts.ledger, refine });
  closers.push(() => observe.close());
  const authFailures = new AuthFailures(parts.config.authFailuresPerMinute);
  const bridge =
    parts.bridge ??
    new BridgeHub({
      authenticate: (key) => parts.ledger.authenticate(key),
      logger: parts.logger,
      authFailures,
      navigation: { policy: observe.policy },
      // On a refinement worker: a 50,000-element capture takes ~0.3 s to validate.
      checkCapture: async (frame) => {
        const c = await snapshots.check({ frame }, parts.config.maxRawElements);
        return c.ok ? null : c.stage === "invalid" ? c.error.message : `it could not be read (${c.message.split("\n")[0]})`;
      },
    });
  stoppers.push(() => bridge.close());
  const deps: AppDeps = {
    config: parts.config,
    ledger: parts.ledger,
    logger: parts.logger,
    reranker,
    refine,
    snapshots,
    bridge,
    observe,
    authFailures,
    api: createApiChain({
      ledger: parts.ledger,
      authFailures,
      rateLimitPerMinute: parts.config.rateLimitPerMinute,
      bodyLimitBytes: parts.config.bodyLimitBytes,
    }),
    onClose: (fn) => void closers.push(fn),
    onShutdown: (fn) => void stoppers.push(fn),
  };

  const app = new Koa<AppState>({ proxy: false });
  app.silent = true; // errors are rendered and logged by errorHandler, not printed by Koa
  app.on("error", (err: unknown) => parts.logger.debug({ err }, "koa error event"));

  const router = new Router<AppState>();
  registerRoutes(router, deps);

  const names = addressing(parts.config);
  app.use(requestId());
  app.use(accessLog(parts.logger));
  // Errors rendered from here on; CORS headers set below stay on the error answers.
  app.use(errorHandler(deps));
  app.use(hostCheck(names));
  app.use(cors(names));
  app.use(router.routes());
  // 405 for a known path with another method, 404 when nothing matched: errorHandler renders both.
  // (allowedMethods sets the status and the Allow header; errorHandler writes the body.)
  app.use(router.allowedMethods());

  return {
    app,
    deps,
    shutdown: async () => {
      await Promise.all(stoppers.splice(0).map(async (fn) => fn()));
    },
    close: async () => {
      await Promise.all(stoppers.splice(0).map(async (fn) => fn()));
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
}
