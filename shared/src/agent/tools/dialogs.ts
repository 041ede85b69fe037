// The dialog tool (issue 33): a page's alert, confirm, prompt or "leave this page?" blocks it
// until answered. The action that opened one answers outcome "dialog" with its type and text;
// this tool accepts (a prompt with text) or dismisses it, and answers what the page did then.
import { z } from "zod";
import { defineTool } from "./define.js";
import { tabArg } from "./args.js";
import { actAnswer, CHANGES, OUTCOME_AND_DIFF } from "./act.js";

export const dialog = defineTool({
  name: "dialog",
  description: (ctx) =>
    `Answers the JavaScript dialog (alert, confirm, prompt, leave-page) open on the tab: accept=true (OK; text answers a prompt) or accept=false (Cancel). ${CHANGES}${ctx.where === "extension" ? " Accepting a confirm or a leave-page dialog asks the person." : ""} Free.`,
  input: { tab: tabArg, accept: z.boolean(), text: z.string().max(10000).optional().describe("A prompt's answer") },
  docArgs: "`accept` (OK or Cancel), `text?` (a prompt's answer)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "dialog", accept: args.accept, ...(args.text !== undefined ? { text: args.text } : {}) }, hooks),
});
