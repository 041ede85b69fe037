#!/usr/bin/env node
// Several collector bundles in ONE page, collect() calls round-robin (order rotated every
// round), so every bundle sees the same page, layout and machine load. Prints the median,
// first quartile and minimum of the in-page time per bundle and the q1 ratio to the first.
// Give the first bundle twice: the spread between the two copies is the noise floor; a change
// smaller than that is not measured (on a shared 2-core machine at load 4-15 it was ±5%).
//
//   node bench/collector/ab-page.mjs [--runs 60] [--cpu] [--separate] [--page collector/big.html] [--dir test/fixtures/pages] OLD.js NEW.js OLD.js
//
// The bundles share the page's collector state (ids), which does not change timings.
// Results go to bench/results/NAME.json (--results NAME, default "collector-ab"; BENCH_RESULTS=0 writes none).
//
// --cpu: also the renderer main thread's CPU time of each call (CDP Performance ThreadTime,
// one evaluate per call): when other processes share the cores, wall time in the page moves
// with their load and CPU time far less.
// --separate: each bundle in its own page of the same URL (still round-robin). Needed when a
// bundle changes what the page's own objects look like to V8 (the old collector redefined
// `labels` on the element prototypes, which throws away optimised code of every script in
// that page, the other bundles' included).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, serveDir } from "./serve.mjs";
import { startRun } from "../lib/results.mjs";
import { quantile } from "../lib/stats.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt, positionals: bundles } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "60" },
    page: { type: "string", default: "collector/big.html" },
    dir: { type: "string", default: `${root}test/fixtures/pages` },
    cpu: { type: "boolean", default: false },
    separate: { type: "boolean", default: false },
    results: { type: "string", default: "collector-ab" },
  },
});
const runs = Number(opt.runs);
const { page, dir, cpu, separate } = opt;
if (bundles.length < 2) {
  console.error("give two or more bundles (the first one twice for a noise floor)");
  process.exit(2);
}

const run = startRun(opt.results, { title: `Collector bundles A/B in one page (${page})` });
const server = await serveDir(dir);
const browser = await launchChromium();
run.machine({ chromium: browser.version() });
try {
  // One page, or one page per bundle (--separate); bundle i is __sightlineAB{i} in pages[i].
  const pages = [];
  for (let i = 0; i < bundles.length; i++) {
    if (!separate && pages.length) {
      pages.push(pages[0]);
    } else {
      const np = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await np.goto(`${server.origin}/${page}`, { waitUntil: "load" });
      pages.push(np);
    }
    await pages[i].addScriptTag({ content: readFileSync(bundles[i], "utf8") });
    await pages[i].evaluate((i) => {
      globalThis[`__sightlineAB${i}`] = globalThis.sightline;
    }, i);
  }
  const p = pages[0];
  const summary = (a) => ({ median: quantile(a, 0.5), q1: quantile(a, 0.25), min: quantile(a, 0) });
  let stats;
  let cpuStats = null;
  if (cpu || separate) {
    const sessions = [];
    for (const pg of pages) {
      const cdp = await pg.context().newCDPSession(pg);
      await cdp.send("Performance.enable");
      sessions.push(cdp);
    }
    const threadMs = async (x) => (await sessions[x].send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
    const wall = bundles.map(() => []);
    const cpuMs = bundles.map(() => []);
    for (let round = 0; round < runs + 1; round++) {
      for (let j = 0; j < bundles.length; j++) {
        const x = (round + j) % bundles.length;
        const c0 = await threadMs(x);
        const w = await pages[x].evaluate(async (x) => {
          const t = performance.now();
          await globalThis[`__sightlineAB${x}`].collect();
          return performance.now() - t;
        }, x);
        const c1 = await threadMs(x);
        if (round > 0) {
          wall[x].push(w);
          cpuMs[x].push(c1 - c0);
        }
      }
    }
    stats = wall.map(summary);
    if (cpu) cpuStats = cpuMs.map(summary);
  } else {
    stats = (
      await p.evaluate(
        async ([n, k]) => {
          const times = Array.from({ length: k }, () => []);
          for (let round = 0; round < n + 1; round++) {
            for (let j = 0; j < k; j++) {
              const x = (round + j) % k;
              const t = performance.now();
              await globalThis[`__sightlineAB${x}`].collect();
              if (round > 0) times[x].push(performance.now() - t); // round 0 warms up
            }
          }
          return times;
        },
        [runs, bundles.length],
      )
    ).map(summary);
  }
  const q1Ratio = { label: "q1 / first", format: "fixed3" };
  run.table({
    id: "ab",
    title: `${page}, ${runs} rounds, in-page ms`,
    columns: ["bundle", "median ms", "q1 ms", "min ms", q1Ratio, ...(cpuStats ? ["CPU median ms", "CPU q1 ms", { ...q1Ratio, label: "CPU q1 / first" }] : [])],
    rows: bundles.map((b, i) => {
      const s = stats[i];
      const c = cpuStats ? [cpuStats[i].median, cpuStats[i].q1, cpuStats[i].q1 / cpuStats[0].q1] : [];
      return [b, s.median, s.q1, s.min, s.q1 / stats[0].q1, ...c];
    }),
  });
} finally {
  await browser.close();
  server.close();
}
run.write();
