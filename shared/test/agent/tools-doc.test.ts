// docs/mcp.md's tool table is generated from the tool definitions (npm run docs:mcp): it must
// say what the tools are, take and cost.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_PRICES, TOOLS, toolTable } from "@sightline/shared/agent";

const doc = readFileSync(fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url)), "utf8");

describe("docs/mcp.md tool table", () => {
  it("is the table the definitions make (run npm run docs:mcp after changing a tool)", () => {
    const open = doc.indexOf("<!-- tools:table");
    const close = doc.indexOf("<!-- /tools:table -->");
    expect(open, "docs/mcp.md has no tools:table section").toBeGreaterThanOrEqual(0);
    const section = doc.slice(doc.indexOf("\n", open) + 1, close).trim();
    expect(section).toBe(toolTable(TOOLS, API_PRICES));
  });

  it("lists every tool once, by the names clients call", () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(["tabs", "snapshot", "read", "screenshot", "click", "type", "select", "press", "scroll", "navigate", "back", "wait", "hover", "drag", "fill_form", "dialog", "forward", "upload", "find", "tab_open", "tab_select", "tab_close"]);
  });
});
