// The acting tools: each performs one action on an element (or the focused one) and answers its
// outcome and a few lines of what changed (answerText), never the whole page.
import { z } from "zod";
import type { AgentAction, DialogInfo, DownloadInfo } from "../core/actions.js";
import { sizeText } from "../core/policy-tools.js";
import { AgentError } from "../core/errors.js";
import type { ActAnswer, AgentSession } from "../session/session.js";
import type { CallHooks } from "../session/backend.js";
import { defineTool, type ToolAnswer } from "./define.js";
import { idArg, tabArg } from "./args.js";

export const CHANGES = "Answers the outcome (navigated / dom_changed / nothing_changed) and a few lines of what changed.";
export const OUTCOME_AND_DIFF = "outcome + diff";

/** The lines that tell the agent a dialog blocks the page, and how to answer it. */
export function dialogLines(d: DialogInfo): string[] {
  const how = d.type === "prompt" ? "dialog accept=true with text, or accept=false" : "dialog accept=true or accept=false";
  return [
    `${d.type} dialog open: ${JSON.stringify(d.message)}${d.default_value ? ` (default ${JSON.stringify(d.default_value)})` : ""}`,
    `The page waits for its answer; nothing else runs on this tab until then: call ${how}.`,
  ];
}

/** The line that tells the agent what a download did (the file is never opened). */
export function downloadLine(d: DownloadInfo): string {
  const what = `${JSON.stringify(d.file)}${d.size !== undefined ? ` (${sizeText(d.size)})` : ""}`;
  switch (d.state) {
    case "saved":
      return `downloaded ${what}${d.path ? ` to ${d.path}` : ""} (saved, not opened)`;
    case "in_progress":
      return `downloading ${what}: still arriving`;
    case "off":
      return `the page started a download of ${what}; it was not kept: downloads are off (start the server with SIGHTLINE_DOWNLOAD_DIR set to a folder for them)`;
    case "failed":
      return `the download of ${what} failed${d.error ? `: ${d.error}` : ""}`;
  }
}

/** "outcome · url", then the new page's first lines after a navigation, else the diff lines. */
export function answerText(a: ActAnswer): string {
  const lines = [`${a.outcome} · ${a.url}`];
  if (a.dialog) lines.push(...dialogLines(a.dialog));
  for (const d of a.downloads ?? []) lines.push(downloadLine(d));
  for (const t of a.opened ?? []) lines.push(`opened a new tab ${t.tab} ${t.url}: it is now the active tab (snapshot it, or pass tab)`);
  if (a.page) lines.push(a.page);
  else lines.push(...a.changes);
  return lines.join("\n");
}

/** Performs `action` and answers it. */
export async function actAnswer(session: AgentSession, tab: string | undefined, action: AgentAction, hooks: CallHooks): Promise<ToolAnswer> {
  const a = await session.act(tab, action, hooks);
  return { text: answerText(a), structured: { ...a } };
}

export const click = defineTool({
  name: "click",
  description: () => `Clicks an element (trusted mouse input at its centre). ${CHANGES} Free.`,
  input: { tab: tabArg, id: idArg },
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "click", id: args.id }, hooks),
});

export const type = defineTool({
  name: "type",
  description: () => `Replaces the text of a field by typing (trusted key input); submit presses Enter after. ${CHANGES} Free.`,
  input: { tab: tabArg, id: idArg, text: z.string().max(10000), submit: z.boolean().optional() },
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "type", id: args.id, text: args.text, submit: args.submit }, hooks),
});

export const select = defineTool({
  name: "select",
  description: () => `Chooses an option of a select by its value or visible text. ${CHANGES} Free.`,
  input: { tab: tabArg, id: idArg, value: z.string().max(1000) },
  docArgs: "`id`, `value` (option value or text)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "select", id: args.id, value: args.value }, hooks),
});

export const press = defineTool({
  name: "press",
  description: () => `Presses a key in the focused element: Enter, Tab, Escape, ArrowDown, Control+A... ${CHANGES} Free.`,
  input: { tab: tabArg, key: z.string().min(1).max(50) },
  docArgs: "`key` (`Enter`, `Tab`, `Control+A`…)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "press", key: args.key }, hooks),
});

export const scroll = defineTool({
  name: "scroll",
  description: () => `Scrolls the page by most of a viewport in a direction, or brings element id into view. ${CHANGES} Free.`,
  input: { tab: tabArg, direction: z.enum(["up", "down", "left", "right"]).optional(), id: idArg.optional() },
  docArgs: "`direction` (`up`/`down`/`left`/`right`) or `id`",
  docAnswers: OUTCOME_AND_DIFF,
  async handle(session, args, hooks) {
    if (args.direction !== undefined && args.id !== undefined) throw new AgentError("bad_arguments", "give either direction or id, not both");
    return actAnswer(session, args.tab, { kind: "scroll", direction: args.direction, id: args.id }, hooks);
  },
});
