// The chain in front of every authenticated /v1 endpoint, in the order that keeps an invalid
// request from ever being charged and lets every error body carry the balance:
//   error style → auth (401/403) → rate limit (429) → body (400/413) → Idempotency-Key
//   (replays a kept answer; else runs the rest in the request's charge scope) → route
//   (the route then validates (400), reserves credits (402), works, commits or refunds).
// The body is parsed JSON on ctx.request.body, or (body "raw") the bytes on
// ctx.state.bodyBytes for routes that parse it elsewhere (/v1/snapshot's workers), or not read
// at all (body "none": GET and DELETE /mcp).
import type { ApiChain, AppMiddleware } from "../koa-types.js";
import type { Ledger } from "../ledger/index.js";
import { authenticate } from "./auth.js";
import type { AuthFailures } from "./auth-failures.js";
import { rateLimit } from "./rate-limit.js";
import { jsonBody } from "./json-body.js";
import { rawBody } from "./raw-body.js";
import { idempotency } from "./idempotency.js";


export function createApiChain(opts: { ledger: Ledger; authFailures: AuthFailures; rateLimitPerMinute: number; bodyLimitBytes: number }): ApiChain {
  // One limiter and one parser for all endpoints: a key's budget is shared across them.
  const auth = authenticate(opts);
  const limit = rateLimit(opts.rateLimitPerMinute, opts.ledger.database);
  const json = jsonBody(opts.bodyLimitBytes);
  const raw = rawBody(opts.bodyLimitBytes);
  const idem = idempotency({ ledger: opts.ledger });
  return (style, body = "json") => [
    async (ctx, next) => {
      ctx.state.errorStyle = style;
      await next();
    },
    auth,
    limit,
    // Idempotency-Key and the charge scope on requests with a body (not the /mcp streams).
    ...(body === "json" ? [json, idem] : body === "raw" ? [raw, idem] : []),
  ];
}
