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

export function registerMcp(router: AppRouter, deps: AppDeps): void {
  const sessions = new McpSessions(deps);
  deps.onShutdown(() => sessions.close());

  const handle = async (ctx: AppContext) => {
    const account = ctx.state.account!.id;
    const id = ctx.get(SESSION_HEADER);
    let entry = id ? sessions.get(id, account) : undefined;
    if (id && !entry) {
      return jsonRpcError(ctx, 404, -32001, "Session not found: it ended (idle, closed for a newer session of this key, or deleted), or belongs to another key. Initialize a new one.");
    }
    let opened = false;
    if (!entry) {
      if (ctx.method !== "POST" || !isInitialize(ctx.request.body)) {
        return jsonRpcError(ctx, 400, -32000, "Bad Request: no Mcp-Session-Id header; the first request must be initialize");
      }
      entry = await sessions.open(account); // 429 when the key's sessions are all busy
      opened = true;
    }
    if (ctx.method === "POST") sessions.track(entry, ctx.res);
    // The SDK writes the response itself (JSON or an SSE stream).
    ctx.respond = false;
    await entry.transport.handleRequest(ctx.req, ctx.res, ctx.method === "POST" ? ctx.request.body : undefined);
    if (opened) sessions.discardUnopened(entry);
  };

  // Browser origins were refused before (middleware/cors.ts, origins.ts), ahead of the key check.
  router.post("/mcp", ...deps.api("mcp"), handle);
  router.get("/mcp", ...deps.api("mcp", "none"), handle);
  router.delete("/mcp", ...deps.api("mcp", "none"), handle);
}
