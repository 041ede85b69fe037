// Re-establishes an MCP session on this instance after the instance serving it died: a new
// transport that answers to the session's id, brought to the initialized state by replaying
// the handshake (initialize, notifications/initialized) in-process, so the agent's next
// request is served as if nothing happened. The agent's working memory (element ids, pictures
// for diffs) was in the dead process: its next act on an old id gets `no_snapshot`.
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Replays the handshake on a transport created with `sessionIdGenerator: () => id`. */
export async function replayHandshake(transport: StreamableHTTPServerTransport, id: string, protocolVersion: string | undefined): Promise<void> {
  // The Node transport wraps the web-standard one, whose handleRequest takes a Request.
  const web = (transport as unknown as { _webStandardTransport?: WebStandardStreamableHTTPServerTransport })._webStandardTransport;
  if (!web || typeof web.handleRequest !== "function") throw new Error("this MCP SDK's transport cannot be resumed");
  const version = protocolVersion || LATEST_PROTOCOL_VERSION;
  const init = await web.handleRequest(
    new Request("http://sightline.internal/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "sightline-resume",
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "sightline-resume", version: "1" } },
      }),
    }),
  );
  await init.text(); // the stream ends once the initialize answer is in it
  if (init.status !== 200 || web.sessionId !== id) throw new Error(`the session could not be re-established (${init.status})`);
  const done = await web.handleRequest(
    new Request("http://sightline.internal/mcp", {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": version },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    }),
  );
  await done.text();
}
