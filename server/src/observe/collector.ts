// The in-page collector bundle (shared/dist/collector.js) as the server uses it: injected into
// a rendered page (the SDK's injector, shared/src/playwright/bundle.ts: one for both), then
// asked for a /v1/snapshot body (collectJSON) or the readable content.
import type { Page } from "playwright-core";
import { injectCollector } from "@sightline/shared/playwright";
import { PAGE_TYPES, type PageType, type ReadFormat, type SnapshotRequest } from "@sightline/shared/contract";

export interface ReadContent {
  title: string;
  description: string;
  content: string;
  /** Sightline addition: the kind of page the collector took this for (absent for a caller's own `content`). */
  page_type?: PageType;
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
  // A page rendered with its scripts off still holds React's streamed parts hidden: they are put
  // in place first (collector/read/streamed.ts); where the scripts ran, nothing is left to do.
  const json = (await page.evaluate(
    `(globalThis.sightline.revealStreamed(), globalThis.sightline.read(${opts})).then((r) => JSON.stringify(r))`,
  )) as string;
  const r = JSON.parse(json) as Partial<Record<keyof ReadContent, unknown>>;
  // The page can reach the collector's global: nothing it answers is trusted as typed.
  const pageType = PAGE_TYPES.find((t) => t === r.page_type);
  return {
    title: typeof r.title === "string" ? r.title : "",
    description: typeof r.description === "string" ? r.description : "",
    content: typeof r.content === "string" ? r.content : "",
    ...(pageType ? { page_type: pageType } : {}),
  };
}
