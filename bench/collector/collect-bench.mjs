#!/usr/bin/env node
// Collector speed on the 5,000-element fixture page (and any other page given as argument),
// side by side with a naive in-page walk (TreeWalker + getBoundingClientRect +
// getComputedStyle for every element) in the same browser and run, so the ratio holds on a
// loaded machine. Prints medians of the in-page time and of the full page.evaluate round trip,
// and of the renderer main thread's CPU time for each (CDP Performance ThreadTime): on a
// shared, loaded machine CPU time moves far less than wall time.
//
//   node bench/collector/collect-bench.mjs [--runs 7] [--bundle B.js] [--compare OTHER_BUNDLE.js] [--dir DIR] [URL_OR_PAGE ...]
//
// The collect time is collectJSON()'s, in the page: the snapshot body as it leaves the page
// (collect() and the one JSON string the transports move). Pages are paths under
// test/fixtures/pages, or under DIR with --dir: any folder of pages served with its styles and
// scripts, e.g. a documentation set installed on the machine:
//   --dir /usr/share/doc/nodejs/api fs.html events.html       (shipped with Debian's nodejs)
//   --dir /usr/share/doc/python3/html library/sys.html        (apt-get install python3-doc)
//
// --bundle times another build than shared/dist/collector.js; --compare times a second bundle (e.g. a copy of the previous build) in its own page of the
// same URL, runs interleaved with the current one (which side goes first alternates every
// round), and prints its row and the time ratio.
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium, serveDir } from "./serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
let runs = 7;
let compare = null;
let bundlePath = `${root}shared/dist/collector.js`;
let dir = null;
const targets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--compare") compare = args[++i];
  else if (args[i] === "--bundle") bundlePath = args[++i];
  else if (args[i] === "--dir") dir = args[++i];
  else targets.push(args[i]);
}
if (!targets.length) {
  // The default pages are fixtures: under another folder they would be two 404 pages, timed.
  if (dir !== null) throw new Error("--dir DIR needs the pages to time, as paths under DIR");
  targets.push("collector/big.html", "collector/form.html");
}

const bundles = [["current", readFileSync(bundlePath, "utf8")]];
if (compare) bundles.push([compare.split("/").pop(), readFileSync(compare, "utf8")]);
// realpath: a folder reached through a symlink (Debian's /usr/share/doc/python3) is served from its target.
const server = await serveDir(realpathSync(dir ?? `${root}test/fixtures/pages`));
const origin = server.origin;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launchChromium();
try {
  console.log(`| page | bundle | elements | raw elements | naive walk ms (in page) | collectJSON ms (in page) | collectJSON / naive | naive CPU ms | collect CPU ms | CPU collect / naive | collectJSON round trip ms |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
  for (const t of targets) {
    const url = /^https?:|^file:/.test(t) ? t : `${origin}/${t}`;
    const sides = [];
    for (const [name, bundle] of bundles) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(url, { waitUntil: "load" });
      await page.addScriptTag({ content: bundle });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
      const cpu = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "ThreadTime").value * 1000;
      sides.push({ name, page, cpu, naive: [], naiveCpu: [], inPage: [], inPageCpu: [], trip: [], count: 0, nodes: 0 });
    }
    for (let i = 0; i < runs + 1; i++) {
      // Order swapped every round: a side that runs right after the other would share the 2
      // cores with that renderer's leftover background work (GC, concurrent compiles).
      for (const s of i % 2 ? [...sides].reverse() : sides) {
        const c0 = await s.cpu();
        const n = await s.page.evaluate(() => {
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
        await s.page.evaluate(async () => {
          const t = performance.now();
          await globalThis.sightline.collect();
          return performance.now() - t;
        });
        const c2 = await s.cpu();
        const t0 = performance.now();
        const res = await s.page.evaluate(async () => {
          const t = performance.now();
          const json = await globalThis.sightline.collectJSON();
          return { ms: performance.now() - t, json };
        });
        const rt = performance.now() - t0;
        if (i === 0) continue; // warm-up
        s.naive.push(n.ms);
        s.naiveCpu.push(c1 - c0);
        s.inPage.push(res.ms);
        s.inPageCpu.push(c2 - c1);
        s.trip.push(rt);
        s.nodes = n.nodes;
        s.count = JSON.parse(res.json).raw_elements.length;
      }
    }
    for (const s of sides) {
      const c = median(s.inPage);
      const nv = median(s.naive);
      const cc = median(s.inPageCpu);
      const nc = median(s.naiveCpu);
      console.log(
        `| ${t} | ${s.name} | ${s.nodes} | ${s.count} | ${nv.toFixed(1)} | ${c.toFixed(1)} | ${(c / nv).toFixed(2)} | ${nc.toFixed(1)} | ${cc.toFixed(1)} | ${(cc / nc).toFixed(2)} | ${median(s.trip).toFixed(1)} |`,
      );
      await s.page.close();
    }
    if (sides.length === 2) {
      const r = (k) => (median(sides[0][k]) / median(sides[1][k])).toFixed(2);
      console.log(`| ${t} | current / ${sides[1].name} | | | | ${r("inPage")} | | | ${r("inPageCpu")} | | |`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
