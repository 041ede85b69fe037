// @sightline/server: start the HTTP server in-process (tests, benchmarks, main.ts).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, type AppParts } from "./app.js";
import { loadConfig, type ServerConfig } from "./config.js";
import { openLedger, type Ledger } from "./ledger/index.js";
import { createLogger } from "./logger.js";
import { loadRankModel } from "./rank-model.js";
import { workerEngine } from "./snapshot/index.js";
import { attachBridgeRoute } from "./routes/bridge.js";
import { addressing } from "./middleware/origins.js";
import { BridgeHub } from "./bridge/hub.js";
import type { Bridge } from "./bridge/index.js";
import type { Logger } from "pino";
import type { Reranker } from "@sightline/shared/rank";
import type { BrowserPool } from "./browser/index.js";

export { createApp, type AppParts, type CreatedApp } from "./app.js";
export { loadConfig, parseBytes, DEFAULT_CONFIG, ConfigError, type ServerConfig, type LogLevel } from "./config.js";
export { Ledger, FileLedger, PgLedger, openLedger, ledgerFile, withChargeScope, type Account, type Reservation } from "./ledger/index.js";
export { createLogger } from "./logger.js";
export { BridgeHub, type BridgeSocket, type HubOptions } from "./bridge/hub.js";
export { BridgeBackend } from "./bridge/backend.js";
export type { Bridge } from "./bridge/index.js";
export type { AppDeps, AppState, AppContext, AppRouter, AppMiddleware, ErrorStyle } from "./koa-types.js";

export interface RunningServer {
  /** e.g. http://127.0.0.1:43121 */
  origin: string;
  port: number;
  config: ServerConfig;
  ledger: Ledger;
  logger: Logger;
  /** The learned goal reranker the server loaded, or null (see rank-model.ts). */
  reranker: Reranker | null;
  /** The extension bridge (tests and in-process embedders reach the person's-tab backend here). */
  bridge: Bridge;
  /** The browser pool /v1/observe renders in (its stats and the local browser's pid, for tests and diagnostics). */
  browsers: BrowserPool;
  /** Stops accepting, ends keep-alive connections, runs cleanups, checkpoints the ledger. */
  close(): Promise<void>;
  /**
   * Loads the refinement worker threads now rather than on the first /v1/snapshot requests
   * (each takes ~0.3 s to start). `npm start` calls it; tests leave workers to start on use.
   */
  warmUp(): void;
}

/**
 * Starts Sightline. Configuration comes from process.env, then `overrides` (tests pass
 * `{ port: 0, dataDir: tmp }`).
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  env: Record<string, string | undefined> = process.env,
  inject: { refine?: AppParts["refine"]; logger?: Logger; bridge?: AppParts["bridge"] } = {},
): Promise<RunningServer> {
  const config = loadConfig(env, overrides);
  const logger = inject.logger ?? createLogger(config.logLevel);
  const ledger = await openLedger(config);
  const rank = await loadRankModel(config, logger, env);
  const reranker = rank?.reranker ?? null;
  // An injected refine function (fault tests) can only run on the main thread.
  const snapshots =
    config.refineWorkers > 0 && !inject.refine
      ? workerEngine({ size: config.refineWorkers, setup: { rankModel: rank?.model ?? null }, logger })
      : undefined;
  const created = createApp({
    config,
    ledger,
    logger,
    reranker,
    ...(inject.refine ? { refine: inject.refine } : {}),
    ...(snapshots ? { snapshots } : {}),
    ...(inject.bridge ? { bridge: inject.bridge } : {}),
  });

  const server: Server = createServer(created.app.callback());
  server.keepAliveTimeout = 10_000;
  // WebSocket upgrades at /v1/bridge feed the hub (an injected stand-in bridge takes none).
  const { bridge } = created.deps;
  if (bridge instanceof BridgeHub) {
    const route = attachBridgeRoute(server, { bridge, logger, maxMessageBytes: config.bridgeMaxMessageBytes, addressing: addressing(config) });
    created.deps.onShutdown(() => route.close());
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address, family } = server.address() as AddressInfo;
  const host = family === "IPv6" ? `[${address}]` : address;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await created.shutdown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(force);
      await created.close();
      await ledger.close(); // lowdb: leaves one self-contained ledger.json
    })());

  return { origin: `http://${host}:${port}`, port, config, ledger, logger, reranker, bridge, browsers: created.deps.observe.pool, close, warmUp: () => created.deps.snapshots.warm() };
}
