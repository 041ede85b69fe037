// GET /health: liveness for load balancers, no auth, no ledger write.
import type { AppDeps, AppRouter } from "../context.js";
import { VERSION } from "../version.js";

export function registerHealth(router: AppRouter, _deps: AppDeps): void {
  const started = Date.now();
  router.get("/health", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok", version: VERSION, uptime_s: Math.round((Date.now() - started) / 1000) };
  });
}
