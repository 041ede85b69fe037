#!/usr/bin/env node
// Behaviour guard for collector changes: collects every fixture page, every WPT page and every
// ranking-corpus page with two bundles and diffs the raw elements field by field (ids, roles,
// names, text, boxes, occlusion, styles…), ignoring only timings. Save a baseline from the old
// bundle, rebuild, compare:
//
//   node bench/collector/output-diff.mjs --save /tmp/before.json      (with the old dist bundle)
//   node bench/collector/output-diff.mjs --compare /tmp/before.json   (after rebuilding)
//   options: --bundle FILE (default shared/dist/collector.js), --show N (diffs printed, default 20),
//            --only fixtures,wpt,rank (page sets, default all three),
//            --extra DIR (also every .html page of DIR, e.g. real pages kept outside the repo)
//
// Pages that change by themselves (timers, transitions, late layout) differ between two runs of
// the same bundle. --pair OLD.js compares in the same page instead: OLD, the bundle, OLD again,
// back to back; a page whose two OLD results differ is reported unstable and not compared.
//
//   node bench/collector/output-diff.mjs --pair /tmp/old.js [--extra DIR] [--only ...]
//
// The WPT and ranking pages are the evaluation corpora beside the repository (../shared/corpora,
// or SIGHTLINE_CORPORA=DIR); without them only the fixtures are compared. A --compare or --pair
// run records its count of pages and differences in bench/results/NAME.json (--results NAME,
// default "collector-output-diff"; BENCH_RESULTS=0 writes none). Exit status 1 when anything differs.
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, serveDir } from "./serve.mjs";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt } = parseArgs({
  options: Object.fromEntries(["save", "compare", "pair", "bundle", "show", "only", "extra", "results"].map((k) => [k, { type: "string" }])),
});
if (!opt.save && !opt.compare && !opt.pair) {
  console.error("use --save FILE, --compare FILE or --pair OLD_BUNDLE");
  process.exit(2);
}
const bundle = readFileSync(opt.bundle ?? join(root, "shared/dist/collector.js"), "utf8");
const corpora = process.env.SIGHTLINE_CORPORA ?? join(root, "../shared/corpora");
const run = opt.save ? null : startRun(opt.results ?? "collector-output-diff", { title: "Collector output: two builds compared field by field" });

/** [servedDir, file, viewport] for every page. */
const sets = [];
const only = new Set((opt.only ?? "fixtures,wpt,rank").split(","));
const fixtures = join(root, "test/fixtures/pages");
if (only.has("fixtures")) for (const f of readdirSync(join(fixtures, "collector")).filter((f) => f.endsWith(".html") && f !== "frame-child.html")) {
  sets.push([fixtures, `collector/${f}`, { width: 1280, height: 900 }]);
}
const wpt = join(corpora, "map/wpt");
if (only.has("wpt") && existsSync(join(wpt, "manifest.json"))) {
  for (const f of JSON.parse(readFileSync(join(wpt, "manifest.json"), "utf8")).files) sets.push([wpt, f.file, { width: 1280, height: 900 }]);
}
for (const c of only.has("rank") ? ["miniwob-dev", "flight-aa"] : []) {
  const dir = join(corpora, "rank", c);
  if (!existsSync(join(dir, "cases.jsonl"))) continue;
  const seen = new Set();
  for (const line of readFileSync(join(dir, "cases.jsonl"), "utf8").split("\n").filter(Boolean)) {
    const k = JSON.parse(line);
    if (seen.has(k.file)) continue;
    seen.add(k.file);
    sets.push([dir, k.file, k.viewport]);
  }
}

if (opt.extra) for (const f of readdirSync(opt.extra).filter((f) => f.endsWith(".html")).sort()) {
  sets.push([opt.extra, f, { width: 1280, height: 900 }]);
}

const servers = new Map();
const browser = await launchChromium();
run?.machine({ chromium: browser.version() });
const results = {};
/** --pair: per page, [old, new, old again]. */
const pairs = {};
try {
  for (const [dir, file, viewport] of sets) {
    if (!servers.has(dir)) servers.set(dir, await serveDir(dir));
    const page = await browser.newPage({ viewport });
    await page.goto(`${servers.get(dir).origin}/${file}`, { waitUntil: "load" });
    if (opt.pair) {
      await page.addScriptTag({ content: readFileSync(opt.pair, "utf8") });
      await page.evaluate(() => (globalThis.__sightlineOld = globalThis.sightline));
      await page.addScriptTag({ content: bundle });
      const origin = servers.get(dir).origin;
      const bodies = await page.evaluate(async () => {
        const run = async (c) => {
          await c.collect();
          const b = JSON.parse(await c.collectJSON());
          return JSON.stringify({ raw_elements: b.raw_elements, captcha: b.client_diagnostics, node_count: b.client_metrics.node_count });
        };
        return [await run(globalThis.__sightlineOld), await run(globalThis.sightline), await run(globalThis.__sightlineOld)];
      });
      pairs[`${dir.split("/").pop()}/${file}`] = bodies.map((b) => JSON.parse(b.split(origin).join("ORIGIN")));
      await page.close();
      continue;
    }
    await page.addScriptTag({ content: bundle });
    // Two collects: the second shows ids stay stable and nothing depends on a first-call cache.
    const body = JSON.parse(
      await page.evaluate(async () => {
        await globalThis.sightline.collect();
        return globalThis.sightline.collectJSON();
      }),
    );
    // The server's port changes between runs: compare with the origin masked.
    const origin = servers.get(dir).origin;
    const masked = JSON.parse(JSON.stringify({ raw_elements: body.raw_elements, captcha: body.client_diagnostics, node_count: body.client_metrics.node_count }).split(origin).join("ORIGIN"));
    results[`${dir.split("/").pop()}/${file}`] = masked;
    await page.close();
  }
} finally {
  await browser.close();
  for (const s of servers.values()) s.close();
}

const show = Number(opt.show ?? 20);
let diffs = 0;
let elements = 0;
/** Prints the first `show` differing leaves between a and b, and counts all of them. */
const walk = (a, b, path) => {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a && b && typeof a === "object" && typeof b === "object") {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${path}.${k}`);
    return;
  }
  if (diffs++ < show) console.log(`${path}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
};
/** Pages not compared, with why. */
const skipped = [];
if (opt.save) {
  writeFileSync(opt.save, JSON.stringify(results));
  console.log(`saved ${Object.keys(results).length} pages to ${opt.save}`);
} else {
  const compared = opt.pair ? pairs : results;
  const before = opt.pair ? null : JSON.parse(readFileSync(opt.compare, "utf8"));
  for (const [page, value] of Object.entries(compared)) {
    const [old, cur] = opt.pair ? value : [before[page], value];
    if (opt.pair && JSON.stringify(old) !== JSON.stringify(value[2])) {
      skipped.push(`${page} (the old bundle differs from itself)`);
      continue;
    }
    if (!old) {
      if (diffs++ < show) console.log(`${page}: not in baseline`);
      continue;
    }
    if (!opt.pair && old.node_count !== cur.node_count) {
      // The page itself changed between the runs (content added on a timer): not comparable.
      skipped.push(`${page} (${cur.node_count} nodes, baseline ${old.node_count})`);
      continue;
    }
    elements += cur.raw_elements.length;
    walk(old, cur, page);
  }
  if (skipped.length) console.log(`not compared: ${skipped.join(", ")}`);
  const pages = Object.keys(compared).length - skipped.length;
  run.figure("pages", pages);
  run.figure("elements", elements);
  run.figure("differences", diffs);
  run.table({
    id: "diff",
    title: opt.pair ? `Current bundle against ${opt.pair}, in the same page` : `Current bundle against the baseline ${opt.compare}`,
    columns: [{ label: "pages compared", format: "int" }, { label: "top-level raw elements", format: "int" }, { label: "differences", format: "int" }, { label: "pages not compared", format: "int" }],
    rows: [[pages, elements, diffs, skipped.length]],
  });
  run.write();
  process.exitCode = diffs ? 1 : 0;
}
