// /internal/v1/*: the hops between instances on one database (server/src/cluster), never
// used by clients. Each request must carry the cluster secret (SIGHTLINE_CLUSTER_SECRET, or
// the one the instances keep in the database) in the Sightline-Cluster-Auth header: anything
// else is 401 (and counts as a failed authentication of its client), before a body is read.
// Without a database these routes do not exist (404).
//   POST /internal/v1/bridge/call     a bridge call for a tab whose extension is connected here
//   POST /internal/v1/bridge/release  an agent session ended on another instance: its leases go
//   *    /internal/v1/mcp             an MCP request for a session served here (the account was
//                                     authenticated by the instance the agent reached)
import { isAgentError, type AgentErrorCode } from "@sightline/shared/agent";
import { BRIDGE_OPS, type BridgeOp } from "@sightline/shared/agent/bridge";
import { frameOf } from "../bridge/capture-frames.js";
import type { BridgeHub } from "../bridge/hub.js";
import { CLUSTER_ACCOUNT_HEADER, CLUSTER_AUTH_HEADER, RELAY_CALL_PATH, RELAY_MCP_PATH, RELAY_RELEASE_PATH, relayWriter, secretMatches, type Cluster } from "../cluster/index.js";
import type { AppContext, AppDeps, AppMiddleware, AppRouter } from "../koa-types.js";
import { clientKey } from "../middleware/auth-failures.js";
import { jsonBody } from "../middleware/json-body.js";

const str = (v: unknown, max = 200): v is string => typeof v === "string" && v.length > 0 && v.length <= max;

function refuse(ctx: AppContext, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { error: status === 401 ? "unauthorized" : "bad_request", message };
}

export function registerCluster(
  router: AppRouter,
  deps: AppDeps,
  cluster: Cluster,
  hub: BridgeHub,
  mcp: (ctx: AppContext, account: string) => Promise<void>,
): void {
  const authenticated: AppMiddleware = async (ctx, next) => {
    const client = clientKey(ctx.req.socket.remoteAddress, ctx.get("origin") || undefined);
    const wait = deps.authFailures.blocked(client);
    if (wait > 0) {
      ctx.set("Retry-After", String(wait));
      return refuse(ctx, 429, `too many failed attempts; retry in ${wait} s`);
    }
    if (!secretMatches(ctx.get(CLUSTER_AUTH_HEADER) || undefined, cluster.secret)) {
      deps.authFailures.failed(client);
      deps.logger.warn({ path: ctx.path }, "cluster: refused an internal request without the cluster secret");
      return refuse(ctx, 401, "internal route: the cluster secret is missing or wrong");
    }
    await next();
  };
  const body = jsonBody(deps.config.bodyLimitBytes);

  router.post(RELAY_CALL_PATH, authenticated, body, async (ctx) => {
    const b = ctx.request.body as { account?: unknown; session?: unknown; handle?: unknown; op?: unknown; args?: unknown } | undefined;
    if (!b || !str(b.account) || !str(b.session) || !str(b.handle) || !BRIDGE_OPS.includes(b.op as BridgeOp) || typeof b.args !== "object" || b.args === null) {
      return refuse(ctx, 400, "a relayed call needs account, session, handle, op and args");
    }
    ctx.respond = false;
    const out = relayWriter(ctx.res);
    // The instance that relayed it gave up (its agent cancelled, or it is gone): so does the call.
    const cancel = new AbortController();
    ctx.res.once("close", () => cancel.abort());
    try {
      const data = await hub.call(b.account, b.session, b.handle, b.op as BridgeOp, b.args as never, {
        signal: cancel.signal,
        onProgress: (message) => out.send({ type: "progress", message }),
      });
      // The extension's own frame is passed on as it came (no second JSON.stringify of a large
      // capture): a capture's, or an act's that carries the page after the action.
      const carried = b.op === "capture" ? data : b.op === "act" ? (data as { capture?: unknown } | null)?.capture : undefined;
      const frame = typeof carried === "object" && carried !== null ? frameOf(carried)?.frame : undefined;
      out.end(frame ?? { type: "result", ok: true, data });
    } catch (err) {
      const error = isAgentError(err)
        ? { code: err.code as AgentErrorCode, message: err.message, ...(err.detail ? { detail: err.detail } : {}) }
        : { code: "failed" as const, message: err instanceof Error ? err.message.split("\n")[0] : String(err) };
      out.end({ type: "result", ok: false, error });
    }
  });

  router.post(RELAY_RELEASE_PATH, authenticated, body, async (ctx) => {
    const session = (ctx.request.body as { session?: unknown } | undefined)?.session;
    if (!str(session)) return refuse(ctx, 400, "release needs a session");
    hub.release(session);
    ctx.status = 204;
  });

  const forwarded = async (ctx: AppContext) => {
    const account = ctx.get(CLUSTER_ACCOUNT_HEADER);
    if (!str(account)) return refuse(ctx, 400, `an internal MCP request names its account (${CLUSTER_ACCOUNT_HEADER})`);
    await mcp(ctx, account);
  };
  router.post(RELAY_MCP_PATH, authenticated, body, forwarded);
  router.get(RELAY_MCP_PATH, authenticated, forwarded);
  router.delete(RELAY_MCP_PATH, authenticated, forwarded);
}
