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
  // The agent stack: isomorphic but for its two ends, the Playwright backend (Node) and the
  // in-page agent (browser, shipped as dist/page-agent.js).
  "shared/src/agent/": "isomorphic",
  "shared/src/agent/backends/headless/": "node",
  "shared/src/agent/page/": "browser",
  "shared/src/collector/": "browser",
  "shared/src/overlay/": "browser",
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
  // A package name allows all of it; a module path (package/sub/path.js) only that module. The
  // MCP SDK's server (McpServer over the transport-free Protocol) runs anywhere; its stdio and
  // HTTP transports are Node's and stay in Node folders (shared/src/mcp/, server/).
  isomorphic: ["zod", "gpt-tokenizer", "stemmer", "synonyms", "@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/types.js"],
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
