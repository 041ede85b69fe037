// The observing tools: which tabs, the page's elements, its text, a picture of it, waiting.
import { z } from "zod";
import type { AgentTab } from "../core/actions.js";
import { defineTool, type ToolAnswer } from "./define.js";
import { tabArg } from "./args.js";
import { priceNote } from "./prices.js";

export const tabs = defineTool({
  name: "tabs",
  description: (ctx) => `The tabs the agent may use${ctx.where === "extension" ? " (only those the person shared)" : ""}. Free.`,
  input: {},
  readOnly: true,
  docAnswers: "the tabs the agent may use",
  async handle(session) {
    return tabsAnswer(await session.tabs());
  },
});

/** The tabs, a line each (also the answer of tab_select and tab_close). */
export function tabsAnswer(list: AgentTab[]): ToolAnswer {
  const lines = list.map(
    (t) => `${t.tab}${t.active ? " (active)" : ""} ${t.url} ${JSON.stringify(t.title)}${t.dialog ? ` · ${t.dialog.type} dialog open: ${JSON.stringify(t.dialog.message)}` : ""}`,
  );
  return { text: lines.length ? lines.join("\n") : "no tabs are shared with the agent", structured: { tabs: list } };
}

export const snapshot = defineTool({
  name: "snapshot",
  description: (ctx) =>
    `The page's elements, best first, as numbered lines for acting on (ids stay valid until the element goes). Give a goal to rank for it.${priceNote(ctx.prices, "snapshot")}`,
  input: {
    tab: tabArg,
    goal: z.string().max(1000).optional().describe("What you are trying to do, e.g. 'sign up with email'"),
    limit: z.number().int().min(1).max(100).optional().describe("Most elements (default 50)"),
    token_budget: z.number().int().min(50).max(20000).optional().describe("Most tokens of text (default 1000)"),
  },
  readOnly: true,
  billable: "snapshot",
  docArgs: "`goal?`, `limit?` (1–100), `token_budget?` (50–20000, default 1000)",
  docAnswers: "the `toPrompt` text (one line per element, best first) and the structured elements",
  async handle(session, args) {
    const s = await session.snapshot(args.tab, { goal: args.goal, limit: args.limit, token_budget: args.token_budget });
    return { text: s.text, structured: { ...s } };
  },
});

export const read = defineTool({
  name: "read",
  description: (ctx) => `The page's main content as Markdown.${priceNote(ctx.prices, "read")}`,
  input: { tab: tabArg },
  readOnly: true,
  billable: "read",
  docAnswers: "the page's main content as Markdown",
  async handle(session, args) {
    const r = await session.read(args.tab);
    return { text: `# ${r.title}\n${r.url}\n\n${r.content}`, structured: { ...r } };
  },
});

export const screenshot = defineTool({
  name: "screenshot",
  description: (ctx) => `A PNG of the viewport with numbered boxes: the numbers are element ids.${priceNote(ctx.prices, "screenshot")}`,
  input: { tab: tabArg },
  readOnly: true,
  billable: "screenshot",
  docAnswers: "a PNG of the viewport with numbered boxes (the numbers are element ids)",
  async handle(session, args) {
    const s = await session.screenshot(args.tab);
    return { text: `${s.marks} elements marked`, image: { data: s.png, mimeType: "image/png" } };
  },
});

export const wait = defineTool({
  name: "wait",
  description: () => "Waits until text is visible on the page, or (without text) until the page stops changing. Free.",
  input: { tab: tabArg, text: z.string().max(1000).optional(), timeout_ms: z.number().int().min(0).max(60000).optional() },
  readOnly: true,
  docArgs: "`text?`, `timeout_ms?` (≤ 60000)",
  docAnswers: "whether the text appeared, or the page went quiet",
  async handle(session, args) {
    const w = await session.wait(args.tab, { text: args.text, timeoutMs: args.timeout_ms });
    const what = args.text ? `"${args.text}" ${w.found ? "is on the page" : "did not appear"}` : w.found ? "the page is quiet" : "the page kept changing";
    return { text: `${what} · ${w.url}`, structured: { ...w } };
  },
});
