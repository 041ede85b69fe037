// Moving between pages: each answers the outcome, the URL and the new page's title; the agent
// takes a snapshot (with its goal) to act on the new page.
import { z } from "zod";
import { defineTool } from "./define.js";
import { tabArg } from "./args.js";
import { actAnswer, CHANGES } from "./act.js";

export const navigate = defineTool({
  name: "navigate",
  description: () => `Opens an http(s) URL in the tab. ${CHANGES} Free.`,
  input: { tab: tabArg, url: z.string().min(1).max(8192) },
  docArgs: "`url` (http or https only)",
  docAnswers: "outcome + the new page's first lines",
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "navigate", url: args.url }, hooks),
});

export const back = defineTool({
  name: "back",
  description: () => `Goes back one page in the tab's history. ${CHANGES} Free.`,
  input: { tab: tabArg },
  docAnswers: "outcome",
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "back" }, hooks),
});

export const forward = defineTool({
  name: "forward",
  description: () => `Goes forward one page in the tab's history (after back). ${CHANGES} Free.`,
  input: { tab: tabArg },
  docAnswers: "outcome",
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "forward" }, hooks),
});
