#!/usr/bin/env node
// Offline read-mode scoring of the collector's read(): serves a read corpus (AEB or WCXB
// layout, .html.gz gunzipped on the fly) on 127.0.0.1, opens each page in Chromium (only
// loopback requests are let through), runs globalThis.sightline.read() and writes a
// prediction file plus the id list, then scores them with shared/tools/eval-read.mjs.
// No corpus data is copied into the repository.
//
//   node bench/quality/read-predict.mjs --corpus ../shared/corpora/read/aeb [--format text|markdown]
//        [--sample N] [--seed S] [--concurrency 2] [--out /tmp/pred.json] [--no-score]
//        [--read-options JSON]   e.g. '{"fallback":false,"stripHidden":false}' = Readability alone
//
// Build the bundle first: pnpm --filter @sightline/shared run build
import { chromium } from "playwright-core";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = { format: "text", concurrency: "2", seed: "1" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].slice(2);
  if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) opt[k] = "true";
  else opt[k] = argv[++i];
}
if (!opt.corpus) {
  console.error("usage: read-predict.mjs --corpus DIR [--format text|markdown] [--sample N] [--out FILE]");
  process.exit(2);
}
const corpus = resolve(opt.corpus);
const htmlDir = join(corpus, "html");
const ids = readdirSync(htmlDir)
  .filter((f) => f.endsWith(".html.gz") || f.endsWith(".html"))
  .map((f) => f.replace(/\.html(\.gz)?$/, ""))
  .sort();

// Deterministic sample (mulberry32 shuffle), so runs are comparable.
function sample(list, n, seed) {
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n).sort();
}
const chosen = opt.sample ? sample(ids, Number(opt.sample), Number(opt.seed)) : ids;

const server = createServer((req, res) => {
  const m = /^\/p\/([^/]+)\.html$/.exec(new URL(req.url ?? "/", "http://x").pathname);
  if (!m) return res.writeHead(404).end();
  const gz = join(htmlDir, `${m[1]}.html.gz`);
  const plain = join(htmlDir, `${m[1]}.html`);
  let body;
  try {
    body = existsSync(gz) ? gunzipSync(readFileSync(gz)) : readFileSync(plain);
  } catch {
    return res.writeHead(404).end();
  }
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

const bundle = readFileSync(join(root, "shared/dist/collector.js"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const predictions = {};
const failures = [];
let done = 0;
const t0 = Date.now();
async function one(id) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Like the service's performance engine: no images, media or fonts; nothing off loopback.
  await context.route("**/*", (route) => {
    const req = route.request();
    const url = req.url();
    if (!url.startsWith(origin) || ["image", "media", "font"].includes(req.resourceType())) return route.abort();
    return route.continue();
  });
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/p/${id}.html`, { waitUntil: "domcontentloaded", timeout: 30000 });
    await page.waitForTimeout(150);
    await page.addScriptTag({ content: bundle });
    const readOptions = { ...JSON.parse(opt["read-options"] ?? "{}"), format: opt.format };
    const r = await page.evaluate((o) => globalThis.sightline.read(o), readOptions);
    predictions[id] = { text: r.content, title: r.title, description: r.description, extractor: r.extractor, stats: r.stats };
  } catch (e) {
    failures.push({ id, error: String(e).slice(0, 200) });
    predictions[id] = { text: "", title: "", description: "" };
  } finally {
    await context.close();
    done++;
    if (done % 20 === 0) process.stderr.write(`[read-predict] ${done}/${chosen.length} ${((Date.now() - t0) / 1000).toFixed(0)}s\n`);
  }
}
try {
  const queue = [...chosen];
  await Promise.all(
    Array.from({ length: Number(opt.concurrency) }, async () => {
      while (queue.length) await one(queue.shift());
    }),
  );
} finally {
  await browser.close();
  server.close();
}
const out = opt.out ?? `/tmp/read-pred-${corpus.split("/").pop()}-${opt.format}.json`;
writeFileSync(out, JSON.stringify(predictions));
writeFileSync(`${out}.ids`, `${chosen.join("\n")}\n`);
if (failures.length) console.error(`failures: ${JSON.stringify(failures)}`);
console.error(`[read-predict] ${chosen.length} pages in ${((Date.now() - t0) / 1000).toFixed(0)}s → ${out}`);
if (opt["no-score"] !== "true") {
  const args = [join(root, "../shared/tools/eval-read.mjs"), "--corpus", corpus, "--predictions", out, "--ids", `${out}.ids`, "--format", opt.format, "--quiet"];
  if (opt.format === "markdown" && opt["md-images"]) args.push("--md-images", opt["md-images"]);
  const r = spawnSync(process.execPath, args, { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
}
