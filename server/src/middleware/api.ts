// The chain in front of every authenticated /v1 endpoint, in the order that keeps an invalid
// request from ever being charged and lets every error body carry the balance:
//   error style → auth (401/403) → rate limit (429) → JSON body (400/413) → route
//   (the route then validates (400), reserves credits (402), works, commits or refunds).
import type { AppMiddleware, ErrorStyle } from "../context.js";
import type { Ledger } from "../ledger/index.js";
import { authenticate } from "./auth.js";
import { rateLimit } from "./rate-limit.js";
import { jsonBody } from "./json-body.js";

export type ApiChain = (style: ErrorStyle) => AppMiddleware[];

export function createApiChain(opts: { ledger: Ledger; rateLimitPerMinute: number; bodyLimitBytes: number }): ApiChain {
  // One limiter and one parser for all endpoints: a key's budget is shared across them.
  const auth = authenticate(opts);
  const limit = rateLimit(opts.rateLimitPerMinute);
  const body = jsonBody(opts.bodyLimitBytes);
  return (style) => [
    async (ctx, next) => {
      ctx.state.errorStyle = style;
      await next();
    },
    auth,
    limit,
    body,
  ];
}
