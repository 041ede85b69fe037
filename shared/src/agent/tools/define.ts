// A tool is one small definition: its name, what it tells the model, its arguments, and a
// handler that turns them into a session call and the session's answer into the text the model
// reads (plus, for clients that ask, the same answer as structured content). compose.ts
// registers every definition on an MCP server; docs/mcp.md's tool table is generated from them
// (shared/scripts/mcp-tools-doc.mjs).
import type { z } from "zod";
import type { AgentSession, Billable } from "../session/session.js";
import type { CallHooks } from "../session/backend.js";
import type { PriceList } from "./prices.js";

/** Where the session's browser is, and what its calls cost: what descriptions depend on. */
export interface ToolContext {
  where: "headless" | "extension";
  prices: PriceList;
}

/** What a tool answers: text for the model, structured data for clients that ask, an image. */
export interface ToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
  image?: { data: string; mimeType: string };
}

export interface ToolDefinition<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  /** The description the model reads (may depend on where the browser is and on prices). */
  description(ctx: ToolContext): string;
  input: S;
  /** It changes nothing on the page (MCP readOnlyHint). */
  readOnly?: boolean;
  /** The priced call it is (prices.ts), if any. */
  billable?: Billable;
  /** For the docs table: the arguments in a few words (default: generated from `input`). */
  docArgs?: string;
  /** For the docs table: what it answers. */
  docAnswers: string;
  handle(session: AgentSession, args: z.infer<z.ZodObject<S>>, hooks: CallHooks): Promise<ToolAnswer>;
}

/** Declares a tool (typed by its input shape). */
export function defineTool<S extends z.ZodRawShape>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}
