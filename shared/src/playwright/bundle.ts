// The collector reaches Node code only as its built IIFE bundle (dist/collector.js), injected
// into the page with page.evaluate, which, unlike a script tag, is not blocked by the page's CSP.
import { readFile } from "node:fs/promises";
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

let cached: { path: string; source: Promise<string> } | null = null;

/** The bundle's source, read once per process. */
export function collectorSource(path: string = collectorBundlePath()): Promise<string> {
  if (cached?.path !== path) {
    const source = readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
      cached = null;
      if (err.code === "ENOENT") {
        throw new Error(`Sightline collector bundle not found at ${path}; build it with: pnpm --filter @sightline/shared run build`);
      }
      throw err;
    });
    cached = { path, source };
  }
  return cached.source;
}

/** Injects the collector into the page's main frame unless it is already there. */
export async function injectCollector(page: Page, bundlePath?: string): Promise<void> {
  const present = await page.evaluate(() => {
    const s = (globalThis as { sightline?: { collectJSON?: unknown } }).sightline;
    return typeof s?.collectJSON === "function";
  });
  if (present) return;
  const source = await collectorSource(bundlePath);
  await page.evaluate(source);
}
