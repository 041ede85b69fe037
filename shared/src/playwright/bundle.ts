// The collector reaches Node code only as its built IIFE bundle (dist/collector.js), injected
// over CDP into Sightline's isolated world of the page (world.ts), which, unlike a script tag,
// the page's CSP does not block and the page's scripts cannot reach.
import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { SightlineWorld, type WorldScript } from "./world.js";

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

/** The collector bundle as a script of Sightline's world (injected once per document). */
export function collectorScript(bundlePath?: string): WorldScript {
  return { key: "collector", source: () => collectorSource(bundlePath) };
}

/**
 * Injects the collector into Sightline's isolated world of the page's main frame (once per
 * document, again when the bundle changed): `globalThis.sightline` there, out of the page's
 * reach, whatever globals the page defines. The ids survive: they live in the collector's state
 * global of that world. Call it with `SightlineWorld.of(page).call(...)`, not page.evaluate
 * (the page's own world has no collector).
 */
export async function injectCollector(page: Page, bundlePath?: string): Promise<void> {
  await SightlineWorld.of(page).inject([collectorScript(bundlePath)]);
}
