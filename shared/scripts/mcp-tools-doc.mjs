// Writes docs/mcp.md's tool table from the tool definitions (shared/src/agent/tools/), between
// its <!-- tools:table --> markers: `npm run docs:mcp` after adding or changing a tool.
// shared/test/agent/tools-doc.test.ts fails while the docs are not current.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const { TOOLS, toolTable, API_PRICES } = await import("../dist/agent/tools/index.js");
const doc = fileURLToPath(new URL("../../docs/mcp.md", import.meta.url));
export const OPEN = "<!-- tools:table (generated from shared/src/agent/tools/ by npm run docs:mcp) -->";
export const CLOSE = "<!-- /tools:table -->";

const text = readFileSync(doc, "utf8");
const start = text.indexOf(OPEN);
const end = text.indexOf(CLOSE);
if (start < 0 || end < start) throw new Error(`docs/mcp.md has no ${OPEN} … ${CLOSE} section`);
const next = `${text.slice(0, start + OPEN.length)}\n${toolTable(TOOLS, API_PRICES)}\n${text.slice(end)}`;
if (next !== text) writeFileSync(doc, next);
console.log(next === text ? "docs/mcp.md: the tool table is current" : "docs/mcp.md: tool table written");
