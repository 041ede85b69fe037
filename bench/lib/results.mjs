// Every bench's results as data: bench/results/<area>.json, which bench/report.mjs turns into
// the tables of docs/performance.md and docs/quality.md (so no figure in the docs is typed by
// hand). One file per area, replaced by each run; what a run changed goes to bench/HISTORY.md.
//
// Usage (from a .mjs bench, or a .ts one run by tsx):
//
//   import { startRun } from "../lib/results.mjs";
//   const run = startRun("observe", { title: "Observe latency and throughput" }); // first: the load before the work
//   ...measure...
//   run.table({ id: "latency", title: "Warm latency", columns: ["request", { label: "ms", format: "auto" }, { label: "on / off", format: "ratio" }],
//               rows: [["read, article", 459.2, 0.72]] });   // printed now as Markdown, recorded for the docs
//   run.figure("read_warm_ms", 459.2);                    // a named number, for a sentence in the docs or other tools
//   run.note("pages served on loopback");                 // a line printed under the tables in the docs
//   run.write();                                          // last: writes bench/results/observe.json
//
// The file says what was run and where: the command (worked out from how the bench was started,
// BENCH_* variables included; pass `command` to startRun to say it yourself), the commit (and
// whether tracked code differed from it), the date, the duration, and the machine: cores, CPU,
// memory, Node, and the 1-minute load average sampled every 5 s while the bench ran (this
// machine is shared: a loaded run is still a result, the load says how to read it).
// BENCH_RESULTS=0 runs without writing (an A/B of two builds that should not replace the
// docs' figures); BENCH_RESULTS_DIR=DIR writes there instead of bench/results.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { markdownTable } from "./table.mjs";
import { mean } from "./stats.mjs";

/** The results format's name and version; bench/report.mjs reads files that carry it. */
export const RESULTS_FORMAT = "sightline-bench-results/1";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** @param {string[]} args */
function git(args) {
  try {
    return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The commit measured, and whether tracked code (not results or docs) differed from it. */
function commitInfo() {
  const commit = git(["rev-parse", "--short=12", "HEAD"]);
  const changes = git(["status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results", ":(exclude)*.md"]);
  return { commit, dirty: changes === null ? null : changes.length > 0 };
}

const shellWord = (s) => (/^[\w./:=@%+,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/** How this process was started, as a command a person can run again from the repo root. */
function commandOf() {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_") && k !== "BENCH_RESULTS" && k !== "BENCH_RESULTS_DIR")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${shellWord(v ?? "")}`);
  const args = process.argv.slice(2).map(shellWord);
  // npm sets npm_lifecycle_event for the script it runs (pnpm exec passes it on).
  const event = process.env.npm_lifecycle_event;
  const script = relative(root, process.argv[1] ?? "");
  const main =
    event && event.startsWith("bench")
      ? ["npm", "run", event, ...(args.length ? ["--", ...args] : [])]
      : script.endsWith(".ts")
        ? ["pnpm", "--dir", "bench", "exec", "tsx", relative("bench", script), ...args] // TypeScript benches run by tsx from bench/
        : ["node", script, ...args];
  return [...env, ...main].join(" ");
}

/** Cores, CPU, memory, kernel and Node of this machine. */
export function machineInfo() {
  const list = cpus();
  return {
    cores: list.length,
    cpu: list[0]?.model?.trim() ?? "unknown",
    memory_gib: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform} ${release()}`,
    node: process.version,
  };
}

const round2 = (x) => Math.round(x * 100) / 100;

/**
 * JSON with two-space indents, but an array of plain values (a table row) or a small object of
 * plain values (a column) on one line, so a results file reads and diffs row by row.
 * @param {unknown} value
 * @returns {string}
 */
export function stringifyResults(value, indent = "") {
  const flat = value !== null && typeof value === "object" && Object.values(value).every((v) => v === null || typeof v !== "object");
  if (flat && (Array.isArray(value) || JSON.stringify(value).length <= 100)) return JSON.stringify(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((v) => `${inner}${stringifyResults(v, inner)}`)
    : Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stringifyResults(v, inner)}`);
  if (!entries.length) return Array.isArray(value) ? "[]" : "{}";
  return Array.isArray(value) ? `[\n${entries.join(",\n")}\n${indent}]` : `{\n${entries.join(",\n")}\n${indent}}`;
}

/**
 * Starts recording one bench run of `area` (the file name: lower case, digits and dashes).
 * @param {string} area
 * @param {{ title?: string, command?: string, quick?: boolean }} [options]
 */
export function startRun(area, options = {}) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(area)) throw new Error(`bench area "${area}": use lower case, digits and dashes`);
  const started = new Date();
  const loadStart = loadavg().map(round2);
  const samples = [loadStart[0]];
  const timer = setInterval(() => samples.push(round2(loadavg()[0])), 5000);
  timer.unref();
  /** @type {import("./table.mjs").Table[]} */
  const tables = [];
  /** @type {Record<string, unknown>} */
  const figures = {};
  /** @type {string[]} */
  const notes = [];
  /** @type {Record<string, unknown>} */
  const extra = {};
  return {
    /**
     * Records a table and prints it (title, Markdown, note) on stdout.
     * @param {import("./table.mjs").Table} t
     */
    table(t) {
      if (tables.some((x) => x.id === t.id)) throw new Error(`table id "${t.id}" used twice`);
      tables.push(t);
      console.log(`${t.title ? `\n## ${t.title}\n\n` : "\n"}${markdownTable(t.columns, t.rows)}${t.note ? `\n\n${t.note}` : ""}`);
    },
    /** A named figure (a number, or a small object of them). @param {string} name @param {unknown} value */
    figure(name, value) {
      figures[name] = value;
    },
    /** A line shown under the tables in the docs. @param {string} text */
    note(text) {
      notes.push(text);
    },
    /** Facts about the run's setup beyond the machine (e.g. `{ chromium: "156.0…" }`). @param {Record<string, unknown>} facts */
    machine(facts) {
      Object.assign(extra, facts);
    },
    /** Writes bench/results/<area>.json and returns its path (null with BENCH_RESULTS=0). */
    write() {
      clearInterval(timer);
      samples.push(round2(loadavg()[0]));
      const out = {
        format: RESULTS_FORMAT,
        area,
        title: options.title ?? area,
        command: options.command ?? commandOf(),
        quick: options.quick ?? process.env.BENCH_QUICK === "1",
        ...commitInfo(),
        date: started.toISOString(),
        duration_s: Math.round((Date.now() - started.getTime()) / 1000),
        machine: {
          ...machineInfo(),
          ...extra,
          load_average: { start: loadStart, end: loadavg().map(round2), during: { min: Math.min(...samples), mean: round2(mean(samples)), max: Math.max(...samples), samples: samples.length } },
        },
        figures,
        tables,
        notes,
      };
      if (process.env.BENCH_RESULTS === "0") {
        console.log(`\n(BENCH_RESULTS=0: results not written)`);
        return null;
      }
      const dir = process.env.BENCH_RESULTS_DIR ?? join(root, "bench/results");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${area}.json`);
      writeFileSync(file, `${stringifyResults(out)}\n`);
      console.log(`\nresults: ${relative(process.cwd(), file) || file} (load average ${out.machine.load_average.during.min}–${out.machine.load_average.during.max} while it ran)`);
      return file;
    },
  };
}
