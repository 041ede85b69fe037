// Read mode: title, meta description and the main content as Markdown or text (spec 2.4).
//   fromUrl: rendered with JavaScript off first, on only when needed (needsScripts below).
//   fromCapture: the caller's `content` as is, else its `html` laid out and read.
import { OBSERVE_DEFAULT_CONTENT_LIMIT, type ObserveRequest } from "@sightline/shared/contract";
import type { Page } from "playwright-core";
import { renderUrl, type EngineName } from "../../browser/index.js";
import { EgressRefusal } from "@sightline/shared/net";
import { withCapturedHtml } from "../capture.js";
import { readContent, type ReadContent } from "../collector.js";
import { renderRequest, type ModeOutput, type ObserveCall, type ObserveDeps } from "../deps.js";
import { badCapture } from "../errors.js";

/** Least time the JavaScript pass gets, even when the first pass used up most of the budget. */
const MIN_SCRIPT_PASS_MS = 5_000;

export async function fromUrl(deps: ObserveDeps, call: ObserveCall, engine: EngineName): Promise<ModeOutput> {
  const { req } = call;
  const started = Date.now();
  // The spare the first pass used is made again once the request is done, not while the
  // JavaScript pass renders (on a small machine the two slow each other).
  let done = () => {};
  const requestDone = new Promise<void>((resolve) => (done = resolve));
  const render = (javaScript: boolean, timeoutMs: number, refillAfter?: Promise<unknown>) =>
    renderUrl(deps.pool, renderRequest(deps, call, engine, { timeoutMs, javaScript, refillAfter }), ({ page }) => readPageUnclipped(page, req));
  try {
    const plain = await render(false, deps.renderTimeoutMs, requestDone);
    if (!needsScripts(plain)) return clipReading(plain, req);
    let scripted: ReadContent;
    try {
      scripted = await render(true, Math.max(MIN_SCRIPT_PASS_MS, deps.renderTimeoutMs - (Date.now() - started)));
    } catch (err) {
      // The scripted pass failed (a script bounced the page to nowhere, a timeout): what the
      // server sent is still an answer, unless it held nothing at all.
      if (readingChars(plain) > 0 && !(err instanceof EgressRefusal)) return clipReading(plain, req);
      throw err;
    }
    return clipReading(readingChars(scripted) > readingChars(plain) ? scripted : plain, req);
  } finally {
    done();
  }
}

export async function fromCapture(deps: ObserveDeps, call: ObserveCall): Promise<ModeOutput> {
  const { req } = call;
  const c = req.capture!;
  if (typeof c.content === "string") {
    return { title: c.title ?? "", description: c.description ?? "", content: clip(c.content, contentLimitOf(req)) };
  }
  if (!(typeof c.html === "string" && c.html.length > 0)) throw badCapture("needs `content` or `html` in read mode");
  const r = await withCapturedHtml(deps.pool, call, c, deps.renderTimeoutMs, (page) => readPage(page, req));
  return { ...r, title: c.title ?? r.title, description: c.description ?? r.description };
}

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
