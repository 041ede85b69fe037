#!/usr/bin/env node
// Collector speed on the 5,000-element fixture page (and any other page given as argument),
// side by side with a naive in-page walk (TreeWalker + getBoundingClientRect +
// getComputedStyle for every element) in the same browser and run, so the ratio holds on a
// loaded machine. Prints medians of the in-page time and of the full page.evaluate round trip.
//
//   node bench/collector/collect-bench.mjs [--runs 7] [URL_OR_FIXTURE ...]
//
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveDir } from "./serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
let runs = 7;
const targets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else targets.push(args[i]);
}
if (!targets.length) targets.push("collector/big.html", "collector/form.html");

const bundle = readFileSync(`${root}shared/dist/collector.js`, "utf8");
const fixtures = `${root}test/fixtures/pages`;
const server = await serveDir(fixtures);
const origin = server.origin;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launchChromium();
try {
  console.log(`| page | elements | raw elements | naive walk ms (in page) | collect ms (in page) | collectJSON round trip ms | collect / naive |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const t of targets) {
    const url = /^https?:|^file:/.test(t) ? t : `${origin}/${t}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url, { waitUntil: "load" });
    await page.addScriptTag({ content: bundle });
    const naive = [];
    const inPage = [];
    const trip = [];
    let count = 0;
    let nodes = 0;
    for (let i = 0; i < runs + 1; i++) {
      const n = await page.evaluate(() => {
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
      const t0 = performance.now();
      const res = await page.evaluate(async () => {
        const t = performance.now();
        const json = await globalThis.sightline.collectJSON();
        return { ms: performance.now() - t, json };
      });
      const rt = performance.now() - t0;
      if (i === 0) continue; // warm-up
      naive.push(n.ms);
      inPage.push(res.ms);
      trip.push(rt);
      nodes = n.nodes;
      count = JSON.parse(res.json).raw_elements.length;
    }
    const c = median(inPage);
    const nv = median(naive);
    console.log(`| ${t} | ${nodes} | ${count} | ${nv.toFixed(1)} | ${c.toFixed(1)} | ${median(trip).toFixed(1)} | ${(c / nv).toFixed(2)} |`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
