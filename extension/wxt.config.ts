// WXT build of the Sightline extension (Manifest V3; `wxt build -b firefox` for Firefox).
import { defineConfig } from "wxt";
import { copyFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const shared = fileURLToPath(new URL("../shared/", import.meta.url));
const collectorBundle = `${shared}dist/collector.js`;

export default defineConfig({
  srcDir: ".",
  entrypointsDir: "entrypoints",
  outDir: ".output",
  // MV3 everywhere (WXT would default Firefox to MV2).
  manifestVersion: 3,
  // No dev server, no browser download: only `wxt build` is used.
  webExt: { disabled: true },
  manifest: ({ browser }) => ({
    name: "Sightline",
    description: "See the page the way your agent sees it: ranked elements, Markdown, set-of-mark screenshots.",
    // activeTab + scripting: the page is read only when the user asks, in the tab they asked on.
    // No host permissions at install; the backend origin may be granted at runtime.
    permissions: ["activeTab", "scripting", "storage", ...(browser === "firefox" ? [] : ["sidePanel"])],
    optional_host_permissions: ["http://*/*", "https://*/*"],
    action: { default_title: "Open Sightline" },
    // Only the collector and the overlay agent are injected, by the extension itself.
    web_accessible_resources: [],
    ...(browser === "firefox"
      ? { browser_specific_settings: { gecko: { id: "sightline@sightline.dev" } } }
      : {}),
  }),
  alias: {
    // Shared code is compiled from source, so the extension never depends on a stale dist/.
    "@sightline/shared/contract": `${shared}src/contract/index.ts`,
    "@sightline/shared/refine": `${shared}src/refine/index.ts`,
    "@sightline/shared/rank": `${shared}src/rank/index.ts`,
    "@sightline/shared/prompt": `${shared}src/prompt/index.ts`,
    "@sightline/shared/client": `${shared}src/client/index.ts`,
    "@sightline/shared/overlay": `${shared}src/overlay/index.ts`,
  },
  hooks: {
    // The in-page collector ships as the shared IIFE bundle, injected on demand.
    "build:done": (wxt) => {
      if (!existsSync(collectorBundle)) {
        throw new Error(
          `${collectorBundle} is missing: run \`pnpm --filter @sightline/shared run build\` first`,
        );
      }
      copyFileSync(collectorBundle, `${wxt.config.outDir}/collector.js`);
    },
  },
});
