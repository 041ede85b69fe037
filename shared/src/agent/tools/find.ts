// find (issue 33): text → the ids of the elements that hold it, wherever they are on the page
// (a ranked snapshot without the right goal can miss one control among thousands).
import { z } from "zod";
import { defineTool } from "./define.js";
import { tabArg } from "./args.js";
import { priceNote } from "./prices.js";

export const find = defineTool({
  name: "find",
  description: (ctx) =>
    `Finds the elements whose text, label or value contains text, anywhere on the page (frames and scrolled-off parts included), as numbered lines to act on.${priceNote(ctx.prices, "snapshot")}`,
  input: {
    tab: tabArg,
    text: z.string().min(1).max(200).describe("The words to look for (case-insensitive)"),
    limit: z.number().int().min(1).max(50).optional().describe("Most elements (default 10)"),
  },
  readOnly: true,
  billable: "snapshot",
  docArgs: "`text`, `limit?` (1–50, default 10)",
  docAnswers: "the matching elements, one line each",
  async handle(session, args) {
    const f = await session.find(args.tab, args.text, args.limit);
    return { text: f.text, structured: { ...f } };
  },
});
