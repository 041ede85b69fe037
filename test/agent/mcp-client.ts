// A real MCP client (the SDK's Client) over stdio (the built CLI) or Streamable HTTP (/mcp).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const CLI = fileURLToPath(new URL("../../shared/dist/cli/main.js", import.meta.url));

/** The per-call `_meta` that asks Sightline for structured content (it sends text only otherwise). */
export const STRUCTURED = { "sightline.dev/structured": true };

export interface McpClient {
  client: Client;
  /**
   * Calls a tool; returns its result (tool failures come back with isError). The tests read the
   * structured answer, so it is asked for unless `structured` is false (what a text-only client gets).
   */
  call(name: string, args?: Record<string, unknown>, opts?: { structured?: boolean }): Promise<CallToolResult>;
  /** Text of a result's first text content. */
  close(): Promise<void>;
  stderr: () => string;
}

function wrap(client: Client, close: () => Promise<void>, stderr: () => string = () => ""): McpClient {
  return {
    client,
    call: async (name, args = {}, opts = {}) =>
      (await client.callTool({ name, arguments: args, ...(opts.structured === false ? {} : { _meta: STRUCTURED }) })) as CallToolResult,
    close,
    stderr,
  };
}

export const textOf = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).filter(Boolean).join("\n");

/** The id of the first snapshot line whose label matches `label` (e.g. /Email/). */
export function idOf(snapshotText: string, label: RegExp): number {
  for (const line of snapshotText.split("\n")) {
    const m = /^\[(\d+)\]/.exec(line);
    if (m && label.test(line)) return Number(m[1]);
  }
  throw new Error(`no element matching ${label} in:\n${snapshotText}`);
}

export async function stdioClient(args: string[], env: Record<string, string> = {}): Promise<McpClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", ...args],
    env: { PATH: process.env.PATH ?? "", CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "sightline-test", version: "1.0.0" });
  await client.connect(transport);
  return wrap(client, () => client.close(), () => err);
}

export async function httpClient(origin: string, key: string): Promise<McpClient & { transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", origin), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const client = new Client({ name: "sightline-test", version: "1.0.0" });
  await client.connect(transport);
  return Object.assign(
    wrap(client, async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }),
    { transport },
  );
}
