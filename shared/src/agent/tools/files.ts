// upload (issue 33): a file from the agent's side into a file input (a CV on a job
// application). Sensitive: a person supervising sees the file's name and size before it goes.
import { z } from "zod";
import { defineTool } from "./define.js";
import { idArg, tabArg } from "./args.js";
import { actAnswer, CHANGES, OUTCOME_AND_DIFF } from "./act.js";

export const upload = defineTool({
  name: "upload",
  description: (ctx) =>
    `Puts a file into a file input (or the button that opens one). ${ctx.where === "headless" ? "path is a file in the upload folder (SIGHTLINE_UPLOAD_DIR), relative to it; nothing outside it can be sent." : "Only on the headless backend for now."} ${CHANGES} Free.`,
  input: { tab: tabArg, id: idArg, path: z.string().min(1).max(4096).describe("The file, relative to the upload folder") },
  docArgs: "`id`, `path` (inside SIGHTLINE_UPLOAD_DIR)",
  docAnswers: OUTCOME_AND_DIFF,
  handle: (session, args, hooks) => actAnswer(session, args.tab, { kind: "upload", id: args.id, path: args.path }, hooks),
});
