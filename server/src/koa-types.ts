// The Koa types the app, middleware and routes share (request state, context, router) and the
// dependencies createApp hands them (AppDeps). Koa's request context, not a browser context.
import type { ParameterizedContext, Middleware } from "koa";
import type { Router } from "@koa/router";
import type { Logger } from "pino";
import type { Reranker } from "@sightline/shared/rank";
import type { refineSnapshot } from "@sightline/shared/refine";
import type { Bridge } from "./bridge/index.js";
import type { ServerConfig } from "./config.js";
import type { Account, Ledger } from "./ledger/index.js";
import type { AuthFailures } from "./middleware/auth-failures.js";
import type { ObserveRuntime } from "./observe/runtime.js";
import type { SnapshotEngine } from "./snapshot/index.js";

/** Which error body an endpoint renders (contract 7.1 vs 7.2; see errorBody). */
export type ErrorStyle = "snapshot" | "observe" | "mcp";

export interface AppState {
  requestId: string;
  /** Set by `authenticate` once the API key is recognised (inactive accounts included). */
  account?: Readonly<Account>;
  errorStyle?: ErrorStyle;
  /** The unparsed request body, for routes whose chain reads it raw (see middleware/api.ts). */
  bodyBytes?: Buffer;
  /** How long reading that body took (ms), for Server-Timing. */
  bodyReadMs?: number;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppMiddleware = Middleware<AppState>;
export type AppRouter = Router<AppState>;

/** Builds the middleware in front of an authenticated endpoint (middleware/api.ts). */
export type ApiChain = (style: ErrorStyle, body?: "json" | "raw" | "none") => AppMiddleware[];

/** What routes and middleware need; built once by createApp. */
export interface AppDeps {
  config: ServerConfig;
  ledger: Ledger;
  logger: Logger;
  /** Learned reranker for goal ranking, or null (see rank-model.ts). */
  reranker: Reranker | null;
  /** The refinement engine (shared/src/refine), as used on the main thread. */
  refine: typeof refineSnapshot;
  /** Where /v1/snapshot bodies are parsed, validated and refined (worker threads or inline). */
  snapshots: SnapshotEngine;
  /**
   * Middleware for an authenticated /v1 endpoint: `router.post(path, ...deps.api("observe"), handler)`.
   * The handler gets `ctx.state.account` and the parsed `ctx.request.body`.
   */
  api: ApiChain;
  /** Failed authentication attempts per client: 401s and failed bridge hellos (429 past the limit). */
  authFailures: AuthFailures;
  /** The extension bridge: the person's shared tabs, per account (server/src/bridge). */
  bridge: Bridge;
  /** What /v1/observe renders with: the browser pool and the screenshot storage (observe/runtime.ts). */
  observe: ObserveRuntime;
  /** Registers cleanup to run when the server closes (e.g. a browser pool). */
  onClose(fn: () => Promise<void> | void): void;
  /**
   * Registers what must end as the server starts closing, before it waits for connections to
   * finish: long-lived streams and sockets (MCP event streams, the bridge).
   */
  onShutdown(fn: () => Promise<void> | void): void;
}
