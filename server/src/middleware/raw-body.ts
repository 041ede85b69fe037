// The request body as raw bytes, unparsed (co-body, the reader koa-bodyparser itself uses, so
// the size limit, gzip/deflate and the 400/413/415 errors are the same as for JSON bodies).
// /v1/snapshot decodes, parses and validates it in a worker thread (snapshot/), keeping that
// CPU work off the event loop; the bytes land on ctx.state.bodyBytes.
import coBody from "co-body";
import type { AppMiddleware } from "../koa-types.js";
import { toContractError } from "./json-body.js";

export function rawBody(limitBytes: number): AppMiddleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      // encoding false: co-body hands back the Buffer (typed as string).
      ctx.state.bodyBytes = (await coBody.text(ctx, { limit: limitBytes, encoding: false as unknown as string })) as unknown as Buffer;
    } catch (err) {
      throw toContractError(err as Parameters<typeof toContractError>[0], limitBytes);
    }
    ctx.state.bodyReadMs = performance.now() - started;
    await next();
  };
}
