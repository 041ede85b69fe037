// WXT build of the Sightline extension (Manifest V3; `wxt build -b firefox` for Firefox).
import { defineConfig } from "wxt";
import { copyFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const shared = fileURLToPath(new URL("../shared/", import.meta.url));
const collectorBundle = `${shared}dist/collector.js`;
// The page agent for acting (shared/src/page-agent), next to the collector in the same world.
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
    // join the share, never a tab the person opened beside it.
    permissions: ["activeTab", "scripting", "storage", "alarms", "webNavigation", ...(browser === "firefox" ? [] : ["sidePanel", "debugger"])],
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
    "@sightline/shared/agent": `${shared}src/agent/index.ts`,
    // The service worker's subset (no AgentSession, no tokenizer).
    "@sightline/shared/agent-core": `${shared}src/agent/core.ts`,
    "@sightline/shared/bridge": `${shared}src/bridge/index.ts`,
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
      if (!existsSync(pageAgentBundle)) throw new Error(`${pageAgentBundle} is missing: build @sightline/shared first`);
      copyFileSync(pageAgentBundle, `${wxt.config.outDir}/agent-calls.js`);
    },
  },
});
