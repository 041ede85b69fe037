// Renders every error as the contract's error body (7.1 / 7.2 union, see errorBody): a
// ContractError keeps its status; anything unexpected becomes a logged 500 that reveals nothing.
// It also turns "no route matched" into the JSON 404.
import { ContractError, ERROR_NAMES, errorBody } from "@sightline/shared/contract";
import type { AppDeps, AppMiddleware } from "../koa-types.js";

/** JSON-RPC code of an HTTP-level refusal (auth, rate limit, body) on /mcp (server-defined range). */
export const MCP_HTTP_ERROR = -32001;

export const notFound = () => new ContractError("not_found", ERROR_NAMES.notFound, `${ERROR_NAMES.notFound}: no such endpoint`);
export const methodNotAllowed = () =>
  new ContractError("method_not_allowed", ERROR_NAMES.methodNotAllowed, `${ERROR_NAMES.methodNotAllowed} on this endpoint`);

export function errorHandler({ ledger, logger }: Pick<AppDeps, "ledger" | "logger">): AppMiddleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw notFound();
      if (ctx.body == null && (ctx.status === 405 || ctx.status === 501)) throw methodNotAllowed();
    } catch (thrown) {
      let err: ContractError;
      if (thrown instanceof ContractError) {
        err = thrown;
      } else {
        logger.error({ req_id: ctx.state.requestId, err: thrown }, "unhandled error");
        err = new ContractError("internal_error", ERROR_NAMES.internal, `${ERROR_NAMES.internal}: the request could not be processed`);
      }
      const account = ctx.state.account;
      const credits = account ? ledger.creditsOf(account.id) : undefined;
      ctx.status = err.status;
      if (err.retryAfterSeconds !== undefined) ctx.set("Retry-After", String(err.retryAfterSeconds));
      const style = ctx.state.errorStyle ?? "observe";
      // MCP clients read JSON-RPC: the same status, the message in a JSON-RPC error.
      ctx.body =
        style === "mcp"
          ? { jsonrpc: "2.0", id: null, error: { code: MCP_HTTP_ERROR, message: err.message, data: { error_code: err.code, request_id: ctx.state.requestId } } }
          : errorBody(err, style, { credits_remaining: credits, request_id: ctx.state.requestId });
    }
  };
}
