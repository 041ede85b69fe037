#!/usr/bin/env node
// Candidate recall of collect() on the ranking corpora (shared/corpora/rank/*): the share of
// cases whose gold element (measured live from gold_selector) has a raw element with IoU ≥ 0.5,
// i.e. the ceiling of "gold present" for any ranking built on the collector. No server.
//
//   node bench/quality/gold-coverage.mjs [--corpus DIR]... [--misses]
//
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveDir } from "../collector/serve.mjs";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const argv = process.argv.slice(2);
const corpora = [];
let showMisses = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--corpus") corpora.push(argv[++i]);
  else if (argv[i] === "--misses") showMisses = true;
}
if (!corpora.length) corpora.push(join(root, "../shared/corpora/rank/miniwob-dev"), join(root, "../shared/corpora/rank/flight-aa"));
const run = startRun("gold-coverage", { title: "Candidate recall: the ranking corpora's gold element among the collector's raw elements" });
const bundle = readFileSync(join(root, "shared/dist/collector.js"), "utf8");
const rows = [];
const browser = await launchChromium();

const iou = (a, b) => {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const u = a.width * a.height + b.width * b.height - inter;
  return u > 0 ? inter / u : 0;
};
const flat = (list, out = []) => {
  for (const e of list) {
    out.push(e);
    if (e.iframe_content) flat(e.iframe_content, out);
  }
  return out;
};

try {
  for (const dir of corpora) {
    const cases = readFileSync(join(dir, "cases.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const server = await serveDir(dir);
    const origin = server.origin;
    const perTask = new Map();
    const byFile = new Map();
    for (const c of cases) {
      const key = `${c.file}|${c.viewport.width}x${c.viewport.height}`;
      if (!byFile.has(key)) byFile.set(key, []);
      byFile.get(key).push(c);
    }
    for (const [key, list] of byFile) {
      const [file] = key.split("|");
      const page = await browser.newPage({ viewport: list[0].viewport });
      await page.goto(`${origin}/${file}`, { waitUntil: "load" });
      await page.addScriptTag({ content: bundle });
      const raw = flat(JSON.parse(await page.evaluate(() => globalThis.sightline.collectJSON())).raw_elements);
      for (const c of list) {
        const box = await page.locator(c.gold_selector).first().boundingBox();
        const best = box ? Math.max(0, ...raw.map((e) => iou(e.rect, box))) : 0;
        const t = perTask.get(c.task) ?? { n: 0, hit: 0 };
        t.n++;
        if (best >= 0.5) t.hit++;
        else if (showMisses) console.error(`miss ${c.id} ${c.task} ${c.gold_selector} best IoU ${best.toFixed(2)}`);
        perTask.set(c.task, t);
      }
      await page.close();
    }
    server.close();
    let n = 0;
    let hit = 0;
    const name = dir.split("/").pop();
    for (const [, t] of perTask) {
      n += t.n;
      hit += t.hit;
    }
    // Per task only where something is missed: a corpus of 50 tasks at 100% is one row.
    for (const [task, t] of [...perTask].sort()) if (t.hit < t.n) rows.push([name, task, t.n, t.hit / t.n]);
    rows.push([name, "**all**", n, hit / n]);
    run.figure(`${name.replace(/\W/g, "_")}_gold_collected`, hit / n);
  }
} finally {
  await browser.close();
}
run.table({
  id: "coverage",
  title: "Gold element collected (IoU ≥ 0.5), per corpus; tasks listed only where a gold is missed",
  columns: ["corpus", "task", { label: "cases", format: "int" }, { label: "gold collected", format: "percent" }],
  rows,
});
run.write();
