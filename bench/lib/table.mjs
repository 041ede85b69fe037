// One way to turn a bench's figures into Markdown: benches print their tables with it and
// bench/report.mjs writes the same tables into docs/, so the console and the docs agree.

/**
 * How a column's numbers are written:
 *   "auto" (default)  three significant figures (0.92, 9.82, 41.6, 185), integers as 1,234
 *   "int"             rounded, with thousands separators
 *   "ratio"           2.31× (1.5× from 10 up)
 *   "percent"         a fraction 0–1 written as 96.1%
 *   "fixed1" / "fixed2" / "fixed3"   that many decimals
 * Strings are written as they are, null or NaN as "-".
 * @typedef {"auto" | "int" | "ratio" | "percent" | "fixed1" | "fixed2" | "fixed3"} CellFormat
 * @typedef {string | { label: string, format?: CellFormat }} Column
 * @typedef {string | number | null} Cell
 * @typedef {{ id: string, title?: string, columns: Column[], rows: Cell[][], note?: string }} Table
 */

const int = (x) => Math.round(x).toLocaleString("en-US");

/**
 * @param {Cell} value
 * @param {CellFormat} [format]
 * @returns {string}
 */
export function formatCell(value, format = "auto") {
  if (value === null || value === undefined || (typeof value === "number" && !Number.isFinite(value))) return "-";
  if (typeof value !== "number") return String(value);
  switch (format) {
    case "int":
      return int(value);
    case "ratio":
      return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×`;
    case "percent":
      return `${(value * 100).toFixed(1)}%`;
    case "fixed1":
      return value.toFixed(1);
    case "fixed2":
      return value.toFixed(2);
    case "fixed3":
      return value.toFixed(3);
    default: {
      if (Number.isInteger(value)) return int(value);
      const a = Math.abs(value);
      if (a >= 1000) return int(value);
      if (a >= 100) return value.toFixed(0);
      if (a >= 10) return value.toFixed(1);
      if (a >= 0.1) return value.toFixed(2);
      return value.toPrecision(2);
    }
  }
}

/**
 * @param {Column} c
 * @returns {{ label: string, format: CellFormat }}
 */
const columnOf = (c) => (typeof c === "string" ? { label: c, format: "auto" } : { label: c.label, format: c.format ?? "auto" });

/** Pipes inside a cell would end it early. */
const escape = (s) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/**
 * A GitHub-flavoured Markdown table (no title, no note).
 * @param {Column[]} columns
 * @param {Cell[][]} rows
 * @returns {string}
 */
export function markdownTable(columns, rows) {
  const cols = columns.map(columnOf);
  const lines = [`| ${cols.map((c) => escape(c.label)).join(" | ")} |`, `|${cols.map(() => "---").join("|")}|`];
  for (const row of rows) lines.push(`| ${cols.map((c, i) => escape(formatCell(row[i] ?? null, c.format))).join(" | ")} |`);
  return lines.join("\n");
}
