// Every Koa route of the server, registered in one place (one file per route). The one route
// that is not Koa's, GET /v1/bridge (a WebSocket upgrade the HTTP server takes before Koa sees
// it), is routes/bridge.ts too; server.ts attaches it to the HTTP server.
import type { AppDeps, AppRouter } from "../koa-types.js";
import type { BridgeHub } from "../bridge/hub.js";
import { registerCluster } from "./cluster.js";
import { registerHealth, registerReady } from "./health.js";
import { registerMcp } from "./mcp.js";
import { registerObserve } from "./observe.js";
import { registerOpenApi } from "./openapi.js";
import { registerScreenshots } from "./screenshots.js";
import { registerSnapshot } from "./snapshot.js";

export function registerRoutes(router: AppRouter, deps: AppDeps, hub: BridgeHub | null): void {
  registerHealth(router, deps);
  registerOpenApi(router, deps);
  registerSnapshot(router, deps);
  registerObserve(router, deps); // POST /v1/observe
  registerScreenshots(router, deps); // GET /v1/screenshots/:id
  registerReady(router, deps, deps.observe.pool); // GET /ready: the database and a browser
  const mcp = registerMcp(router, deps); // POST/GET/DELETE /mcp
  // Several instances on one database: the hops between them (/internal/v1/*).
  if (deps.cluster && hub) registerCluster(router, deps, deps.cluster, hub, mcp);
}
