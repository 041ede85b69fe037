// Gives every request an id (X-Request-Id): the caller's own if it is a sane token, else a UUID.
// It is echoed in the response header, in error bodies and in the log line.
import { randomUUID } from "node:crypto";
import type { AppMiddleware } from "../koa-types.js";

const SAFE_ID = /^[\w.:-]{1,128}$/;

export function requestId(): AppMiddleware {
  return async (ctx, next) => {
    const given = ctx.get("x-request-id");
    ctx.state.requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.set("X-Request-Id", ctx.state.requestId);
    await next();
  };
}
