// POST/GET/DELETE /mcp: Sightline's MCP tools over Streamable HTTP, authenticated with the same
// Bearer key as the REST API (rate limit included). A request without a session id must be an
// initialize and opens a session; a session id belongs to the account that opened it (another
// key gets 404, as for an unknown or ended session, so ids cannot be probed).
import type { AppContext, AppDeps, AppRouter } from "../koa-types.js";
import { McpSessions } from "../mcp/sessions.js";

const SESSION_HEADER = "mcp-session-id";

function jsonRpcError(ctx: AppContext, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: "2.0", id: null, error: { code, message } };
}

const isInitialize = (body: unknown): boolean => {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === "object" && first !== null && (first as { method?: unknown }).method === "initialize";
};

/**
 * Registers /mcp; returns the handler for an already authenticated account, which the internal
 * route (routes/cluster.ts) runs for MCP requests another instance forwarded here.
 */
export function registerMcp(router: AppRouter, deps: AppDeps): (ctx: AppContext, account: string) => Promise<void> {
  const sessions = new McpSessions(deps, deps.cluster?.sessions.hooks());
  deps.onShutdown(() => sessions.close());

  /** `forwarded`: it came from another instance, which found this one serving the session. */
  const handle = async (ctx: AppContext, account: string, forwarded = false) => {
    const id = ctx.get(SESSION_HEADER);
    let entry = id ? sessions.get(id, account) : undefined;
    // Several instances: the session may be served by another one, or its instance be gone.
    if (id && !entry && deps.cluster && !forwarded) {
      const found = await deps.cluster.sessions.find((resume) => sessions.open(account, { resume }), id, account, ctx.req, ctx.res, ctx.method === "POST" ? ctx.request.body : undefined);
      if (found === "forwarded") {
        ctx.respond = false;
        return;
      }
      entry = found;
    }
    if (id && !entry) {
      return jsonRpcError(ctx, 404, -32001, "Session not found: it ended (idle, closed for a newer session of this key, or deleted), or belongs to another key. Initialize a new one.");
    }
    let opened = false;
    if (!entry) {
      if (ctx.method !== "POST" || !isInitialize(ctx.request.body)) {
        return jsonRpcError(ctx, 400, -32000, "Bad Request: no Mcp-Session-Id header; the first request must be initialize");
      }
      // Sightline-Structured-Content: 1 asks for structured content in every answer of the session.
      entry = await sessions.open(account, { structuredContent: ctx.get("sightline-structured-content") === "1" }); // 429 when the key's sessions are all busy
      opened = true;
    }
    if (ctx.method === "POST") sessions.track(entry, ctx.res);
    // The SDK writes the response itself (JSON or an SSE stream).
    ctx.respond = false;
    await entry.transport.handleRequest(ctx.req, ctx.res, ctx.method === "POST" ? ctx.request.body : undefined);
    if (opened) sessions.discardUnopened(entry);
  };

  // Browser origins were refused before (middleware/cors.ts, origins.ts), ahead of the key check.
  const fromKey = (ctx: AppContext) => handle(ctx, ctx.state.account!.id);
  router.post("/mcp", ...deps.api("mcp"), fromKey);
  router.get("/mcp", ...deps.api("mcp", "none"), fromKey);
  router.delete("/mcp", ...deps.api("mcp", "none"), fromKey);
  return (ctx, account) => handle(ctx, account, true);
}
