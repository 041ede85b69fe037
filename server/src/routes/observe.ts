// POST /v1/observe (spec 4.1):
//   validate (400) → check the URL against the host policy (400 Invalid URL) → reserve the
//   mode's credits (402) → render (503 busy, 504 timeout, 502 crash, 400 refused redirect)
//   → commit on success; release on any failure, so a failed render charges nothing.
// What each mode answers lives in observe/modes/; what it costs in observe/plan.ts.
import { validateObserveRequest, type ObserveResponse } from "@sightline/shared/contract";
import type { AppContext, AppDeps, AppRouter } from "../koa-types.js";
import { checkRequestUrl } from "@sightline/shared/net";
import { DEFAULT_OBSERVE_CONFIG, type ObserveConfig } from "../observe/config.js";
import { invalidUrl, renderFailed, toContractError } from "../observe/errors.js";
import { planObserve } from "../observe/plan.js";
import { runObserve } from "../observe/service.js";

/** Where screenshot links point: SIGHTLINE_PUBLIC_URL, else the configured listen address and
 *  the port the connection came to. Never the request's Host header, which the client writes
 *  (a wildcard HOST needs SIGHTLINE_PUBLIC_URL: config.ts). */
function publicBase(ctx: AppContext, host: string, cfg: ObserveConfig): string {
  if (cfg.publicUrl) return cfg.publicUrl;
  const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${name}:${ctx.req.socket.localPort}`;
}

export function registerObserve(router: AppRouter, deps: AppDeps): void {
  const cfg: ObserveConfig = deps.config.observe ?? DEFAULT_OBSERVE_CONFIG;
  const { ledger, logger } = deps;

  router.post("/v1/observe", ...deps.api("observe"), async (ctx) => {
    const account = ctx.state.account!;
    const req = validateObserveRequest(ctx.request.body);
    const plan = planObserve(req);
    const od = await deps.observe.deps();
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
      output = await runObserve(od, { req, plan, baseUrl: publicBase(ctx, deps.config.host, cfg), tenant: account.id });
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
}
