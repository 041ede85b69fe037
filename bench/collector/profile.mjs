#!/usr/bin/env node
// Where collect() spends its time on one page: per-phase timers (collect({timings:true})) and a
// CPU profile of the in-page call (CDP Profiler), summarised as self time per function and URL.
//
//   node bench/collector/profile.mjs [--runs 5] [--out profile.cpuprofile] [--results NAME] [URL_OR_FIXTURE]
//
// Builds its own unminified bundle from shared/src/collector (no workspace build needed).
// Results (phase medians, top self and inclusive times) go to bench/results/NAME.json
// (default "collector-profile"; BENCH_RESULTS=0 writes none).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, serveDir } from "./serve.mjs";
import { startRun } from "../lib/results.mjs";
import { median } from "../lib/stats.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "5" }, out: { type: "string" }, results: { type: "string", default: "collector-profile" } },
});
const runs = Number(opt.runs);
const out = opt.out ?? null;
const target = positionals[0] ?? "collector/big.html";
const run = startRun(opt.results, { title: `Where collect() spends its time (${target})` });
// An unminified build of the same entry, so the profile names functions.
const { build } = createRequire(`${root}shared/package.json`)("esbuild");
const built = await build({ entryPoints: [`${root}shared/src/collector/bundle.ts`], bundle: true, format: "iife", platform: "browser", target: "chrome110", write: false, logLevel: "warning" });
const bundle = `${built.outputFiles[0].text}\n//# sourceURL=collector.js`;
const server = await serveDir(`${root}test/fixtures/pages`);
const browser = await launchChromium();
run.machine({ chromium: browser.version() });
try {
  const url = /^https?:|^file:/.test(target) ? target : `${server.origin}/${target}`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url, { waitUntil: "load" });
  await page.addScriptTag({ content: bundle });
  const phases = [];
  for (let i = 0; i < runs + 1; i++) {
    const p = await page.evaluate(() => globalThis.sightline.collect({ timings: true }).then((r) => r.client_metrics.phases_ms));
    if (i > 0) phases.push(p);
  }
  // A collector without per-phase timers answers without phases_ms: then the profile alone speaks.
  if (phases[0]) {
    const phaseMs = Object.fromEntries(Object.keys(phases[0]).map((k) => [k, median(phases.map((p) => p[k] ?? 0))]));
    run.figure("phases_ms", phaseMs);
    run.table({ id: "phases", title: `collect({ timings: true }) phases, median of ${runs} (ms)`, columns: ["phase", "ms"], rows: Object.entries(phaseMs) });
  }

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
  await cdp.send("Profiler.start");
  await page.evaluate(async () => {
    for (let i = 0; i < 5; i++) await globalThis.sightline.collect();
  });
  const { profile } = await cdp.send("Profiler.stop");
  if (out) writeFileSync(out, JSON.stringify(profile));
  // Self time per function from sample counts.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const self = new Map();
  let total = 0;
  for (const [id, c] of counts) {
    const n = byId.get(id);
    const f = n.callFrame;
    if (f.functionName === "(idle)" || f.functionName === "(program)") continue;
    const key = `${f.functionName || "(anon)"}${f.url ? ` ${f.url.split("/").pop()}:${f.lineNumber}:${f.columnNumber}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + c);
    total += c;
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
  run.table({ id: "self", title: `Self time, top functions (${total} samples over 5 collects)`, columns: [{ label: "share", format: "percent" }, "function"], rows: top.map(([k, c]) => [c / total, k]) });
  // Inclusive time: samples whose stack contains the function (counted once per sample).
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map();
  for (const [id, c] of counts) {
    const f0 = byId.get(id).callFrame.functionName;
    if (f0 === "(idle)" || f0 === "(program)") continue;
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const name = byId.get(n).callFrame.functionName || "(anon)";
      if (seen.has(name)) continue;
      seen.add(name);
      incl.set(name, (incl.get(name) ?? 0) + c);
    }
  }
  run.table({ id: "inclusive", title: "Inclusive time, top functions", columns: [{ label: "share", format: "percent" }, "function"], rows: [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45).map(([k, c]) => [c / total, k]) });
  run.note("A profile roughly doubles the times; the shares are what to read.");
  await page.close();
} finally {
  await browser.close();
  server.close();
}
run.write();
