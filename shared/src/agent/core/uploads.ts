// An upload's file sent inline by the agent (issue 33): base64 content with a name, the shape a
// remote agent can use (it cannot put a file in a folder of the server, let alone of the
// person's machine). Capped, and checked before anything is sent. Isomorphic.
import { AgentError } from "./errors.js";

/** Most bytes one upload may carry inline: a CV or an invoice, not a disk image. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A bad_arguments error when a file of `size` bytes is more than one upload may carry. */
export function checkUploadSize(size: number, what = "the file"): void {
  if (size > MAX_UPLOAD_BYTES) throw new AgentError("bad_arguments", `${what} is ${size} bytes; an upload carries at most ${MAX_UPLOAD_BYTES} bytes (10 MB)`);
}

/** The decoded size of base64 already checked (inlineFile). */
export const base64Size = (b64: string): number => (b64.length / 4) * 3 - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);

/**
 * The agent's inline `content`, checked once where the call comes in (the upload tool): its
 * base64 without whitespace; a bad_arguments error when it is not base64 or too big.
 */
export function inlineFile(content: string): string {
  const b64 = content.replace(/\s+/g, "");
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new AgentError("bad_arguments", "content is not base64 (A–Z a–z 0–9 + /, padded with =)");
  checkUploadSize(base64Size(b64));
  return b64;
}

/** The file's name: the last part of a path. */
export const fileNameOf = (path: string): string => path.split(/[\\/]/).pop() || path;

const TYPES: Record<string, string> = {
  pdf: "application/pdf", txt: "text/plain", csv: "text/csv", json: "application/json", html: "text/html",
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  doc: "application/msword", docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  zip: "application/zip", md: "text/markdown", rtf: "application/rtf", odt: "application/vnd.oasis.opendocument.text",
};

/** The MIME type a browser would give a file of this name ("" when it would not know, as a browser). */
export function mimeOf(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return TYPES[ext] ?? "";
}
