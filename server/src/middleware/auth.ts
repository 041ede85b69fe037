// Bearer API keys (spec 5): 401 when missing or unknown, 403 when the account is inactive.
// The account is put on ctx.state before the 403 so the error body can carry its balance.
// 401s count against the client's failed attempts; a client out of them gets 429 before its
// key is looked up (auth-failures.ts).
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import type { AppDeps, AppMiddleware } from "../koa-types.js";
import { AuthFailures, clientKey } from "./auth-failures.js";

const BEARER = /^Bearer[ \t]+([^\s]{1,512})[ \t]*$/i;

const unauthorized = (detail: string) => new ContractError("unauthorized", ERROR_NAMES.unauthorized, `${ERROR_NAMES.unauthorized}: ${detail}`);

export function authenticate({ ledger, authFailures }: Pick<AppDeps, "ledger" | "authFailures">): AppMiddleware {
  return async (ctx, next) => {
    const client = clientKey(ctx.req.socket.remoteAddress, ctx.get("origin") || undefined);
    const wait = authFailures.blocked(client);
    if (wait > 0) throw AuthFailures.refusal(wait);
    const refuse = (detail: string) => {
      authFailures.failed(client);
      return unauthorized(detail);
    };
    const header = ctx.get("authorization");
    if (!header) throw refuse("missing API key (send Authorization: Bearer <API_KEY>)");
    const m = BEARER.exec(header);
    if (!m) throw refuse("malformed Authorization header (expected Bearer <API_KEY>)");
    const account = await ledger.authenticate(m[1]);
    if (!account) throw refuse("invalid API key");
    ctx.state.account = account;
    if (!account.active) {
      throw new ContractError("forbidden", ERROR_NAMES.inactive, `${ERROR_NAMES.inactive}: this API key's account is deactivated`);
    }
    await next();
  };
}
