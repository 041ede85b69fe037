// One structured log line per request: id, method, path, status, duration, account id.
// Never the Authorization header, the query string or the body.
import type { Logger } from "pino";
import type { AppMiddleware } from "../koa-types.js";

export function accessLog(logger: Logger): AppMiddleware {
  return async (ctx, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - start) * 100) / 100;
      const line = {
        req_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms,
        account: ctx.state.account?.id,
      };
      if (ctx.status >= 500) logger.error(line, "request");
      else logger.info(line, "request");
    }
  };
}
