// docs/mcp.md's tool table, made from the definitions (shared/scripts/mcp-tools-doc.mjs writes
// it; a test checks the docs are current).
import type { ToolDefinition } from "./define.js";
import { REST_TWIN, type PriceList } from "./prices.js";

/** "`id`, `text`, `submit?`" from an input shape (the tab every tool takes is left out). */
function argsOf(def: ToolDefinition): string {
  const names = Object.entries(def.input)
    .filter(([name]) => name !== "tab")
    .map(([name, schema]) => `\`${name}${(schema as unknown as { isOptional(): boolean }).isOptional() ? "?" : ""}\``);
  return names.length ? names.join(", ") : "–";
}

function costOf(def: ToolDefinition, prices: PriceList): string {
  const n = def.billable ? prices[def.billable] : 0;
  if (!def.billable || n === 0) return def.billable === "read" ? "free (it runs in the tab)" : "free";
  const [twin, why] = REST_TWIN[def.billable].split(" (");
  return `${n} credit${n === 1 ? "" : "s"}, like \`${twin}\`${why ? ` (${why}` : ""}`;
}

/** The Markdown table: tool, arguments, answers, cost with `prices` (the server's). */
export function toolTable(tools: readonly ToolDefinition[], prices: PriceList): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.docArgs ?? argsOf(t)} | ${t.docAnswers} | ${costOf(t, prices)} |`);
  return ["| tool | arguments | answers | cost on the server |", "|---|---|---|---|", ...rows].join("\n");
}
