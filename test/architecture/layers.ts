// The three kinds of code and who may import whom (like Playwright's DEPS.list for its
// injected scripts). Browser code reaches Node only as the built IIFE bundle, never by import.
export type Layer = "isomorphic" | "browser" | "node";

/** Folder prefix (relative to the repo root) → layer. Longest prefix wins. */
export const LAYERS: Record<string, Layer> = {
  "shared/src/index.ts": "isomorphic",
  "shared/src/contract/": "isomorphic",
  "shared/src/refine/": "isomorphic",
  "shared/src/rank/": "isomorphic",
  "shared/src/prompt/": "isomorphic",
  "shared/src/client/": "isomorphic",
  "shared/src/agent/": "isomorphic",
  "shared/src/bridge/": "isomorphic",
  "shared/src/collector/": "browser",
  "shared/src/overlay/": "browser",
  "shared/src/page-agent/": "browser",
  "extension/entrypoints/": "browser",
  "extension/src/": "browser",
  "shared/src/playwright/": "node",
  "shared/src/cli/": "node",
  "shared/src/mcp/": "node",
  "shared/src/net/": "node",
  "shared/scripts/": "node",
  "shared/rank-training/": "node",
  "shared/read-training/": "node",
  "server/src/": "node",
  "server/scripts/": "node",
  "bench/": "node",
};

/** Which layers a file of each layer may import. */
export const MAY_IMPORT: Record<Layer, Layer[]> = {
  isomorphic: ["isomorphic"],
  browser: ["browser", "isomorphic"],
  node: ["node", "isomorphic"],
};

/**
 * npm packages each layer may use. Isomorphic and browser code ship to the extension and into
 * pages, so their dependencies are listed one by one; Node code may use any package.
 */
export const PACKAGES: Record<Exclude<Layer, "node">, string[]> = {
  isomorphic: ["zod", "gpt-tokenizer", "stemmer", "synonyms"],
  browser: [
    "zod",
    "dom-accessibility-api",
    "@mozilla/readability",
    "turndown",
    "@joplin/turndown-plugin-gfm",
    "html-to-image",
    "webextension-polyfill",
    "wxt",
    "#imports",
  ],
};
