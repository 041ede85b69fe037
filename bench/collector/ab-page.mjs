#!/usr/bin/env node
// Several collector bundles in ONE page, collect() calls round-robin (order rotated every
// round), so every bundle sees the same page, layout and machine load. Prints the median,
// first quartile and minimum of the in-page time per bundle and the q1 ratio to the first.
// Give the first bundle twice: the spread between the two copies is the noise floor; a change
// smaller than that is not measured (on a shared 2-core machine at load 4-15 it was ±5%).
//
//   node bench/collector/ab-page.mjs [--runs 60] [--page collector/big.html] [--dir test/fixtures/pages] OLD.js NEW.js OLD.js
//
// The bundles share the page's collector state (ids), which does not change timings.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium, serveDir } from "./serve.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
let runs = 60;
let page = "collector/big.html";
let dir = `${root}test/fixtures/pages`;
const bundles = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--runs") runs = Number(argv[++i]);
  else if (argv[i] === "--page") page = argv[++i];
  else if (argv[i] === "--dir") dir = argv[++i];
  else bundles.push(argv[i]);
}
if (bundles.length < 2) {
  console.error("give two or more bundles (the first one twice for a noise floor)");
  process.exit(2);
}

const server = await serveDir(dir);
const browser = await launchChromium();
try {
  const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await p.goto(`${server.origin}/${page}`, { waitUntil: "load" });
  for (let i = 0; i < bundles.length; i++) {
    await p.addScriptTag({ content: readFileSync(bundles[i], "utf8") });
    await p.evaluate((i) => {
      globalThis[`__sightlineAB${i}`] = globalThis.sightline;
    }, i);
  }
  const stats = await p.evaluate(
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
      return times.map((a) => {
        a.sort((x, y) => x - y);
        return { median: a[a.length >> 1], q1: a[Math.floor(a.length / 4)], min: a[0] };
      });
    },
    [runs, bundles.length],
  );
  console.log(`${page}, ${runs} rounds`);
  console.log("| bundle | median ms | q1 ms | min ms | q1 / first |");
  console.log("|---|---|---|---|---|");
  bundles.forEach((b, i) => {
    const s = stats[i];
    console.log(`| ${b} | ${s.median.toFixed(1)} | ${s.q1.toFixed(1)} | ${s.min.toFixed(1)} | ${(s.q1 / stats[0].q1).toFixed(3)} |`);
  });
} finally {
  await browser.close();
  server.close();
}
