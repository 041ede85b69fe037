// Collects ranking training/eval material from a rank corpus (shared/corpora/rank/*): for each
// case, the collector bundle's snapshot body of the page and the gold element's live bbox.
// Output: one JSON line per case in OUT (default $TMPDIR/sightline-rank/<corpus>.jsonl). The
// pages are collected, never copied into the repo; rerun to regenerate.
//
//   node shared/rank-training/collect.mjs --corpus ../shared/corpora/rank/miniwob-dev [--out F]
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "package.json"));
const { chromium } = require("playwright-core");

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1] ?? ""]] : acc), []),
);
if (!args.corpus) {
  console.error("usage: node rank-collect.mjs --corpus DIR [--out FILE] [--collector shared/dist/collector.js]");
  process.exit(2);
}
const corpus = path.resolve(args.corpus);
if (!fs.existsSync(path.join(corpus, "cases.jsonl"))) {
  console.error(`rank-collect: no corpus at ${corpus}; skipped`);
  process.exit(0);
}
const collector = path.resolve(args.collector ?? path.join(here, "..", "dist", "collector.js"));
const out = path.resolve(args.out ?? path.join(os.tmpdir(), "sightline-rank", `${path.basename(corpus)}.jsonl`));
fs.mkdirSync(path.dirname(out), { recursive: true });
const cases = fs.readFileSync(path.join(corpus, "cases.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

const server = http.createServer((req, res) => {
  const p = path.join(corpus, decodeURIComponent(new URL(req.url, "http://x").pathname));
  if (!p.startsWith(corpus) || !fs.existsSync(p) || fs.statSync(p).isDirectory()) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": p.endsWith(".html") ? "text/html; charset=utf-8" : "application/octet-stream" }).end(fs.readFileSync(p));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-dev-shm-usage", "--font-render-hinting=none"],
});
const lines = [];
// One page per viewport, reloaded only when the file changes: a form with 300 goals loads once.
const pages = new Map();
let bodyKey = null, body = null;
try {
  for (const [k, c] of cases.entries()) {
    const vp = { width: Math.round(c.viewport.width), height: Math.round(c.viewport.height) };
    const vpKey = `${vp.width}x${vp.height}`;
    let slot = pages.get(vpKey);
    if (!slot) {
      const ctx = await browser.newContext({ viewport: vp, deviceScaleFactor: 1 });
      slot = { page: await ctx.newPage(), file: null };
      pages.set(vpKey, slot);
    }
    try {
      const key = `${c.file}@${vpKey}`;
      if (slot.file !== c.file) {
        await slot.page.goto(`${origin}/${c.file}`, { waitUntil: "load" });
        slot.file = c.file;
      }
      const gold = await slot.page.evaluate((sel) => {
        const all = document.querySelectorAll(sel);
        if (all.length !== 1) return null;
        const r = all[0].getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }, c.gold_selector);
      if (bodyKey !== key) {
        await slot.page.addScriptTag({ path: collector });
        body = await slot.page.evaluate(async () => await globalThis.sightline.collect({}));
        bodyKey = key;
      }
      lines.push(JSON.stringify({ id: c.id, task: c.task, goal: c.goal, gold_bbox: gold, body }));
    } catch (err) {
      console.error(`${c.id}: ${err.message.split("\n")[0]}`);
      slot.file = null;
    }
    if ((k + 1) % 50 === 0) console.error(`[${k + 1}/${cases.length}]`);
  }
} finally {
  await browser.close();
  server.close();
}
fs.writeFileSync(out, lines.join("\n") + "\n");
console.error(`wrote ${lines.length} cases to ${out}`);
