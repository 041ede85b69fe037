// `sightline mcp --headless`: the MCP tools over stdio on a Chromium of this machine.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Browser } from "playwright-core";
import { appendFileSync } from "node:fs";
import { AgentSession, toJsonLines, type ActivityEntry } from "../agent/index.js";
import type { Sightline } from "../client/index.js";
import { HeadlessBackend } from "./headless.js";
import { localRefine } from "./refine.js";
import { createMcpServer } from "./tools.js";
import { SNAPSHOT_CREDITS } from "../contract/index.js";
import type { HostPolicy } from "../net/index.js";

export interface HeadlessServeOptions {
  browser: Browser;
  /** Refine the agent's snapshots through this API client (charged); null: in this process. */
  client: Sightline | null;
  /** A URL to open first. */
  startUrl?: string;
  /** Append every action to this file as an activity log (JSON Lines). */
  logFile?: string;
  /** Where the agent's browser may go (default: public addresses only, as /v1/observe). */
  policy?: HostPolicy;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

export async function serveHeadless(opts: HeadlessServeOptions): Promise<{ closed: Promise<void> }> {
  const backend = await HeadlessBackend.start({ browser: opts.browser, ownsBrowser: true, ...(opts.policy ? { policy: opts.policy } : {}) });
  if (opts.startUrl) {
    const [first] = await backend.tabs();
    try {
      await backend.act(first.tab, { kind: "navigate", url: opts.startUrl });
    } catch (err) {
      await backend.close(); // the browser too: nothing is left running
      throw err;
    }
  }
  const logFile = opts.logFile;
  const session = new AgentSession({
    backend,
    refine: localRefine(opts.client),
    ...(logFile ? { onActivity: (entry: ActivityEntry) => appendFileSync(logFile, toJsonLines([entry])) } : {}),
  });
  const server = createMcpServer(session, {
    backend: "headless",
    costs: opts.client ? { snapshot: SNAPSHOT_CREDITS, read: 0, screenshot: 0 } : null,
  });
  const transport = new StdioServerTransport(opts.stdin as never, opts.stdout as never);
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (done = resolve));
  transport.onclose = () => {
    void backend.close().finally(done);
  };
  await server.connect(transport);
  (opts.stdin ?? process.stdin).once("end", () => void server.close());
  return { closed };
}
