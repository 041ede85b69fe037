// Read mode: title, meta description and the main content as Markdown or text (spec 2.4).
import { OBSERVE_DEFAULT_CONTENT_LIMIT, type ObserveRequest } from "@sightline/shared/contract";
import type { Page } from "playwright-core";
import { readContent, type ReadContent } from "../collector.js";

export function contentLimitOf(req: ObserveRequest): number {
  return req.options?.contentLimit ?? OBSERVE_DEFAULT_CONTENT_LIMIT;
}

/** Cuts to `limit` characters without splitting a surrogate pair (spec 4.1 rule 6). */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const c = text.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

export async function readPage(page: Page, req: ObserveRequest): Promise<ReadContent> {
  const limit = contentLimitOf(req);
  const r = await readContent(page, req.format ?? "markdown", limit);
  return { ...r, content: clip(r.content, limit) };
}

/**
 * JavaScript-off-first rule (read mode on a URL). The page is first rendered with its scripts
 * off: that is what the server sent, it is faster and deterministic, and no script can replace
 * the article, bounce the page elsewhere or draw an interstitial over it. Only when that
 * reading holds too little main content — under MIN_STATIC_CHARS characters of text, or a
 * short "please enable JavaScript" app shell — is the page rendered again with JavaScript on
 * and read again; the longer of the two readings wins.
 */
export const MIN_STATIC_CHARS = 250;
const SHELL_MAX_CHARS = 1500;
const NEEDS_SCRIPT = /\b(?:enable|turn on|activate|requires?|needs?)\b[^.\n]{0,40}\bjavascript\b|\bjavascript\b[^.\n]{0,30}\b(?:disabled|required|is off|not enabled)\b/i;

/** Text length of a reading, whitespace squashed (Markdown marks count; they are few). */
export function readingChars(r: ReadContent): number {
  return r.content.replace(/\s+/g, " ").trim().length;
}

export function needsScripts(r: ReadContent): boolean {
  const n = readingChars(r);
  return n < MIN_STATIC_CHARS || (n < SHELL_MAX_CHARS && NEEDS_SCRIPT.test(r.content));
}

/** Reads the page without clipping below what `needsScripts` must see; clip afterwards. */
export async function readPageUnclipped(page: Page, req: ObserveRequest): Promise<ReadContent> {
  return readContent(page, req.format ?? "markdown", Math.max(contentLimitOf(req), SHELL_MAX_CHARS));
}

export function clipReading(r: ReadContent, req: ObserveRequest): ReadContent {
  return { ...r, content: clip(r.content, contentLimitOf(req)) };
}
