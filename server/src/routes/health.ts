// GET /health: liveness for load balancers, no auth, no ledger write, no I/O.
// GET /ready: readiness: the ledger's database answers and a browser is reachable (the local
// Chromium, launched if needed, or a remote browser server); 503 with what is missing otherwise.
import type { AppDeps, AppRouter } from "../koa-types.js";
import { VERSION } from "../version.js";

const CHECK_TIMEOUT_MS = 5000;

/** A browser source /ready can ask (the observe pool). */
export interface BrowserProbe {
  reachable(timeoutMs?: number): Promise<boolean>;
}

export function registerHealth(router: AppRouter, _deps: AppDeps): void {
  const started = Date.now();
  router.get("/health", (ctx) => {
    ctx.set("Cache-Control", "no-store");
    ctx.body = { status: "ok", version: VERSION, uptime_s: Math.round((Date.now() - started) / 1000) };
  });
}

async function timed<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerReady(router: AppRouter, deps: AppDeps, browsers: BrowserProbe): void {
  // Concurrent probes share one check.
  let running: Promise<{ ready: boolean; body: Record<string, unknown> }> | null = null;
  const check = async () => {
    const [database, browser] = await Promise.all([
      timed(deps.ledger.ping(), CHECK_TIMEOUT_MS, "the database").then(
        () => "ok",
        (err: unknown) => `unreachable: ${err instanceof Error ? err.message : String(err)}`,
      ),
      browsers.reachable(CHECK_TIMEOUT_MS).then(
        (ok) => (ok ? "ok" : "unreachable"),
        () => "unreachable",
      ),
    ]);
    const ready = database === "ok" && browser === "ok";
    return { ready, body: { status: ready ? "ready" : "not_ready", ledger: deps.ledger.kind, database, browser, version: VERSION } };
  };
  router.get("/ready", async (ctx) => {
    const result = await (running ??= check().finally(() => (running = null)));
    ctx.set("Cache-Control", "no-store");
    ctx.status = result.ready ? 200 : 503;
    ctx.body = result.body;
  });
}
