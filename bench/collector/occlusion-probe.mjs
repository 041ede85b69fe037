#!/usr/bin/env node
// Where the occlusion phase of collect() goes on a page: how many hit tests it makes, for how
// many in-viewport elements, and how much of the phase is Chromium's own elementFromPoint
// (the same points replayed in a bare loop, same page, same layout). Use it before trying to
// make occlusion cheaper: if the replay is nearly the whole phase and the count is the rule's
// minimum (centre + 3 insets for an occluded element, 1 for one whose centre hits itself),
// only fewer points, not faster code, can help. Only the top document's hit tests are counted
// and replayed (same-origin frames have prototypes of their own): on pages with frames the
// count and Chromium's share come out low.
//
//   node bench/collector/occlusion-probe.mjs [--runs 5] [--bundle B.js] [--dir DIR] PAGE ...
//
// PAGE is a file of DIR (default test/fixtures/pages, e.g. collector/big.html) or a URL.
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, serveDir } from "./serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt, positionals: targets } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "5" },
    bundle: { type: "string", default: `${root}shared/dist/collector.js` },
    dir: { type: "string", default: `${root}test/fixtures/pages` },
  },
});
const runs = Number(opt.runs);
const { bundle: bundlePath, dir } = opt;
if (!targets.length) targets.push("collector/big.html");
const bundle = readFileSync(bundlePath, "utf8");
const server = await serveDir(dir);
const browser = await launchChromium();
try {
  console.log("| page | in view | occluded | hit tests | hits per in-view element | occlusion phase ms | replay ms | µs per hit |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const t of targets) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(/^https?:|^file:/.test(t) ? t : `${server.origin}/${t}`, { waitUntil: "load" });
    await page.addScriptTag({ content: bundle });
    const r = await page.evaluate(async (runs) => {
      const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
      const phase = [];
      for (let i = 0; i < runs + 1; i++) {
        const res = await globalThis.sightline.collect({ timings: true });
        if (i) phase.push(res.client_metrics.phases_ms.occlusion);
      }
      // One more collect() with every hit test recorded (the wrapper only counts and keeps
      // the point; its own cost is not part of the figures below).
      const calls = [];
      const protos = [Document.prototype, ShadowRoot.prototype];
      const originals = protos.map((p) => p.elementFromPoint);
      protos.forEach((p, i) => {
        p.elementFromPoint = function (x, y) {
          calls.push([this, x, y]);
          return originals[i].call(this, x, y);
        };
      });
      let res;
      try {
        res = await globalThis.sightline.collect();
      } finally {
        protos.forEach((p, i) => (p.elementFromPoint = originals[i]));
      }
      const all = [];
      const walk = (list) => {
        for (const e of list) {
          all.push(e);
          if (e.iframe_content) walk(e.iframe_content);
        }
      };
      walk(res.raw_elements);
      const inView = all.filter((e) => e.in_viewport).length;
      const occluded = all.filter((e) => e.is_occluded).length;
      // The same hit tests in a bare loop, a few times (median): Chromium's own cost.
      const replay = [];
      for (let k = 0; k < 5; k++) {
        const t0 = performance.now();
        for (const [root, x, y] of calls) root.elementFromPoint(x, y);
        replay.push(performance.now() - t0);
      }
      return { inView, occluded, hits: calls.length, phase: median(phase), replay: median(replay) };
    }, runs);
    const perHit = r.hits ? (1000 * r.replay) / r.hits : 0;
    console.log(`| ${t} | ${r.inView} | ${r.occluded} | ${r.hits} | ${r.inView ? (r.hits / Math.max(1, r.inView)).toFixed(1) : "-"} | ${r.phase} | ${r.replay.toFixed(1)} | ${perHit.toFixed(0)} |`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
