// The in-page collector bundle (shared/dist/collector.js) as the server uses it: injected into
// a rendered page, then asked for a /v1/snapshot body (collectJSON) or the readable content.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { ReadFormat, SnapshotRequest } from "@sightline/shared/contract";

const require = createRequire(import.meta.url);

let cached: { path: string; mtimeMs: number; source: string } | null = null;

/** The bundle's source, re-read when the file changes (a rebuild during development). */
export function collectorSource(): string {
  const path = require.resolve("@sightline/shared/collector.js");
  const { mtimeMs } = statSync(path);
  if (!cached || cached.path !== path || cached.mtimeMs !== mtimeMs) {
    cached = { path, mtimeMs, source: readFileSync(path, "utf8") };
  }
  return cached.source;
}

export interface ReadContent {
  title: string;
  description: string;
  content: string;
}

/**
 * Injects the bundle (evaluated over CDP, so the page's CSP cannot block it). Always, even when
 * `sightline` is already defined: a page could define its own to feed us made-up elements.
 */
export async function injectCollector(page: Page): Promise<void> {
  await page.evaluate(collectorSource());
}

/** The page as a /v1/snapshot request body. One JSON string crosses the CDP boundary. */
export async function collectSnapshot(page: Page, maxElements?: number): Promise<SnapshotRequest> {
  await injectCollector(page);
  const opts = JSON.stringify(maxElements ? { maxElements } : {});
  const json = (await page.evaluate(`globalThis.sightline.collectJSON(${opts})`)) as string;
  return JSON.parse(json) as SnapshotRequest;
}

/** Title, description and main content of the page, as Markdown or text. */
export async function readContent(page: Page, format: ReadFormat, contentLimit: number): Promise<ReadContent> {
  await injectCollector(page);
  const opts = JSON.stringify({ format, contentLimit });
  const json = (await page.evaluate(`globalThis.sightline.read(${opts}).then((r) => JSON.stringify(r))`)) as string;
  const r = JSON.parse(json) as Partial<ReadContent>;
  return {
    title: typeof r.title === "string" ? r.title : "",
    description: typeof r.description === "string" ? r.description : "",
    content: typeof r.content === "string" ? r.content : "",
  };
}
