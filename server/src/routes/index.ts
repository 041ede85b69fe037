// Every route of the server, registered in one place (one file per route).
import type { AppDeps, AppRouter } from "../context.js";
import { registerHealth, registerReady } from "./health.js";
import { registerMcp } from "./mcp.js";
import { registerOpenApi } from "./openapi.js";
import { registerSnapshot } from "./snapshot.js";
import { registerObserve } from "../observe/index.js";

export function registerRoutes(router: AppRouter, deps: AppDeps): void {
  registerHealth(router, deps);
  registerOpenApi(router, deps);
  registerSnapshot(router, deps);
  const observe = registerObserve(router, deps); // POST /v1/observe, GET /v1/screenshots/:id
  registerReady(router, deps, observe.pool); // GET /ready: the database and a browser
  registerMcp(router, deps); // POST/GET/DELETE /mcp
}
