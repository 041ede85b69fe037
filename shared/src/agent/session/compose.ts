// The MCP tools an agent sees, the same on every transport and backend (names and arguments
// are part of Sightline's interface: docs/mcp.md). Tool failures an agent can act on (a stale
// id, a rejected action) come back as tool results with isError, so the model reads them;
// malformed calls are refused by the SDK's schema check before anything runs.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AgentError, isAgentError, type ActAnswer, type AgentAction, type AgentSession, type CallHooks } from "../agent/index.js";
import { SIGHTLINE_MCP_VERSION } from "./version.js";

/** Credits each observing tool costs on this server (null: nothing is charged). */
export interface ToolCosts {
  snapshot: number;
  read: number;
  screenshot: number;
}

export interface McpServerOptions {
  /** Where the session's browser is, for the tools' descriptions. */
  backend: "headless" | "extension";
  costs: ToolCosts | null;
}

const tabArg = z.string().optional().describe("Tab handle from `tabs`; default: the active shared tab");
const idArg = z.number().int().nonnegative().describe("Element id from the last snapshot");

function costNote(costs: ToolCosts | null, what: keyof ToolCosts): string {
  if (!costs || costs[what] === 0) return " Free.";
  return ` Costs ${costs[what]} credit${costs[what] === 1 ? "" : "s"}, like the matching REST call.`;
}

function text(t: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: t }], ...(structured ? { structuredContent: structured } : {}) };
}

/** An error the agent can read and recover from. */
function failure(err: unknown): CallToolResult {
  if (isAgentError(err)) {
    return { isError: true, content: [{ type: "text", text: `${err.code}: ${err.message}` }], structuredContent: { error: err.code, message: err.message, ...(err.detail ?? {}) } };
  }
  const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return { isError: true, content: [{ type: "text", text: `failed: ${msg}` }], structuredContent: { error: "failed", message: msg } };
}

function actText(a: ActAnswer): string {
  const lines = [`${a.outcome} · ${a.url}`];
  if (a.page) lines.push(a.page);
  else if (a.changes.length) lines.push(...a.changes);
  return lines.join("\n");
}

type Extra = { _meta?: { progressToken?: string | number }; signal: AbortSignal; sendNotification: (n: never) => Promise<void> };

/** Progress notifications (e.g. "waiting for the person's approval") when the client asked for them. */
function hooksFor(extra: Extra): CallHooks {
  const token = extra._meta?.progressToken;
  let progress = 0;
  return {
    signal: extra.signal,
    onProgress:
      token === undefined
        ? undefined
        : (message) => {
            progress++;
            void extra
              .sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, message } } as never)
              .catch(() => undefined);
          },
  };
}

export function createMcpServer(session: AgentSession, opts: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: "sightline", version: SIGHTLINE_MCP_VERSION },
    {
      instructions:
        "Sightline shows web pages as ranked, numbered elements. Call `snapshot` (with a `goal` for the task at hand), then act on element ids with click/type/select/press/scroll. Each action answers its outcome and what changed; take a new snapshot after `navigated`." +
        (opts.backend === "extension" ? " You work in the person's own browser, on the tabs they shared; they may approve or reject each action." : ""),
    },
  );
  const run = async (fn: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await fn();
    } catch (err) {
      return failure(err);
    }
  };
  const act = (tab: string | undefined, action: AgentAction, extra: Extra) =>
    run(async () => {
      const a = await session.act(tab, action, hooksFor(extra));
      return text(actText(a), { ...a });
    });
  const changes = "Answers the outcome (navigated / dom_changed / nothing_changed) and a few lines of what changed.";

  server.registerTool(
    "tabs",
    { description: `The tabs the agent may use${opts.backend === "extension" ? " (only those the person shared)" : ""}. Free.`, inputSchema: {}, annotations: { readOnlyHint: true } },
    () =>
      run(async () => {
        const tabs = await session.tabs();
        const lines = tabs.map((t) => `${t.tab}${t.active ? " (active)" : ""} ${t.url} ${JSON.stringify(t.title)}`);
        return text(lines.length ? lines.join("\n") : "no tabs are shared with the agent", { tabs });
      }),
  );
  server.registerTool(
    "snapshot",
    {
      description: `The page's elements, best first, as numbered lines for acting on (ids stay valid until the element goes). Give a goal to rank for it.${costNote(opts.costs, "snapshot")}`,
      inputSchema: {
        tab: tabArg,
        goal: z.string().max(1000).optional().describe("What you are trying to do, e.g. 'sign up with email'"),
        limit: z.number().int().min(1).max(100).optional().describe("Most elements (default 50)"),
        token_budget: z.number().int().min(50).max(20000).optional().describe("Most tokens of text (default 1000)"),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const s = await session.snapshot(args.tab, { goal: args.goal, limit: args.limit, token_budget: args.token_budget });
        return text(s.text, { ...s });
      }),
  );
  server.registerTool(
    "read",
    { description: `The page's main content as Markdown.${costNote(opts.costs, "read")}`, inputSchema: { tab: tabArg }, annotations: { readOnlyHint: true } },
    (args) =>
      run(async () => {
        const r = await session.read(args.tab);
        return text(`# ${r.title}\n${r.url}\n\n${r.content}`, { ...r });
      }),
  );
  server.registerTool(
    "screenshot",
    { description: `A PNG of the viewport with numbered boxes: the numbers are element ids.${costNote(opts.costs, "screenshot")}`, inputSchema: { tab: tabArg }, annotations: { readOnlyHint: true } },
    (args) =>
      run(async () => {
        const s = await session.screenshot(args.tab);
        return { content: [{ type: "image", data: s.png, mimeType: "image/png" }, { type: "text", text: `${s.marks} elements marked` }] };
      }),
  );
  server.registerTool(
    "click",
    { description: `Clicks an element (trusted mouse input at its centre). ${changes} Free.`, inputSchema: { tab: tabArg, id: idArg } },
    (args, extra) => act(args.tab, { kind: "click", id: args.id }, extra as Extra),
  );
  server.registerTool(
    "type",
    {
      description: `Replaces the text of a field by typing (trusted key input); submit presses Enter after. ${changes} Free.`,
      inputSchema: { tab: tabArg, id: idArg, text: z.string().max(10000), submit: z.boolean().optional() },
    },
    (args, extra) => act(args.tab, { kind: "type", id: args.id, text: args.text, submit: args.submit }, extra as Extra),
  );
  server.registerTool(
    "select",
    { description: `Chooses an option of a select by its value or visible text. ${changes} Free.`, inputSchema: { tab: tabArg, id: idArg, value: z.string().max(1000) } },
    (args, extra) => act(args.tab, { kind: "select", id: args.id, value: args.value }, extra as Extra),
  );
  server.registerTool(
    "press",
    { description: `Presses a key in the focused element: Enter, Tab, Escape, ArrowDown, Control+A... ${changes} Free.`, inputSchema: { tab: tabArg, key: z.string().min(1).max(50) } },
    (args, extra) => act(args.tab, { kind: "press", key: args.key }, extra as Extra),
  );
  server.registerTool(
    "scroll",
    {
      description: `Scrolls the page by most of a viewport in a direction, or brings element id into view. ${changes} Free.`,
      inputSchema: { tab: tabArg, direction: z.enum(["up", "down", "left", "right"]).optional(), id: idArg.optional() },
    },
    (args, extra) =>
      args.direction !== undefined && args.id !== undefined
        ? Promise.resolve(failure(new AgentError("bad_arguments", "give either direction or id, not both")))
        : act(args.tab, { kind: "scroll", direction: args.direction, id: args.id }, extra as Extra),
  );
  server.registerTool(
    "navigate",
    { description: `Opens an http(s) URL in the tab. ${changes} Free.`, inputSchema: { tab: tabArg, url: z.string().min(1).max(8192) } },
    (args, extra) => act(args.tab, { kind: "navigate", url: args.url }, extra as Extra),
  );
  server.registerTool(
    "back",
    { description: `Goes back one page in the tab's history. ${changes} Free.`, inputSchema: { tab: tabArg } },
    (args, extra) => act(args.tab, { kind: "back" }, extra as Extra),
  );
  server.registerTool(
    "wait",
    {
      description: "Waits until text is visible on the page, or (without text) until the page stops changing. Free.",
      inputSchema: { tab: tabArg, text: z.string().max(1000).optional(), timeout_ms: z.number().int().min(0).max(60000).optional() },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const w = await session.wait(args.tab, { text: args.text, timeoutMs: args.timeout_ms });
        const what = args.text ? `"${args.text}" ${w.found ? "is on the page" : "did not appear"}` : w.found ? "the page is quiet" : "the page kept changing";
        return text(`${what} · ${w.url}`, { ...w });
      }),
  );
  return server;
}
