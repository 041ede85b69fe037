// One function builds an agent's MCP server, whatever the transport and the backend: a session
// over the backend (ids, diffs, stale answers, secrets, the activity log), the tools of
// ../tools/ registered on an MCP server, priced by one price list. The stdio server on a
// headless Chromium, `sightline replay` and the server's /mcp (the person's tabs through the
// bridge) differ only in the parts they pass.
//
// Text is what a model reads. Structured content (the same answer as JSON) is sent only to a
// client that asks: for the whole session (`structuredContent`, e.g. `sightline mcp
// --structured-content`), or per call (`_meta: { "sightline.dev/structured": true }`). No tool
// declares an outputSchema, which would oblige the server to send it on every call (MCP
// 2025-06-18, tools: "Servers MUST provide structured results that conform to this schema"):
// clients that hand both to the model (LangChain's MCP adapters) would pay for the answer twice.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isAgentError } from "../core/errors.js";
import type { AgentBackend, CallHooks } from "./backend.js";
import { AgentSession, type SessionDeps } from "./session.js";
import { TOOLS } from "../tools/index.js";
import type { ToolAnswer, ToolContext, ToolDefinition } from "../tools/define.js";
import type { PriceList } from "../tools/prices.js";

/** The MCP server's version, reported in initialize (the package version). */
export const SIGHTLINE_MCP_VERSION = "0.1.0";

/** The `_meta` key of a tools/call request that asks for structured content in its answer. */
export const STRUCTURED_META = "sightline.dev/structured";

export interface AgentServerParts {
  /** The browser: headless (../backends/headless) or the person's tabs (../backends/bridge). */
  backend: AgentBackend;
  /** How captures are refined (in process, through the API, on the server's workers). */
  refine: SessionDeps["refine"];
  /** What the priced calls cost here (../tools/prices.ts): for descriptions, and what `bill` takes. */
  prices: PriceList;
  /** Charges a priced call before it runs, refunds when it fails; absent: charged elsewhere or free. */
  bill?: SessionDeps["bill"];
  /** Receives one activity entry per action (secrets masked). */
  onActivity?: SessionDeps["onActivity"];
  /** Where the browser is, for the tools' descriptions and the instructions. */
  where: ToolContext["where"];
  /** Send structured content with every answer (default: only to calls that ask). */
  structuredContent?: boolean;
}

export interface AgentServer {
  server: McpServer;
  session: AgentSession;
}

type Extra = { _meta?: Record<string, unknown> & { progressToken?: string | number }; signal: AbortSignal; sendNotification: (n: never) => Promise<void> };

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

function result(answer: ToolAnswer, structured: boolean): CallToolResult {
  const content: CallToolResult["content"] = answer.image
    ? [{ type: "image", data: answer.image.data, mimeType: answer.image.mimeType }, { type: "text", text: answer.text }]
    : [{ type: "text", text: answer.text }];
  return { content, ...(structured && answer.structured ? { structuredContent: answer.structured } : {}) };
}

/** An error the agent can read and recover from, as a tool result. */
function failure(err: unknown, structured: boolean): CallToolResult {
  if (isAgentError(err)) {
    return {
      isError: true,
      content: [{ type: "text", text: `${err.code}: ${err.message}` }],
      ...(structured ? { structuredContent: { error: err.code, message: err.message, ...(err.detail ?? {}) } } : {}),
    };
  }
  const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return { isError: true, content: [{ type: "text", text: `failed: ${msg}` }], ...(structured ? { structuredContent: { error: "failed", message: msg } } : {}) };
}

export function composeAgentServer(parts: AgentServerParts): AgentServer {
  const session = new AgentSession({
    backend: parts.backend,
    refine: parts.refine,
    ...(parts.bill ? { bill: parts.bill } : {}),
    ...(parts.onActivity ? { onActivity: parts.onActivity } : {}),
  });
  const ctx: ToolContext = { where: parts.where, prices: parts.prices };
  const server = new McpServer(
    { name: "sightline", version: SIGHTLINE_MCP_VERSION },
    {
      instructions:
        "Sightline shows web pages as ranked, numbered elements. Call `snapshot` (with a `goal` for the task at hand), then act on element ids with click/type/select/press/scroll. Each action answers its outcome and what changed; take a new snapshot after `navigated`." +
        (parts.where === "extension" ? " You work in the person's own browser, on the tabs they shared; they may approve or reject each action." : ""),
    },
  );
  for (const def of TOOLS as ToolDefinition[]) {
    server.registerTool(
      def.name,
      { description: def.description(ctx), inputSchema: def.input, ...(def.readOnly ? { annotations: { readOnlyHint: true } } : {}) },
      async (args: Record<string, unknown>, extra: unknown) => {
        const e = extra as Extra;
        const structured = parts.structuredContent === true || e._meta?.[STRUCTURED_META] === true;
        try {
          return result(await def.handle(session, args as never, hooksFor(e)), structured);
        } catch (err) {
          return failure(err, structured);
        }
      },
    );
  }
  return { server, session };
}
