// Pointer tools (issue 33): a hover that opens a hover-only menu or a tooltip, a drag that moves a
// kanban card, reorders a list or moves a slider. Both are trusted mouse input on both backends.
import { z } from "zod";
import { defineTool } from "./define.js";
import { idArg, tabArg } from "./args.js";
import { actAnswer, CHANGES, OUTCOME_AND_DIFF } from "./act.js";

const pixels = z.number().int().min(-5000).max(5000);

export const hover = defineTool({
  name: "hover",
  description: () => `Moves the mouse over an element (trusted input), e.g. to open a menu that shows on hover. ${CHANGES} Free.`,
  input: { tab: tabArg, id: idArg },
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "hover", id: args.id }, hooks),
});

export const drag = defineTool({
  name: "drag",
  description: () =>
    `Drags an element (trusted mouse press, move, release) onto another element (to), or by an offset in pixels (dx, dy: a slider's thumb, a card along a list). ${CHANGES} Free.`,
  input: {
    tab: tabArg,
    id: idArg.describe("The element to drag (an id from the last snapshot)"),
    to: idArg.optional().describe("Drop it on this element (an id from the last snapshot)"),
    dx: pixels.optional().describe("Or move it this many pixels right (negative: left)"),
    dy: pixels.optional().describe("And this many pixels down (negative: up)"),
  },
  docArgs: "`id`, and `to` (an element) or `dx?`/`dy?` (pixels, ≤ 5000)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "drag", id: args.id, to: args.to, dx: args.dx, dy: args.dy }, hooks),
});
