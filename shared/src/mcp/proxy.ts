// `sightline mcp` without --headless: a stdio MCP server for clients that launch commands,
// relaying every message to the Sightline server's POST /mcp (where the agent reaches the
// person's shared tabs). When the server restarts, its session is gone (404): the relay opens
// a new one by replaying the client's initialize, so the MCP client never notices.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";

export interface RelayOptions {
  /** The server's base URL, e.g. http://127.0.0.1:8787. */
  baseUrl: string;
  apiKey: string;
  stdin?: Readable;
  stdout?: Writable;
  log?: (line: string) => void;
  /** Ask the server for structured content with every answer (the header STRUCTURED_HEADER). */
  structuredContent?: boolean;
}

/** The request header that asks a server's /mcp for structured content in every answer of a session. */
export const STRUCTURED_HEADER = "Sightline-Structured-Content";

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } => "method" in m && "id" in m;

export async function relayToServer(opts: RelayOptions): Promise<{ closed: Promise<void> }> {
  const endpoint = new URL("/mcp", opts.baseUrl);
  const stdio = new StdioServerTransport(opts.stdin, opts.stdout);
  let initialize: JSONRPCMessage | null = null;
  let http: StreamableHTTPClientTransport;
  const log = opts.log ?? (() => undefined);

  const connect = async () => {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.apiKey}`, ...(opts.structuredContent ? { [STRUCTURED_HEADER]: "1" } : {}) };
    const t = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
    t.onmessage = (m) => void stdio.send(m).catch(() => undefined);
    t.onerror = (e) => log(`sightline mcp: ${e.message}`);
    await t.start();
    return t;
  };
  http = await connect();

  /** A new server session: initialize again, its answer swallowed (the client has one). */
  const reopen = async () => {
    await http.close().catch(() => undefined);
    http = await connect();
    if (!initialize) return;
    const replay = { ...(initialize as object), id: `sightline-relay-${Date.now()}` } as JSONRPCMessage;
    const answered = new Promise<void>((resolve) => {
      const forward = http.onmessage;
      http.onmessage = (m) => {
        if ("id" in m && m.id === (replay as { id: string }).id) {
          http.onmessage = forward;
          resolve();
        } else forward?.(m);
      };
    });
    await http.send(replay);
    await answered;
    await http.send({ jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage);
    log("sightline mcp: the server's session was gone; opened a new one");
  };

  const forward = async (m: JSONRPCMessage) => {
    if (isRequest(m) && m.method === "initialize") initialize = m;
    try {
      await http.send(m);
    } catch (err) {
      if (err instanceof StreamableHTTPError && err.code === 404 && initialize && m !== initialize) {
        await reopen();
        await http.send(m);
        return;
      }
      throw err;
    }
  };

  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (done = resolve));
  stdio.onmessage = (m) => {
    forward(m).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      log(`sightline mcp: ${message}`);
      if (isRequest(m)) {
        void stdio.send({ jsonrpc: "2.0", id: m.id, error: { code: -32603, message: `Sightline server at ${opts.baseUrl}: ${message}` } } as JSONRPCMessage);
      }
    });
  };
  stdio.onclose = () => {
    void http.terminateSession().catch(() => undefined).finally(() => {
      void http.close();
      done();
    });
  };
  await stdio.start();
  // The client closing stdin ends the relay (the SDK's stdio transport does not listen for it).
  (opts.stdin ?? process.stdin).once("end", () => void stdio.close());
  return { closed };
}
