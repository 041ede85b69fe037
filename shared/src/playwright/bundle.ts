// The collector reaches Node code only as its built IIFE bundle (dist/collector.js), injected
// into the page with page.evaluate, which, unlike a script tag, is not blocked by the page's CSP.
import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/**
 * Where dist/collector.js is: SIGHTLINE_COLLECTOR_PATH if set, else next to this module
 * (src/playwright → ../../dist, dist/playwright → ../../dist: the same file either way).
 */
export function collectorBundlePath(): string {
  const override = process.env.SIGHTLINE_COLLECTOR_PATH;
  if (override) return override;
  return fileURLToPath(new URL("../../dist/collector.js", import.meta.url));
}

let cached: { path: string; mtimeMs: number; source: Promise<string> } | null = null;

/** The bundle's source, read once per process and again when the file changes (a rebuild). */
export async function collectorSource(path: string = collectorBundlePath()): Promise<string> {
  let mtimeMs = -1;
  try {
    mtimeMs = (await stat(path)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`Sightline collector bundle not found at ${path}; build it with: pnpm --filter @sightline/shared run build`);
    }
    throw err;
  }
  if (cached?.path !== path || cached.mtimeMs !== mtimeMs) {
    const source = readFile(path, "utf8");
    source.catch(() => {
      cached = null;
    });
    cached = { path, mtimeMs, source };
  }
  return cached.source;
}

/**
 * Injects the collector into the page's main frame, always, even when a `sightline` global is
 * there: a page could define its own to feed us made-up elements. (Evaluated over CDP, so the
 * page's CSP cannot block it. The ids survive: they live in the collector's state global.)
 */
export async function injectCollector(page: Page, bundlePath?: string): Promise<void> {
  await page.evaluate(await collectorSource(bundlePath));
}
