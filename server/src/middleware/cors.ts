// CORS. The REST API is authorised by the Bearer key, never by cookies, so any origin may call
// it (the extension's chrome-extension:// panel, web apps, local tools): the key is the gate, not
// the origin. /mcp answers browsers only from the origins configured (SIGHTLINE_ALLOWED_ORIGINS,
// see origins.ts): others get no CORS headers, and their preflight is refused. Preflights are
// answered here, before authentication.
import type { AppMiddleware } from "../koa-types.js";
import { mcpOriginCheck, type Addressing } from "./origins.js";

const ALLOW_HEADERS = "Authorization, Content-Type, X-Request-Id, Idempotency-Key, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
const EXPOSE_HEADERS = "X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Server-Timing, Idempotent-Replayed, Mcp-Session-Id";

export function cors(a: Addressing): AppMiddleware {
  const refuseOnMcp = mcpOriginCheck(a);
  return async (ctx, next) => {
    const origin = ctx.get("origin");
    const mcp = ctx.path.toLowerCase().replace(/\/+$/, "") === "/mcp"; // as the router matches it
    if (origin && mcp && !a.mcpOriginAllowed(origin)) return refuseOnMcp(ctx, next); // 403
    if (origin) {
      // /mcp names the origin (it is one of a configured few); the rest of the API allows any.
      ctx.set("Access-Control-Allow-Origin", mcp ? origin : "*");
      ctx.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
      ctx.vary("Origin");
    }
    if (ctx.method === "OPTIONS" && origin && ctx.get("access-control-request-method")) {
      ctx.set("Access-Control-Allow-Methods", mcp ? "GET, POST, DELETE, OPTIONS" : "GET, POST, OPTIONS");
      ctx.set("Access-Control-Allow-Headers", ctx.get("access-control-request-headers") || ALLOW_HEADERS);
      ctx.set("Access-Control-Max-Age", "600");
      ctx.status = 204;
      return;
    }
    await next();
  };
}
