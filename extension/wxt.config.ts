// WXT build of the Sightline extension (Manifest V3; `wxt build -b firefox` for Firefox).
import { defineConfig } from "wxt";
import { copyFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sourceAliases } from "../shared/scripts/entry-points.mjs";

const shared = fileURLToPath(new URL("../shared/", import.meta.url));
const collectorBundle = `${shared}dist/collector.js`;
// The page agent for acting (shared/src/agent/page/), next to the collector in the same world.
const pageAgentBundle = `${shared}dist/page-agent.js`;

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
    // alarms: the agent bridge reconnects after the service worker slept. debugger: trusted
    // clicks and typing for agents, attached only to tabs the person shared, once they let an
    // agent act (Chromium cannot request it at run time: it is not an optional permission).
    // webNavigation: which tab a shared page opened (onCreatedNavigationTarget), so only those
    // join the share, never a tab the person opened beside it. downloads: the answer of an
    // agent's action that downloaded a file names it and its size (chrome.downloads events; the
    // browser downloads as it always does and opens nothing).
    permissions: ["activeTab", "scripting", "storage", "alarms", "webNavigation", "downloads", ...(browser === "firefox" ? [] : ["sidePanel", "debugger"])],
    optional_host_permissions: ["http://*/*", "https://*/*"],
    action: { default_title: "Open Sightline" },
    // Only the collector, the overlay and the page agent are injected, by the extension itself.
    web_accessible_resources: [],
    ...(browser === "firefox"
      ? { browser_specific_settings: { gecko: { id: "sightline@sightline.dev" } } }
      : {}),
  }),
  // Shared code is compiled from source, so the extension never depends on a stale dist/: every
  // entry point of shared/package.json, to its source (shared/scripts/entry-points.mjs). Which
  // of them extension code may import is the layer rule's business (test/architecture).
  alias: sourceAliases(),
  hooks: {
    // The in-page collector ships as the shared IIFE bundle, injected on demand.
    "build:done": (wxt) => {
      if (!existsSync(collectorBundle)) {
        throw new Error(
          `${collectorBundle} is missing: run \`pnpm --filter @sightline/shared run build\` first`,
        );
      }
      copyFileSync(collectorBundle, `${wxt.config.outDir}/collector.js`);
      if (!existsSync(pageAgentBundle)) throw new Error(`${pageAgentBundle} is missing: build @sightline/shared first`);
      copyFileSync(pageAgentBundle, `${wxt.config.outDir}/agent-calls.js`);
    },
  },
});
