// GET /v1/screenshots/:id: the signed links visual mode hands out (routes/observe.ts). The link
// is the capability: no API key, the HMAC signature and expiry decide.
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import type { AppDeps, AppRouter } from "../koa-types.js";

export function registerScreenshots(router: AppRouter, deps: AppDeps): void {
  router.get("/v1/screenshots/:id", async (ctx) => {
    ctx.state.errorStyle = "observe";
    const { screenshots } = await deps.observe.deps();
    const q = ctx.query;
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const found = await screenshots.open(ctx.params.id, one(q.expires), one(q.sig));
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
}
