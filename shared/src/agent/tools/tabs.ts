// Tabs (issue 33): open a URL in a new tab (it joins the agent's tabs and becomes the active
// one), switch the active tab, close a tab the agent opened. A link that opens a new tab is
// named in the answer of the click that opened it (answerText).
import { z } from "zod";
import { defineTool } from "./define.js";
import { tabsAnswer } from "./observe.js";

const tabHandle = z.string().min(1).max(100).describe("Tab handle from `tabs`");

export const tabOpen = defineTool({
  name: "tab_open",
  description: () => "Opens an http(s) URL in a new tab, which becomes the active tab. Answers its handle. Free.",
  input: { url: z.string().min(1).max(8192) },
  docArgs: "`url` (http or https only)",
  docAnswers: "the new tab's handle and URL",
  async handle(session, args) {
    const t = await session.openTab(args.url);
    return { text: `opened ${t.tab} ${t.url} ${JSON.stringify(t.title)}`, structured: { ...t } };
  },
});

export const tabSelect = defineTool({
  name: "tab_select",
  description: () => "Makes a tab the active one: calls without `tab` go to it. Free.",
  input: { tab: tabHandle },
  docArgs: "`tab`",
  docAnswers: "the tabs",
  async handle(session, args) {
    return tabsAnswer(await session.selectTab(args.tab));
  },
});

export const tabClose = defineTool({
  name: "tab_close",
  description: () => "Closes a tab the agent opened (never one the person opened). Free.",
  input: { tab: tabHandle },
  docArgs: "`tab`",
  docAnswers: "the tabs left",
  async handle(session, args) {
    return tabsAnswer(await session.closeTab(args.tab));
  },
});
