// Bundles the in-page collector into one self-contained IIFE (dist/collector.js) that defines
// globalThis.sightline when injected into any page (Playwright addScriptTag/evaluate, extension).
import { build } from "esbuild";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const entry = `${root}src/collector/bundle.ts`;
if (!existsSync(entry)) {
  console.warn("build-collector: src/collector/bundle.ts not there yet; skipped");
  process.exit(0);
}
/** One self-contained IIFE for the browser: what is injected into pages. */
const iife = (entry, outfile) =>
  build({ entryPoints: [entry], outfile, bundle: true, format: "iife", platform: "browser", target: "chrome110", minify: true, legalComments: "none", logLevel: "warning" });

await iife(entry, `${root}dist/collector.js`);

// The page agent (shared/src/agent/page): what acting on a page needs inside it, injected into
// the same world as the collector (dist/page-agent.js).
await iife(`${root}src/agent/page/bundle.ts`, `${root}dist/page-agent.js`);
