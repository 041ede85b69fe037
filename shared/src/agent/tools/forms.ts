// fill_form (issue 33): several fields in one call, so a person supervising approves a form
// once (one card listing every value, secrets masked) and not once per field.
import { z } from "zod";
import { defineTool } from "./define.js";
import { idArg, tabArg } from "./args.js";
import { actAnswer, CHANGES, OUTCOME_AND_DIFF } from "./act.js";

export const fillForm = defineTool({
  name: "fill_form",
  description: (ctx) =>
    `Fills several fields at once: text fields are typed into, selects choose the option (value or text), checkboxes take "true"/"false", a radio is chosen. It does not submit. ${CHANGES}${ctx.where === "extension" ? " The person approves all the values on one card." : ""} Free.`,
  input: {
    tab: tabArg,
    fields: z
      .array(z.object({ id: idArg, value: z.string().max(10000).describe('The text, the option, or "true"/"false" for a checkbox') }))
      .min(1)
      .max(50),
  },
  docArgs: "`fields` (1–50 of `{id, value}`)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "fill_form", fields: args.fields.map((f) => ({ id: f.id, value: f.value })) }, hooks),
});
