// upload (issue 33): a file from the agent's side into a file input (a CV on a job
// application). Sensitive: a person supervising sees the file's name and size before it goes.
// Two shapes: `path`, a file in the server's upload folder (SIGHTLINE_UPLOAD_DIR: an agent on
// the same machine), or `content`, the bytes inline as base64 with `path` as the file's name
// (a remote agent on /mcp has no folder of the server to put a file in). On the person's tab the
// server sends the bytes over the bridge; the person's disk is never read or written.
import { z } from "zod";
import { inlineFile, MAX_UPLOAD_BYTES } from "../core/uploads.js";
import { defineTool } from "./define.js";
import { idArg, tabArg } from "./args.js";
import { actAnswer, CHANGES, OUTCOME_AND_DIFF } from "./act.js";

export const upload = defineTool({
  name: "upload",
  description: () =>
    `Puts a file into a file input (or the button that opens one). Either path is a file in the server's upload folder (SIGHTLINE_UPLOAD_DIR), relative to it (nothing outside it can be sent), or content is the file's bytes as base64 (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB) and path is only its name. ${CHANGES} Free.`,
  input: {
    tab: tabArg,
    id: idArg,
    path: z.string().min(1).max(4096).describe("The file, relative to the upload folder; with content, the file's name"),
    content: z.string().max(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 1024).optional().describe("The file's bytes, base64 (then path is its name)"),
  },
  docArgs: "`id`, `path` (inside SIGHTLINE_UPLOAD_DIR), or `path` as the name + `content` (base64, ≤ 10 MB)",
  docAnswers: OUTCOME_AND_DIFF,
  // Bad base64 or too big: refused here, before anything is sent; the backends take it as checked.
  handle: (session, args, hooks) =>
    actAnswer(session, args.tab, { kind: "upload", id: args.id, path: args.path, ...(args.content !== undefined ? { content: inlineFile(args.content) } : {}) }, hooks),
});
