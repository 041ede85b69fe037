// POST /v1/observe (spec 4.1) and GET /v1/screenshots/:id (the signed links it hands out).
//   validate (400) → check the URL against the host policy (400 Invalid URL) → reserve the
//   mode's credits (402) → render (503 busy, 504 timeout, 502 crash, 400 refused redirect)
//   → commit on success; release on any failure, so a failed render charges nothing.
import { ContractError, ERROR_NAMES, SCREENSHOT_URL_TTL_MS, validateObserveRequest, type ObserveResponse } from "@sightline/shared/contract";
import { BrowserPool } from "../browser/index.js";
import type { AppContext, AppDeps, AppRouter } from "../context.js";
import { checkRequestUrl, parseAllowList } from "../net/index.js";
import { ScreenshotService, UrlSigner, openScreenshotStorage } from "../storage/index.js";
import { DEFAULT_OBSERVE_CONFIG, type ObserveConfig } from "./config.js";
import { invalidUrl, renderFailed, toContractError } from "./errors.js";
import { planObserve } from "./plan.js";
import { runObserve, type ObserveDeps } from "./service.js";

export interface ObserveRuntime {
  pool: BrowserPool;
  deps: () => Promise<ObserveDeps>;
}

/** Builds the pool and (lazily, once) the screenshot service; closes the pool with the server. */
export function createObserveRuntime(deps: AppDeps): ObserveRuntime {
  const cfg: ObserveConfig = deps.config.observe ?? DEFAULT_OBSERVE_CONFIG;
  const pool = new BrowserPool({
    executablePath: cfg.chromiumPath,
    concurrency: cfg.concurrency,
    queueLimit: cfg.queueLimit,
    spares: cfg.spares,
    endpoints: cfg.browserEndpoints,
    proxyHost: cfg.proxyHost,
    log: (level, msg, fields) => deps.logger[level](fields ?? {}, msg),
  });
  const policy = parseAllowList(cfg.allowPrivateHosts);
  const build = async (): Promise<ObserveDeps> => {
    // Kept an hour past the link's life, then swept. In PostgreSQL when the ledger is there.
    const { store, secret } = await openScreenshotStorage({
      dataDir: deps.config.dataDir,
      signingSecret: cfg.signingSecret,
      database: deps.ledger.database,
      maxAgeMs: SCREENSHOT_URL_TTL_MS + 3600_000,
    });
    return {
      pool,
      policy,
      screenshots: new ScreenshotService(store, new UrlSigner(secret)),
      refine: deps.refine,
      renderTimeoutMs: cfg.renderTimeoutMs,
      maxRawElements: deps.config.maxRawElements,
    };
  };
  let ready: Promise<ObserveDeps> | null = null;
  const runtime: ObserveRuntime = {
    pool,
    deps: () =>
      (ready ??= build().catch((err: unknown) => {
        ready = null; // try again on the next request
        throw err;
      })),
  };
  live.add(runtime);
  deps.onClose(async () => {
    live.delete(runtime);
    await pool.close();
  });
  return runtime;
}

const live = new Set<ObserveRuntime>();

/** The observe runtimes of the servers running in this process (diagnostics and tests). */
export function liveObserveRuntimes(): ObserveRuntime[] {
  return [...live];
}

/** Where screenshot links point: SIGHTLINE_PUBLIC_URL, else the origin this request came to.
 *  (Koa 3's ctx.origin is the Origin header, hence protocol + host.) */
function publicBase(ctx: AppContext, cfg: ObserveConfig): string {
  return cfg.publicUrl ?? `${ctx.protocol}://${ctx.host}`;
}

export function registerObserve(router: AppRouter, deps: AppDeps, runtime = createObserveRuntime(deps)): ObserveRuntime {
  const cfg: ObserveConfig = deps.config.observe ?? DEFAULT_OBSERVE_CONFIG;
  const { ledger, logger } = deps;

  router.post("/v1/observe", ...deps.api("observe"), async (ctx) => {
    const account = ctx.state.account!;
    const req = validateObserveRequest(ctx.request.body);
    const plan = planObserve(req);
    const od = await runtime.deps();
    if (plan.engine !== "capture") {
      // Refused before anything is charged or rendered; redirects and subresources are checked
      // again, request by request, by the egress proxy.
      await checkRequestUrl(req.url, od.policy).catch((err: unknown) => {
        throw toContractError(err) ?? invalidUrl(String(err));
      });
    }
    const reservation = await ledger.reserve(account.id, plan.credits);
    let output;
    try {
      output = await runObserve(od, req, plan, publicBase(ctx, cfg));
    } catch (err) {
      await reservation.release();
      const known = toContractError(err);
      if (known) {
        logger.info({ req_id: ctx.state.requestId, error: known.short, detail: known.message }, "observe failed");
        throw known;
      }
      logger.error({ req_id: ctx.state.requestId, err }, "observe failed unexpectedly");
      throw renderFailed();
    }
    reservation.commit();
    const body: ObserveResponse = {
      status: "success",
      ...output,
      url: req.url,
      credits_used: plan.credits,
      credits_remaining: reservation.remaining,
    };
    ctx.body = body;
  });

  // The link is the capability: no API key, the HMAC signature and expiry decide.
  router.get("/v1/screenshots/:id", async (ctx) => {
    ctx.state.errorStyle = "observe";
    const od = await runtime.deps();
    const q = ctx.query;
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const found = await od.screenshots.open(ctx.params.id, one(q.expires), one(q.sig));
    if (found.verdict === "invalid") {
      throw new ContractError("forbidden", "Invalid signature", "Invalid signature: this screenshot link is not valid (altered or not issued by this server)");
    }
    if (found.verdict === "expired") {
      throw new ContractError("forbidden", "Link expired", "Link expired: this screenshot link has expired; observe the page again for a new one");
    }
    if (found.verdict !== "ok") {
      throw new ContractError("not_found", ERROR_NAMES.notFound, `${ERROR_NAMES.notFound}: the screenshot is no longer stored`);
    }
    const expires = Number(one(q.expires));
    ctx.set("Cache-Control", `private, max-age=${Math.max(0, Math.floor((expires - Date.now()) / 1000))}`);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.type = found.object.contentType;
    ctx.body = found.object.data;
  });

  return runtime;
}
