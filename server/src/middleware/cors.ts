// CORS for the Bearer API. Credentials are an Authorization header, never cookies, so any
// origin may call (the extension's chrome-extension:// pages, web apps, local tools): the
// key is the gate, not the origin. Preflights are answered here, before authentication.
import type { AppMiddleware } from "../koa-types.js";

const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id, Idempotency-Key";
const EXPOSE_HEADERS = "X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Server-Timing, Idempotent-Replayed";

export function cors(): AppMiddleware {
  return async (ctx, next) => {
    const origin = ctx.get("origin");
    if (origin) {
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
      ctx.vary("Origin");
    }
    if (ctx.method === "OPTIONS" && origin && ctx.get("access-control-request-method")) {
      ctx.set("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      ctx.set("Access-Control-Allow-Headers", ctx.get("access-control-request-headers") || ALLOW_HEADERS);
      ctx.set("Access-Control-Max-Age", "600");
      ctx.status = 204;
      return;
    }
    await next();
  };
}
