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
