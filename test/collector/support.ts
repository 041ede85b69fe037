// Helpers for the collector's browser tests: a fresh bundle, one page per fixture, and
// collect()/read() run inside the page (their JSON string moved out, as production does).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import type { CollectResult, ReadResult } from "@sightline/shared/collector";
import type { RawElement } from "@sightline/shared/contract";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURES = `${root}test/fixtures/pages`;

let bundle: string | null = null;

/** Builds shared/dist/collector.js from source once per test process and returns it. */
export function collectorBundle(): string {
  if (bundle === null) {
    execFileSync(process.execPath, [`${root}shared/scripts/build-collector.mjs`], { stdio: "inherit" });
    bundle = readFileSync(`${root}shared/dist/collector.js`, "utf8");
  }
  return bundle;
}

export async function inject(page: Page): Promise<void> {
  const has = await page.evaluate(() => Boolean((globalThis as { sightline?: unknown }).sightline));
  if (!has) await page.addScriptTag({ content: collectorBundle() });
}

export async function collectIn(page: Page, options: Record<string, unknown> = {}): Promise<CollectResult> {
  await inject(page);
  const json = await page.evaluate(
    (o) => (globalThis as unknown as { sightline: { collectJSON(o: unknown): Promise<string> } }).sightline.collectJSON(o),
    options,
  );
  return JSON.parse(json) as CollectResult;
}

export async function readIn(page: Page, options: Record<string, unknown> = {}): Promise<ReadResult> {
  await inject(page);
  return page.evaluate(
    (o) => (globalThis as unknown as { sightline: { read(o: unknown): Promise<ReadResult> } }).sightline.read(o),
    options,
  );
}

/** All raw elements, frames flattened. */
export function flatten(list: RawElement[]): RawElement[] {
  const out: RawElement[] = [];
  for (const e of list) {
    out.push(e);
    if (e.iframe_content?.length) out.push(...flatten(e.iframe_content as RawElement[]));
  }
  return out;
}

export function byDomId(body: CollectResult, id: string): RawElement | undefined {
  return flatten(body.raw_elements).find((e) => e.attributes?.id === id);
}

/** The element's live box in the top viewport, measured by the test itself. */
export async function boxOf(page: Page, selector: string) {
  const r = await page.locator(selector).boundingBox();
  if (!r) throw new Error(`no box for ${selector}`);
  return r;
}

/** One Chromium and one fixture server per test file, with a 1280x900 page open. */
export interface FixturePage {
  browser: Browser;
  server: StaticServer;
  page: Page;
  close(): Promise<void>;
}

export async function openFixturePage(): Promise<FixturePage> {
  const [browser, server] = await Promise.all([launchChromium(), serveStatic(FIXTURES)]);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  return { browser, server, page, close: async () => void (await Promise.all([browser.close(), server.close()])) };
}

/**
 * One browser page and fixture server for the whole test file: registers the beforeAll/afterAll
 * hooks (optionally opening `path` first) and returns live handles to use inside tests.
 */
export function useFixturePage(path?: string): Readonly<Pick<FixturePage, "page" | "server">> {
  let fixture: FixturePage | undefined;
  beforeAll(async () => {
    fixture = await openFixturePage();
    if (path) await fixture.page.goto(fixture.server.url(path));
  });
  afterAll(() => fixture?.close());
  const opened = () => {
    if (!fixture) throw new Error("useFixturePage: the page is open only inside tests");
    return fixture;
  };
  return {
    get page() {
      return opened().page;
    },
    get server() {
      return opened().server;
    },
  };
}
