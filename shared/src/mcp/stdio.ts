// `sightline mcp --headless`: the MCP tools over stdio on a Chromium of this machine. The server
// answers `initialize` at once; the browser starts in the background (DeferredBackend) and the
// first call that needs it waits for it, or answers why it could not start.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Browser } from "playwright-core";
import { appendFileSync } from "node:fs";
import { toJsonLines, type ActivityEntry } from "../agent/core/activity.js";
import { composeAgentServer } from "../agent/session/compose.js";
import { API_PRICES, LOCAL_PRICES } from "../agent/tools/prices.js";
import type { HeadlessBackend } from "../agent/backends/headless/backend.js";
import { DeferredBackend } from "../agent/backends/headless/deferred.js";
import { loadRefineEngine, localRefine } from "../agent/backends/headless/refine.js";
import { loadPrompt } from "../agent/session/session.js";
import type { Sightline } from "../client/index.js";
import type { HostPolicy } from "../net/index.js";

export interface HeadlessServeOptions {
  /**
   * The browser, or how to launch it. A launcher runs in the background once the server is up
   * (its failure is the first browser call's error); with `startUrl` the server waits for it.
   */
  browser: Browser | (() => Promise<Browser>);
  /** Refine the agent's snapshots and screenshot marks through this API client (charged as
   *  agent/tools/prices.ts says); null: in this process, free. */
  client: Sightline | null;
  /** Send structured content with every answer (else only to calls that ask for it). */
  structuredContent?: boolean;
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
  const startBackend = async (): Promise<HeadlessBackend> => {
    const browser = typeof opts.browser === "function" ? await opts.browser() : opts.browser;
    // Loaded with the browser (its egress proxy, the page agent's driver), after initialize.
    const { HeadlessBackend } = await import("../agent/backends/headless/backend.js");
    const backend = await HeadlessBackend.start({ browser, ownsBrowser: true, ...(opts.policy ? { policy: opts.policy } : {}) }).catch(async (err: unknown) => {
      await browser.close().catch(() => undefined);
      throw err;
    });
    if (opts.startUrl) {
      const [first] = await backend.tabs();
      try {
        await backend.act(first.tab, { kind: "navigate", url: opts.startUrl });
      } catch (err) {
        await backend.close(); // the browser too: nothing is left running
        throw err;
      }
    }
    return backend;
  };
  let start = startBackend;
  if (opts.startUrl) {
    // A start URL is opened before the server answers: a refused one is the command's error.
    const ready = await startBackend();
    start = async () => ready;
  }
  const backend = new DeferredBackend(start);
  const logFile = opts.logFile;
  const { server } = composeAgentServer({
    backend,
    refine: localRefine(opts.client),
    prices: opts.client ? API_PRICES : LOCAL_PRICES,
    ...(logFile ? { onActivity: (entry: ActivityEntry) => appendFileSync(logFile, toJsonLines([entry])) } : {}),
    where: "headless",
    structuredContent: opts.structuredContent === true,
  });
  const transport = new StdioServerTransport(opts.stdin as never, opts.stdout as never);
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (done = resolve));
  transport.onclose = () => {
    void backend.close().finally(done);
  };
  await server.connect(transport);
  backend.warm();
  // The refinement engine, its ranking model and the token counter's tables load while the
  // browser starts, not in the first call (nor before initialize: session.ts).
  setTimeout(() => {
    void loadPrompt().then((m) => m.toPrompt({ url: "about:blank", elements: [] }), () => undefined);
    void loadRefineEngine().then((m) => m.localReranker(), () => undefined);
  }, 50).unref();
  (opts.stdin ?? process.stdin).once("end", () => void server.close());
  return { closed };
}
