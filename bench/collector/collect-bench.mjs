#!/usr/bin/env node
// Collector speed on the 5,000-element fixture page (and any other page given as argument),
// side by side with a naive in-page walk (TreeWalker + getBoundingClientRect +
// getComputedStyle for every element) in the same browser and run, so the ratio holds on a
// loaded machine. Prints medians of the in-page time and of the full page.evaluate round trip,
// and of the renderer main thread's CPU time for each (CDP Performance ThreadTime): on a
// shared, loaded machine CPU time moves far less than wall time.
//
//   node bench/collector/collect-bench.mjs [--runs 7] [--bundle B.js] [--compare OTHER_BUNDLE.js]
//        [--dir DIR ...] [--tags MIN-MAX] [--results NAME] [URL_OR_PAGE ...]
//
// The collect time is collectJSON()'s, in the page: the snapshot body as it leaves the page
// (collect() and the one JSON string the transports move). Pages are paths under
// test/fixtures/pages (default: collector/big.html and collector/form.html), or under a DIR
// given with --dir (repeatable: each folder is served with its styles and scripts; a page is
// looked up in each in turn), e.g. the documentation sets Debian installs:
//   --dir /usr/share/doc/nodejs/api fs.html events.html       (shipped with Debian's nodejs)
//   --dir /usr/share/doc/python3/html library/sys.html        (apt-get install python3-doc)
// --tags MIN-MAX times every .html page under the DIRs whose source has MIN to MAX start tags
// (instead of listing pages): how the styled-pages figures in docs/performance.md are made.
//
// --bundle times another build than shared/dist/collector.js; --compare times a second bundle
// (e.g. a copy of the previous build) in its own page of the same URL, runs interleaved with the
// current one (which side goes first alternates every round), and prints its row and the ratio.
// --isolated runs the current bundle where the product runs it, in Sightline's isolated world
// (shared/dist/playwright/world.js, over CDP), and the --compare bundle in the page's own world as
// builds before it ran; each side's naive walk runs in its own world. It also times one snapshot
// as the product takes it (the "snapshot path" table): the previous build injected the bundle
// into the page's world on every snapshot (page.evaluate) and then called collectJSON; the
// current one calls collectJSON in Sightline's world, where the bundle is injected once per
// document.
// Results go to bench/results/NAME.json (default "collector"; BENCH_RESULTS=0 writes none, as
// for an A/B of two builds). BENCH_QUICK=1 makes the default --runs 5.
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync, readdirSync, realpathSync, existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, serveDir } from "./serve.mjs";
import { startRun } from "../lib/results.mjs";
import { median, quantile, ratio } from "../lib/stats.mjs";
import { SightlineWorld } from "../../shared/dist/playwright/world.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: process.env.BENCH_QUICK === "1" ? "5" : "7" },
    bundle: { type: "string", default: `${root}shared/dist/collector.js` },
    compare: { type: "string" },
    dir: { type: "string", multiple: true },
    tags: { type: "string" },
    results: { type: "string", default: "collector" },
    isolated: { type: "boolean", default: false },
  },
});
const runs = Number(opt.runs);
// realpath: a folder reached through a symlink (Debian's /usr/share/doc/python3) is served from its target.
const dirs = (opt.dir ?? [`${root}test/fixtures/pages`]).map((d) => realpathSync(d));

/** Every .html file under `dir` (relative paths), sorted. */
function htmlFiles(dir, sub = "") {
  return readdirSync(join(dir, sub))
    .sort()
    .flatMap((name) => {
      const rel = sub ? `${sub}/${name}` : name;
      const st = statSync(join(dir, rel));
      return st.isDirectory() ? htmlFiles(dir, rel) : name.endsWith(".html") ? [rel] : [];
    });
}

/** [dir index or -1 for a URL, page] for every page to time. */
const targets = [];
if (opt.tags) {
  const [min, max] = opt.tags.split("-").map(Number);
  dirs.forEach((d, i) => {
    for (const f of htmlFiles(d)) {
      const tags = (readFileSync(join(d, f), "utf8").match(/<[a-zA-Z]/g) ?? []).length;
      if (tags >= min && tags <= max) targets.push([i, f]);
    }
  });
  if (!targets.length) throw new Error(`no page under ${dirs.join(", ")} has ${opt.tags} tags`);
}
for (const p of positionals) {
  if (/^https?:|^file:/.test(p)) targets.push([-1, p]);
  else {
    const i = dirs.findIndex((d) => existsSync(join(d, p)) || existsSync(join(d, `${p}.gz`)));
    if (i < 0) throw new Error(`${p} is in none of ${dirs.join(", ")}`);
    targets.push([i, p]);
  }
}
if (!targets.length) {
  // The default pages are fixtures: under another folder they would be two 404 pages, timed.
  if (opt.dir) throw new Error("--dir DIR needs the pages to time, as paths under DIR, or --tags MIN-MAX");
  targets.push([0, "collector/big.html"], [0, "collector/form.html"]);
}

const bundles = [["current", readFileSync(opt.bundle, "utf8")]];
if (opt.compare) bundles.push([opt.compare.split("/").pop(), readFileSync(opt.compare, "utf8")]);
const run = startRun(opt.results, { title: "Collector speed: collectJSON() in the page beside a naive walk" });
const servers = await Promise.all(dirs.map((d) => serveDir(d)));
/** A page's name in the tables: its path under the fixtures, else the folder's last parts. */
const nameOf = (i, t) => (i < 0 || dirs[i] === realpathSync(`${root}test/fixtures/pages`) ? t : `${relative("/usr/share/doc", dirs[i]).replace(/^\.\.\/.*\//, "")}/${t}`);

const browser = await launchChromium();
run.machine({ chromium: browser.version() });
/** One row per page and bundle; numbers in ms. */
const rows = [];
const pages = [];
/** --isolated: one snapshot as the product takes it, per page and bundle. */
const pathRows = [];
try {
  for (const [i, t] of targets) {
    const url = i < 0 ? t : `${servers[i].origin}/${t}`;
    const sides = [];
    for (const [name, bundle] of bundles) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(url, { waitUntil: "load" });
      // In-page functions run in the side's world: the page's (addScriptTag, page.evaluate) or Sightline's.
      let evaluate = (fn) => page.evaluate(fn);
      let path = async () => {
        await page.evaluate(bundle);
        return page.evaluate("globalThis.sightline.collectJSON({})");
      };
      if (opt.isolated && name === "current") {
        const world = SightlineWorld.of(page);
        const scripts = [{ key: "collector", source: async () => bundle }];
        await world.inject(scripts);
        evaluate = (fn) => world.call(fn.toString());
        path = () => world.call("(o) => globalThis.sightline.collectJSON(o)", [{}], scripts);
      } else await page.addScriptTag({ content: bundle });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
      const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
      sides.push({ name, label: opt.isolated ? `${name} (${name === "current" ? "isolated world" : "page's world"})` : name, page, evaluate, path, cpu, naive: [], naiveCpu: [], inPage: [], inPageCpu: [], trip: [], pathCpu: [], pathTrip: [], count: 0, nodes: 0 });
    }
    for (let r = 0; r < runs + 1; r++) {
      // Order swapped every round: a side that runs right after the other would share the 2
      // cores with that renderer's leftover background work (GC, concurrent compiles).
      for (const s of r % 2 ? [...sides].reverse() : sides) {
        const c0 = await s.cpu();
        const n = await s.evaluate(() => {
          const t0 = performance.now();
          const w = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
          let acc = 0;
          for (let el = w.currentNode; el; el = w.nextNode()) {
            const r = el.getBoundingClientRect();
            const cs = getComputedStyle(el);
            if (cs.cursor === "pointer" && r.width > 0) acc++;
          }
          return { ms: performance.now() - t0, nodes: document.getElementsByTagName("*").length, acc };
        });
        const c1 = await s.cpu();
        await s.evaluate(async () => {
          const t = performance.now();
          await globalThis.sightline.collect();
          return performance.now() - t;
        });
        const c2 = await s.cpu();
        const t0 = performance.now();
        const res = await s.evaluate(async () => {
          const t = performance.now();
          const json = await globalThis.sightline.collectJSON();
          return { ms: performance.now() - t, json };
        });
        const rt = performance.now() - t0;
        let pc = 0;
        let pt = 0;
        if (opt.isolated) {
          const c3 = await s.cpu();
          const t1 = performance.now();
          await s.path();
          pt = performance.now() - t1;
          pc = (await s.cpu()) - c3;
        }
        if (r === 0) continue; // warm-up
        s.pathCpu.push(pc);
        s.pathTrip.push(pt);
        s.naive.push(n.ms);
        s.naiveCpu.push(c1 - c0);
        s.inPage.push(res.ms);
        s.inPageCpu.push(c2 - c1);
        s.trip.push(rt);
        s.nodes = n.nodes;
        s.count = JSON.parse(res.json).raw_elements.length;
      }
    }
    const page = nameOf(i, t);
    for (const s of sides) {
      const [c, nv, cc, nc] = [median(s.inPage), median(s.naive), median(s.inPageCpu), median(s.naiveCpu)];
      rows.push([page, s.label, s.nodes, s.count, nv, c, ratio(c, nv), nc, cc, ratio(cc, nc), median(s.trip)]);
      if (s.name === "current") pages.push({ page, elements: s.nodes, raw: s.count, naive: nv, collect: c, over_naive: ratio(c, nv), cpu: cc });
      await s.page.close();
    }
    if (sides.length === 2) {
      const q = (k) => ratio(median(sides[0][k]), median(sides[1][k]));
      rows.push([page, `${sides[0].label} / ${sides[1].label}`, null, null, null, q("inPage"), null, null, q("inPageCpu"), null, null]);
    }
    if (opt.isolated) {
      for (const s of sides) pathRows.push([page, s.label, median(s.pathCpu), median(s.pathTrip)]);
      if (sides.length === 2) pathRows.push([page, `${sides[0].label} / ${sides[1].label}`, ratio(median(sides[0].pathCpu), median(sides[1].pathCpu)), ratio(median(sides[0].pathTrip), median(sides[1].pathTrip))]);
    }
  }
} finally {
  await browser.close();
  for (const s of servers) s.close();
}

const int = { format: "int" };
const x = { format: "ratio" };
run.figure("pages", pages);
run.table({
  id: "pages",
  title: `Per page: median of ${runs} runs, ms in the page`,
  columns: ["page", "bundle", { label: "elements", ...int }, { label: "raw elements", ...int }, "naive walk", "collectJSON", { label: "collectJSON / naive", ...x }, "naive CPU", "collect CPU", { label: "CPU collect / naive", ...x }, "collectJSON round trip"],
  rows,
  note: "Naive walk: one getBoundingClientRect() and one computed-style read per element, nothing else. CPU: the renderer main thread's (CDP ThreadTime). Round trip: the evaluation of collectJSON() as seen from Node (page.evaluate, or a CDP call into Sightline's world with --isolated).",
});
if (pathRows.length) {
  run.table({
    id: "snapshot-path",
    title: `One snapshot as the product takes it: median of ${runs} runs`,
    columns: ["page", "bundle", "renderer CPU, ms", "round trip, ms"],
    rows: pathRows,
    note: "Page's world: the bundle evaluated again and collectJSON() called (the previous build's injectCollector + collectJSON, per snapshot). Isolated world: collectJSON() in Sightline's world (world.ts), the bundle injected once per document. CPU: the renderer main thread's (CDP ThreadTime).",
  });
}
if (pages.length > 2) {
  const col = (k) => pages.map((p) => p[k]);
  const summary = {
    pages: pages.length,
    elements: [Math.min(...col("elements")), Math.max(...col("elements"))],
    raw: [Math.min(...col("raw")), Math.max(...col("raw"))],
    collect: { median: median(col("collect")), q1: quantile(col("collect"), 0.25), q3: quantile(col("collect"), 0.75), min: Math.min(...col("collect")), max: Math.max(...col("collect")) },
    under_100_ms: pages.filter((p) => p.collect < 100).length,
    under_75_ms: pages.filter((p) => p.collect < 75).length,
    over_naive: { median: median(col("over_naive")), min: Math.min(...col("over_naive")), max: Math.max(...col("over_naive")) },
    cpu: { median: median(col("cpu")), under_100_ms: pages.filter((p) => p.cpu < 100).length },
  };
  const slowest = [...pages].sort((a, b) => b.collect - a.collect)[0];
  run.figure("summary", summary);
  const range = ([a, b]) => `${a.toLocaleString("en-US")}–${b.toLocaleString("en-US")}`;
  const r = (v) => v.toFixed(1);
  run.table({
    id: "summary",
    title: `All ${pages.length} pages (ms in the page)`,
    columns: [{ label: "pages", ...int }, "elements", "raw elements", "collectJSON median", "quartiles", "range", { label: "under 100 ms", ...int }, { label: "under 75 ms", ...int }, { label: "/ naive walk, median", ...x }, "/ naive walk, range", "collect CPU median", { label: "under 100 ms CPU", ...int }, "slowest page"],
    rows: [[summary.pages, range(summary.elements), range(summary.raw), summary.collect.median, `${r(summary.collect.q1)}–${r(summary.collect.q3)}`, `${r(summary.collect.min)}–${r(summary.collect.max)}`, summary.under_100_ms, summary.under_75_ms, summary.over_naive.median, `${summary.over_naive.min.toFixed(1)}–${summary.over_naive.max.toFixed(1)}×`, summary.cpu.median, summary.cpu.under_100_ms, `${slowest.page} (${slowest.raw.toLocaleString("en-US")} raw, ${r(slowest.collect)} ms)`]],
    note: "Wall time in the page waits for a core when the machine is loaded; the renderer's CPU time (collect() alone, CDP ThreadTime) moves far less.",
  });
}
run.write();
