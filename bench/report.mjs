#!/usr/bin/env node
// Writes the benchmark tables of docs/ from bench/results/*.json, so no figure in the docs is
// copied by hand. Every results file in the format bench/lib/results.mjs writes is picked up,
// whoever's bench wrote it.
//
//   node bench/report.mjs            rewrite the generated parts of docs/**/*.md
//   node bench/report.mjs --check    change nothing; exit 1 if a doc is out of date with the
//                                    results, or a marker names a results file or table that does not exist
//
// A doc asks for generated text with marker comments; everything between a marker and its end
// is replaced on each run (write prose outside them):
//
//   <!-- results:snapshot -->        ...   <!-- /results:snapshot -->
//       every table of bench/results/snapshot.json, with the run's command, date, commit and machine
//   <!-- results:snapshot#http -->   ...   <!-- /results:snapshot#http -->
//       one table (by its id) with the same provenance line
//   <!-- fig:snapshot#refine_2000_ms -->7.56<!-- /fig -->
//       one named figure inline (a dot path into `figures`; add |ratio, |percent, |int… for the
//       format, as in bench/lib/table.mjs: <!-- fig:rank#hit1|percent -->)
//   <!-- results:index -->           ...   <!-- /results:index -->
//       one row per results file: area, what it measures, command, date, load
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { RESULTS_FORMAT } from "./lib/results.mjs";
import { formatCell, markdownTable } from "./lib/table.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsDir = join(root, "bench/results");
const docsDir = join(root, "docs");
const check = process.argv.includes("--check");

/** @returns {Map<string, any>} area → parsed results file */
function loadResults() {
  const out = new Map();
  if (!existsSync(resultsDir)) return out;
  for (const name of readdirSync(resultsDir).filter((n) => n.endsWith(".json")).sort()) {
    const data = JSON.parse(readFileSync(join(resultsDir, name), "utf8"));
    const major = RESULTS_FORMAT.split("/")[0];
    if (typeof data.format !== "string" || !data.format.startsWith(`${major}/`)) {
      console.warn(`skipped bench/results/${name}: not a ${major} file`);
      continue;
    }
    out.set(name.slice(0, -".json".length), data);
  }
  return out;
}

/** @returns {string[]} every Markdown file under docs/ */
function docFiles(dir = docsDir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) docFiles(p, out);
    else if (name.endsWith(".md")) out.push(p);
  }
  return out;
}

const day = (iso) => iso.slice(0, 16).replace("T", " ") + " UTC";

/** One line saying how and where a results file's figures were measured. */
function provenance(r) {
  const load = r.machine?.load_average?.during;
  const loadText = load ? (load.min === load.max ? `load average ${load.min}` : `load average ${load.min}–${load.max}`) : "load not recorded";
  const commit = r.commit ? `commit \`${r.commit}\`${r.dirty ? " with local changes" : ""}` : "commit unknown";
  const machine = `${r.machine?.cores ?? "?"} cores (${r.machine?.cpu ?? "unknown CPU"}), ${loadText}`;
  return `_\`${r.command}\` · ${day(r.date)} · ${commit} · ${machine}${r.quick ? " · quick run" : ""}_`;
}

function renderTable(t, heading) {
  const parts = [];
  if (heading && t.title) parts.push(`**${t.title}**`);
  parts.push(markdownTable(t.columns, t.rows));
  if (t.note) parts.push(t.note);
  return parts.join("\n\n");
}

/**
 * One marker's text. `seen`: the areas whose provenance line this doc already showed: a later
 * table of the same run says so in a short line instead of repeating it.
 */
function renderArea(r, tableId, seen) {
  const origin = seen.has(r.area) ? `_Same run: \`bench/results/${r.area}.json\`._` : provenance(r);
  seen.add(r.area);
  if (tableId) {
    const t = r.tables.find((x) => x.id === tableId);
    if (!t) throw new Error(`bench/results/${r.area}.json has no table "${tableId}" (it has: ${r.tables.map((x) => x.id).join(", ")})`);
    return [origin, renderTable(t, false)].join("\n\n");
  }
  const parts = [origin, ...r.tables.map((t) => renderTable(t, true))];
  if (r.notes?.length) parts.push(r.notes.map((n) => `- ${n}`).join("\n"));
  return parts.join("\n\n");
}

function renderIndex(results) {
  const rows = [...results.values()].map((r) => {
    const load = r.machine?.load_average?.during;
    return [`\`bench/results/${r.area}.json\``, r.title, `\`${r.command}\``, day(r.date), load ? `${load.min}–${load.max}` : null];
  });
  return markdownTable(["file", "what", "command", "date", "load average"], rows);
}

function figureOf(results, spec) {
  const [ref, format] = spec.split("|");
  const [area, path] = ref.split("#");
  const r = results.get(area);
  if (!r) throw new Error(`no bench/results/${area}.json`);
  let v = r.figures;
  for (const k of path.split(".")) v = v?.[k];
  if (v === undefined) throw new Error(`bench/results/${area}.json has no figure "${path}"`);
  return formatCell(/** @type {any} */ (v), /** @type {any} */ (format || "auto"));
}

const BLOCK = /(<!-- results:([a-z0-9-]+)(?:#([\w-]+))? -->)[\s\S]*?(<!-- \/results:\2(?:#\3)? -->)/g;
const INLINE = /(<!-- fig:([^ ]+) -->)[\s\S]*?(<!-- \/fig -->)/g;

const results = loadResults();
const used = new Set();
const problems = [];
let stale = 0;

/** The Markdown `text` of doc `rel` with its markers filled from the results. */
function render(text, rel, seen) {
  return text
    .replace(BLOCK, (whole, open, area, tableId, close) => {
      try {
        if (area === "index") return `${open}\n${renderIndex(results)}\n${close}`;
        const r = results.get(area);
        if (!r) throw new Error(`no bench/results/${area}.json`);
        used.add(area);
        return `${open}\n${renderArea(r, tableId, seen)}\n${close}`;
      } catch (e) {
        problems.push(`${rel}: ${e.message}`);
        return whole;
      }
    })
    .replace(INLINE, (whole, open, spec, close) => {
      try {
        used.add(spec.split("#")[0]);
        return `${open}${figureOf(results, spec)}${close}`;
      } catch (e) {
        problems.push(`${rel}: ${e.message}`);
        return whole;
      }
    });
}

for (const file of docFiles()) {
  const rel = relative(root, file);
  const before = readFileSync(file, "utf8");
  // Markers inside fenced code blocks are examples (docs/development.md shows them): left alone.
  const seen = new Set();
  const after = before
    .split(/(^```[^\n]*\n[\s\S]*?^```)/m)
    .map((part) => (part.startsWith("```") ? part : render(part, rel, seen)))
    .join("");
  if (after !== before) {
    stale++;
    if (check) console.log(`out of date: ${rel}`);
    else {
      writeFileSync(file, after);
      console.log(`wrote ${rel}`);
    }
  }
}
for (const area of results.keys()) if (!used.has(area)) console.log(`note: bench/results/${area}.json is in no doc except the index (add <!-- results:${area} --> where it belongs)`);
for (const p of problems) console.error(p);
if (problems.length || (check && stale)) process.exitCode = 1;
else if (!stale) console.log("docs up to date with bench/results");
