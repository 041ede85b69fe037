// The in-page collector bundle (shared/dist/collector.js) as the server uses it: injected into
// Sightline's isolated world of a rendered page (the SDK's, shared/src/playwright/world.ts: one
// for both; the page's scripts cannot reach or replace it), then asked for a /v1/snapshot body
// (collectJSON) or the readable content.
import type { Page } from "playwright-core";
import { SightlineWorld, collectorScript, tracksListeners } from "@sightline/shared/playwright";
import { PAGE_TYPES, type PageType, type ReadFormat, type SnapshotRequest } from "@sightline/shared/contract";

export interface ReadContent {
  title: string;
  description: string;
  content: string;
  /** Sightline addition: the kind of page the collector took this for (absent for a caller's own `content`). */
  page_type?: PageType;
}

const COLLECT = "(o) => globalThis.sightline.collectJSON(o)";
const READ = "(o) => (globalThis.sightline.revealStreamed(), globalThis.sightline.read(o)).then((r) => JSON.stringify(r))";

/** The page as a /v1/snapshot request body. One JSON string crosses the CDP boundary. */
export async function collectSnapshot(page: Page, maxElements?: number): Promise<SnapshotRequest> {
  // Renders with scripts on record click listeners in the page's world (browser/render.ts).
  const opts = { ...(maxElements ? { maxElements } : {}), ...(tracksListeners(page) ? { pageListeners: true } : {}) };
  const json = await SightlineWorld.of(page).call<string>(COLLECT, [opts], [collectorScript()]);
  return JSON.parse(json) as SnapshotRequest;
}

/** Title, description and main content of the page, as Markdown or text. */
export async function readContent(page: Page, format: ReadFormat, contentLimit: number): Promise<ReadContent> {
  // A page rendered with its scripts off still holds React's streamed parts hidden: they are put
  // in place first (collector/read/streamed.ts); where the scripts ran, nothing is left to do.
  const json = await SightlineWorld.of(page).call<string>(READ, [{ format, contentLimit }], [collectorScript()]);
  const r = JSON.parse(json) as Partial<Record<keyof ReadContent, unknown>>;
  // Checked as typed all the same: a bundle of another version may answer another shape.
  const pageType = PAGE_TYPES.find((t) => t === r.page_type);
  return {
    title: typeof r.title === "string" ? r.title : "",
    description: typeof r.description === "string" ? r.description : "",
    content: typeof r.content === "string" ? r.content : "",
    ...(pageType ? { page_type: pageType } : {}),
  };
}
