#!/usr/bin/env node
// Read-mode quality, side by side in one run on the same pages: Sightline's read() (the
// collector's read path, shared/src/collector/read/), Readability.js alone through the same
// pipeline (read({ fallback: false, stripHidden: false })) and Defuddle (npm `defuddle`, its
// browser build given the live document). Every page of every read corpus beside the repository
// (../shared/corpora/read: AEB, wcxb-dev, the Readability test pages) is served on 127.0.0.1,
// opened in Chromium like the service does (nothing off loopback, no images, media or fonts;
// scripts off first, on again for an extractor whose static reading is short), and
// the three extractors run in that one page, Defuddle last (it strips the document's scripts).
//
// Scoring follows the benchmarks' own rules (re-implemented here, as in ../shared/tools/eval-read.mjs):
//   AEB          token 4-gram shingles, per-page normalised TP/FP/FN, P and R averaged over pages, F1 of the averages
//   wcxb-dev     lower-cased word multisets per page, P/R/F1 averaged over pages; boilerplate / content snippet rates
//   readability  title and description (excerpt) exact match after whitespace normalisation
// plus title exact match on wcxb-dev (its ground truth has titles). Tokens: /[\p{L}\p{N}_]+/u (Python's \w).
//
// Held-out pages: a fixed ~30% of wcxb-dev, chosen once by a hash of the page id (the rule and
// the list are in bench/quality/read-holdout.txt). They are scored and reported only in aggregate,
// in rows of their own; no per-page output is ever written for them.
//
//   node bench/quality/read-eval.mjs [--corpora aeb,wcxb-dev,readability] [--split all|tune|holdout|train|choose|report]
//        [--sample N] [--seed 1] [--concurrency 2] [--extractors sightline,readability,defuddle]
//        [--bundle shared/dist/collector.js] [--baseline-bundle FILE | --baseline-commit REV] [--pages-out FILE]
//
// --mark-hidden reads with this build's read({ markHidden: true }) (what agents get) and scores the
// text with the ⟦hidden⟧ marks taken out: whether marking what the person cannot see loses or
// adds content (run it with BENCH_RESULTS=0 beside a plain run; it prints how many pages had marks).
//
// --split train|choose|report takes the learned read model's part of every corpus, by a hash of
// the site (shared/read-training/split.mjs), and adds F1 with bootstrap intervals over sites; a
// report run is held out whole (no per-page output). --sample N takes a deterministic N pages of each corpus (a quick run, marked as such in the
// results). --baseline-commit REV builds the collector of that commit (its own build script) as
// the baseline; --baseline-bundle FILE takes a built one. Either also times an older collector build's read() in the same
// pages for the latency table. --pages-out writes per-page scores of the tuning
// pages (never of the held-out ones) for looking at failures. Results: bench/results/read-quality.json
// (BENCH_RESULTS=0 to skip), then `node bench/report.mjs` puts the tables into docs/quality.md.
// Build the collector bundle first: pnpm --filter @sightline/shared run build
import { chromium } from "playwright-core";
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { startRun } from "../lib/results.mjs";
import { seededRandom, median, quantile } from "../lib/stats.mjs";
// The service's settle rule for a scripts-on render (run after the workspace build, as `bench:read` does).
import { ENGINES, waitForDomQuiet } from "../../server/dist/browser/engines.js";
// The learned model's split of the corpora by site (train / choose / report).
import { loadPages as loadSitePages } from "../../shared/read-training/corpus.mjs";
import { bootstrap, pairedBootstrap } from "../../shared/read-training/score.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));

// ------------------------------------------------------------------ arguments
const opt = { corpora: "aeb,wcxb-dev,readability", split: "all", concurrency: "2", seed: "1", extractors: "sightline,readability,defuddle" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, "");
  if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) opt[k] = "true";
  else opt[k] = argv[++i];
}
const corporaDir = resolve(opt["corpora-dir"] ?? join(root, "../shared/corpora/read"));
const wanted = opt.corpora.split(",");
const extractors = opt.extractors.split(",");
// --sample N (every corpus) or --sample aeb:60,wcxb-dev:150 (per corpus; the others whole)
const sampleOf = (name) => {
  if (!opt.sample) return 0;
  if (/^\d+$/.test(opt.sample)) return Number(opt.sample);
  const m = opt.sample.split(",").map((x) => x.split(":")).find(([k]) => k === name);
  return m ? Number(m[1]) : 0;
};
const sampleN = opt.sample ? 1 : 0;
const seed = Number(opt.seed);
if (!existsSync(corporaDir)) {
  console.error(`no read corpora at ${corporaDir} (they live beside the repository: ../shared/corpora/read)`);
  process.exit(2);
}

// ------------------------------------------------------------------ held-out split
/** The hold-out rule, also written in read-holdout.txt: first 8 hex of sha256("sightline-read-holdout/" + id), mod 10 < 3. */
export function isHoldout(id) {
  const h = createHash("sha256").update(`sightline-read-holdout/${id}`).digest("hex");
  return parseInt(h.slice(0, 8), 16) % 10 < 3;
}
const holdoutFile = join(here, "read-holdout.txt");
const holdoutIds = new Set(
  readFileSync(holdoutFile, "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean),
);

// ------------------------------------------------------------------ corpora (ids and ground truth only)
const gz = (p) => (p.endsWith(".gz") ? gunzipSync(readFileSync(p)) : readFileSync(p));
const firstFile = (...ps) => ps.find((p) => existsSync(p) && statSync(p).isFile()) ?? null;

function loadCorpus(name) {
  const dir = join(corporaDir, name);
  if (name === "aeb") {
    const gt = JSON.parse(readFileSync(join(dir, "ground-truth.json"), "utf8"));
    return Object.keys(gt).sort().map((id) => ({
      corpus: "aeb", id, file: firstFile(join(dir, "html", `${id}.html.gz`), join(dir, "html", `${id}.html`)), truth: gt[id].articleBody ?? "",
    }));
  }
  if (name === "wcxb-dev") {
    const out = [];
    for (const f of readdirSync(join(dir, "ground-truth")).filter((f) => f.endsWith(".json")).sort()) {
      const id = f.slice(0, -5);
      const data = JSON.parse(readFileSync(join(dir, "ground-truth", f), "utf8"));
      const g = data.ground_truth;
      if (!g || typeof g !== "object" || Array.isArray(g)) continue;
      const pt = data._internal?.page_type;
      let type = pt == null ? "article" : typeof pt === "object" ? (pt.primary ?? "article") : String(pt);
      if (type === "category") type = "collection";
      out.push({
        corpus: "wcxb-dev", id, file: firstFile(join(dir, "html", `${id}.html.gz`), join(dir, "html", `${id}.html`)),
        truth: g.main_content ?? "", with: g.with ?? [], without: g.without ?? [], title: g.title ?? null, type,
        holdout: holdoutIds.has(id),
      });
    }
    return out;
  }
  if (name === "readability") {
    const out = [];
    for (const d of readdirSync(dir).sort()) {
      const mp = join(dir, d, "expected-metadata.json");
      if (!existsSync(mp)) continue;
      const m = JSON.parse(readFileSync(mp, "utf8"));
      out.push({ corpus: "readability", id: d, file: firstFile(join(dir, d, "source.html"), join(dir, d, "source.html.gz")), title: m.title ?? null, excerpt: m.excerpt ?? null });
    }
    return out;
  }
  throw new Error(`unknown corpus ${name}`);
}

function sample(list, n) {
  const rnd = seededRandom(seed);
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

// --split train|choose|report: the learned model's parts, by a hash of the site
// (shared/read-training/split.mjs). A report run is held out whole: no per-page output.
const SITE_PARTS = ["train", "choose", "report"];
const sitePart = SITE_PARTS.includes(opt.split) ? opt.split : null;
const siteOf = new Map(loadSitePages(wanted, corporaDir).map((p) => [`${p.corpus}/${p.id}`, p]));
let pages = [];
for (const name of wanted) {
  let items = loadCorpus(name).map((p) => ({ ...p, site: siteOf.get(`${p.corpus}/${p.id}`)?.site ?? p.id, part: siteOf.get(`${p.corpus}/${p.id}`)?.part }));
  if (opt.split === "tune") items = items.filter((p) => !p.holdout);
  if (opt.split === "holdout") items = items.filter((p) => p.holdout);
  if (sitePart) items = items.filter((p) => p.part === sitePart).map((p) => ({ ...p, holdout: sitePart === "report" || p.holdout }));
  if (sampleOf(name)) items = sample(items, sampleOf(name));
  pages.push(...items);
}
if (opt.ids) {
  const keep = new Set(opt.ids.split(","));
  pages = pages.filter((p) => keep.has(p.id) && !p.holdout);
}

// ------------------------------------------------------------------ scoring
const WORD = /[\p{L}\p{N}_]+/gu;
const tokens = (s) => (s ? s.match(WORD) ?? [] : []);
const norm = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const counts = (list) => {
  const m = new Map();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};

/** AEB: per-page shingle TP/FP/FN, normalised by their sum. */
function aebPage(truth, pred) {
  const sh = (text) => {
    const t = tokens(text);
    const out = [];
    for (let i = 0; i < Math.max(1, t.length - 3); i++) if (t.length) out.push(t.slice(i, i + 4).join("\u0001"));
    return counts(out);
  };
  const a = sh(truth), b = sh(pred);
  let tp = 0, fp = 0, fn = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? 0, y = b.get(k) ?? 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  const s = tp + fp + fn || 1;
  return { tp: tp / s, fp: fp / s, fn: fn / s };
}
function aebAggregate(list) {
  const p = mean(list.filter((m) => m.tp + m.fp > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fp))));
  const r = mean(list.filter((m) => m.tp + m.fn > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fn))));
  return { f1: (2 * p * r) / (p + r), precision: p, recall: r };
}
/** WCXB: lower-cased word multisets. */
function wordPage(truth, pred) {
  const r = tokens(String(truth).toLowerCase()), p = tokens(String(pred).toLowerCase());
  if (!r.length) return p.length ? { precision: 0, recall: 0, f1: 0 } : { precision: 1, recall: 1, f1: 1 };
  if (!p.length) return { precision: 0, recall: 0, f1: 0 };
  const rc = counts(r);
  let overlap = 0;
  for (const [k, v] of counts(p)) overlap += Math.min(v, rc.get(k) ?? 0);
  const precision = overlap / p.length, recall = overlap / r.length;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}
const snippetRate = (text, list) => {
  if (!list.length) return 1;
  const low = String(text).toLowerCase();
  return list.filter((s) => low.includes(String(s).toLowerCase())).length / list.length;
};
function wordAggregate(list) {
  return { f1: mean(list.map((m) => m.f1)), precision: mean(list.map((m) => m.precision)), recall: mean(list.map((m) => m.recall)) };
}

// ------------------------------------------------------------------ page server
const byPath = new Map(pages.map((p, i) => [`/p/${i}.html`, p]));
const server = createServer((req, res) => {
  const p = byPath.get(new URL(req.url ?? "/", "http://x").pathname);
  if (!p || !p.file) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(gz(p.file));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

// ------------------------------------------------------------------ bundles
const bundlePath = resolve(opt.bundle ?? join(root, "shared/dist/collector.js"));
const bundle = readFileSync(bundlePath, "utf8");
const require = createRequire(join(root, "bench/package.json"));
/**
 * The collector as it was at a commit: that commit's shared/ sources and tsconfig files built by its own
 * scripts/build-collector.mjs, with today's shared/node_modules linked in (the bundle's
 * libraries). A results file can then name its baseline by commit, which anyone can rebuild.
 */
function collectorAt(commit) {
  const dir = mkdtempSync(join(tmpdir(), "sightline-baseline-"));
  try {
    execFileSync("sh", ["-c", `git -C "$1" archive "$2" tsconfig.json shared/tsconfig.json shared/src shared/scripts | tar -x -C "$3"`, "sh", root, commit, dir]);
    symlinkSync(join(root, "shared/node_modules"), join(dir, "shared/node_modules"), "dir");
    execFileSync(process.execPath, [join(dir, "shared/scripts/build-collector.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
    return readFileSync(join(dir, "shared/dist/collector.js"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const baselineName = opt["baseline-commit"] ? `commit ${opt["baseline-commit"]}` : opt["baseline-bundle"];
const baseline = opt["baseline-commit"]
  ? collectorAt(opt["baseline-commit"])
  : opt["baseline-bundle"] ? readFileSync(resolve(opt["baseline-bundle"]), "utf8") : null;
const defuddleVersion = JSON.parse(readFileSync(join(require.resolve("defuddle"), "../../package.json"), "utf8")).version;
// Defuddle's browser build (UMD) as one script defining globalThis.Defuddle.
const defuddleSource = extractors.includes("defuddle")
  ? (await build({
      stdin: { contents: `import D from "defuddle"; globalThis.Defuddle = D;`, resolveDir: join(root, "bench"), loader: "js" },
      bundle: true, format: "iife", platform: "browser", target: "chrome110", write: false, logLevel: "error",
    })).outputFiles[0].text
  : "";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const chromiumVersion = browser.version();

/** Runs in the page: the three extractors on the live document, plus timings. */
async function inPage(args) {
  const g = globalThis;
  const blockText = (root) => {
    // Defuddle returns HTML: the same block-aware text as the collector's text format.
    const BLOCK = /^(address|article|aside|blockquote|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|thead|tfoot|tr|ul|caption)$/;
    const parts = [];
    const walk = (n, pre) => {
      for (let c = n.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) parts.push(pre ? c.nodeValue : c.nodeValue.replace(/\s+/g, " "));
        else if (c.nodeType === 1) {
          const t = c.localName;
          if (t === "script" || t === "style" || t === "template" || t === "noscript") continue;
          if (t === "br") { parts.push("\n"); continue; }
          const b = BLOCK.test(t);
          if (b) parts.push("\n");
          walk(c, pre || t === "pre");
          if (t === "td" || t === "th") parts.push("\t");
          else if (b) parts.push("\n");
        }
      }
    };
    walk(root, false);
    return parts.join("").split("\n").map((l) => l.trim()).join("\n").replace(/\n{3,}/g, "\n\n").trim();
  };
  // As the service does before reading (server/src/observe/collector.ts): React's streamed
  // parts, still hidden on a page read with its scripts off, are put in place. Every extractor
  // reads the page so revealed (a build without revealStreamed reads it as it came).
  g.sightline.revealStreamed?.();
  void document.body?.offsetHeight; // layout done before any timing
  const out = { lang: (document.documentElement.getAttribute("lang") || "").trim().toLowerCase().split(/[-_]/)[0] || "-" };
  // The corpora hold each page's HTML only and the server here serves nothing else, so a linked
  // style sheet (other than a data: URL) never loads: such a page renders unstyled (hidden menus,
  // modals and form messages on screen).
  out.styles = Array.from(document.querySelectorAll('link[rel~="stylesheet" i][href]')).some((l) => !/^data:/i.test(l.href)) ? "missing" : "loaded";
  const time = async (fn) => {
    const t = performance.now();
    const r = await fn();
    return [r, performance.now() - t];
  };
  if (args.extractors.includes("sightline")) {
    const cur = g.sightline;
    const base = g.__slBase;
    // The first call of each build warms the page's style and layout caches: outputs kept,
    // times not. Then the two are timed in the order baseline, this, this, baseline and each
    // build's faster time kept (a garbage collection falls on one call or another), so that
    // neither gains from its place.
    const ro = args.markHidden ? { format: "text", markHidden: true } : { format: "text" };
    const unmark = (t) => (args.markHidden ? t.replace(/⟦\/?hidden⟧/g, "") : t);
    const [r] = await time(() => cur.read(ro));
    out.sightline = { text: unmark(r.content), title: unmark(r.title), description: unmark(r.description), extractor: r.extractor, page_type: r.page_type, stats: r.stats, hidden: r.hidden_passages ?? 0 };
    if (base) {
      const [b] = await time(() => base.read({ format: "text" }));
      out.baseline = { text: b.content, title: b.title, description: b.description, page_type: b.page_type };
      const [, b1] = await time(() => base.read({ format: "text" }));
      const [, c1] = await time(() => cur.read(ro));
      const [, c2] = await time(() => cur.read(ro));
      const [, b2] = await time(() => base.read({ format: "text" }));
      out.ms = { current: Math.min(c1, c2), baseline: Math.min(b1, b2) };
    } else {
      const [, t1] = await time(() => cur.read(ro));
      out.ms = { current: t1 };
    }
  }
  if (args.extractors.includes("readability")) {
    const r = await g.sightline.read({ format: "text", fallback: false, stripHidden: false });
    out.readability = { text: r.content, title: r.title, description: r.description };
  }
  if (args.extractors.includes("defuddle")) {
    try {
      const d = new g.Defuddle(document, { url: location.href, useAsync: false }).parse();
      const holder = document.createElement("div");
      holder.innerHTML = d.content || "";
      out.defuddle = { text: blockText(holder), title: d.title || "", description: d.description || "" };
    } catch (e) {
      out.defuddle = { text: "", title: "", description: "", error: String(e).slice(0, 200) };
    }
  }
  return out;
}

const QUIET = ENGINES.performance;
const results = new Array(pages.length);
let done = 0;
const t0 = Date.now();
/** One reading of page i, with its scripts on or off. */
async function readPage(i, js) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: js });
  await context.route("**/*", (route) => {
    const req = route.request();
    if (!req.url().startsWith(origin) || ["image", "media", "font"].includes(req.resourceType())) return route.abort();
    return route.continue();
  });
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/p/${i}.html`, { waitUntil: "domcontentloaded", timeout: 30000 });
    // With scripts on, settle as the service's performance engine does (its DOM-quiet wait).
    if (js) await waitForDomQuiet(page, QUIET.quietMs, QUIET.quietBudgetMs);
    if (baseline) {
      await page.evaluate(baseline);
      await page.evaluate("globalThis.__slBase = globalThis.sightline");
    }
    await page.evaluate(bundle);
    if (defuddleSource) await page.evaluate(defuddleSource);
    return await page.evaluate(inPage, { extractors, markHidden: opt["mark-hidden"] === "true" });
  } finally {
    await context.close().catch(() => {});
  }
}

// Like the service's read mode (server/src/observe/modes/read.ts): a page is read with its
// scripts off first; an extractor whose static reading is short (under 250 characters, or a
// "please enable JavaScript" shell) gets its reading of the page rendered with scripts on.
const NEEDS_SCRIPT = /\b(?:enable|turn on|activate|requires?|needs?)\b[^.\n]{0,40}\bjavascript\b|\bjavascript\b[^.\n]{0,30}\b(?:disabled|required|is off|not enabled)\b/i;
const short = (o) => {
  const n = (o?.text ?? "").replace(/\s+/g, " ").trim().length;
  return n < 250 || (n < 1500 && NEEDS_SCRIPT.test(o.text));
};
async function one(i) {
  try {
    const r = await readPage(i, false);
    const names = ["sightline", "baseline", "readability", "defuddle"].filter((e) => r[e] && short(r[e]));
    if (names.length) {
      try {
        const j = await readPage(i, true);
        for (const e of names) if (j[e]) r[e] = { ...j[e], scripts: true };
      } catch {
        /* the static reading stands */
      }
    }
    results[i] = r;
  } catch (e) {
    results[i] = { error: String(e).slice(0, 200) };
  } finally {
    done++;
    if (done % 50 === 0 || done === pages.length) process.stderr.write(`[read-eval] ${done}/${pages.length} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
}
const run = startRun("read-quality", { title: "Read mode: Sightline, Readability.js alone and Defuddle on the same pages", quick: sampleN > 0 });
run.machine({ chromium: chromiumVersion, defuddle: defuddleVersion });
try {
  let next = 0;
  await Promise.all(Array.from({ length: Number(opt.concurrency) }, async () => {
    while (next < pages.length) await one(next++);
  }));
} finally {
  await browser.close();
  server.close();
}

// ------------------------------------------------------------------ scores
const NAMES = { sightline: "Sightline", baseline: "Sightline before", readability: "Readability.js alone", defuddle: `Defuddle ${defuddleVersion}` };
// With --baseline-bundle the older build's output is a column of its own, beside this build's.
const ex = baseline && extractors.includes("sightline") ? ["sightline", "baseline", ...extractors.filter((e) => e !== "sightline")] : extractors;
const outOf = (i, e) => results[i]?.[e] ?? { text: "", title: "", description: "" };
const failures = results.filter((r) => r?.error).length;
if (opt["mark-hidden"] === "true") {
  const marked = results.filter((r) => r?.sightline?.hidden > 0).length;
  process.stderr.write(`[read-eval] markHidden: ${marked} of ${pages.length} pages have marked passages (${results.reduce((n, r) => n + (r?.sightline?.hidden ?? 0), 0)} passages)\n`);
}

/** Groups → per-extractor aggregates. `key(page)` names the group (null: left out). */
function groups(filter, key) {
  const map = new Map();
  pages.forEach((p, i) => {
    if (!filter(p)) return;
    const k = key(p, i);
    if (k == null) return;
    if (!map.has(k)) map.set(k, []);
    map.get(k).push(i);
  });
  return map;
}
function scoreSet(idx, corpus) {
  const row = { n: idx.length };
  for (const e of ex) {
    if (corpus === "aeb") row[e] = aebAggregate(idx.map((i) => aebPage(pages[i].truth, outOf(i, e).text)));
    else {
      row[e] = wordAggregate(idx.map((i) => wordPage(pages[i].truth, outOf(i, e).text)));
      row[e].without = mean(idx.map((i) => snippetRate(outOf(i, e).text, pages[i].without)));
      row[e].with = mean(idx.map((i) => snippetRate(outOf(i, e).text, pages[i].with)));
    }
  }
  return row;
}
const prf = (row) => ex.flatMap((e) => [row[e]?.f1 ?? null, row[e]?.precision ?? null, row[e]?.recall ?? null]);
const prfCols = ex.flatMap((e) => [{ label: `${NAMES[e]} F1`, format: "fixed3" }, { label: "P", format: "fixed3" }, { label: "R", format: "fixed3" }]);

const sets = sitePart
  ? [
      [`AEB, ${sitePart} part`, (p) => p.corpus === "aeb", "aeb"],
      [`wcxb-dev, ${sitePart} part`, (p) => p.corpus === "wcxb-dev", "wcxb"],
    ]
  : [
      ["AEB", (p) => p.corpus === "aeb", "aeb"],
      ["wcxb-dev, tuning part", (p) => p.corpus === "wcxb-dev" && !p.holdout, "wcxb"],
      ["wcxb-dev, held out", (p) => p.corpus === "wcxb-dev" && p.holdout, "wcxb"],
    ];
const overview = [];
const figures = {};
for (const [label, f, kind] of sets) {
  const idx = pages.map((p, i) => (f(p) ? i : -1)).filter((i) => i >= 0);
  if (!idx.length) continue;
  const row = scoreSet(idx, kind);
  overview.push([label, row.n, kind === "aeb" ? "4-gram shingles" : "words", ...prf(row)]);
  figures[label.replace(/[^a-z]+/gi, "_").toLowerCase()] = Object.fromEntries(ex.map((e) => [e, Number(row[e].f1.toFixed(4))]));
}
run.table({
  id: "overview",
  title: "Main content: F1, precision and recall per corpus",
  columns: ["corpus", { label: "pages", format: "int" }, "tokens", ...prfCols],
  rows: overview,
  note: sitePart
    ? `AEB: the benchmark's 4-gram shingle scores (P and R averaged over pages, F1 of the two). wcxb-dev: word P/R/F1 averaged over pages. The ${sitePart} part: the sites whose name hashes into it (shared/read-training/split.mjs)${sitePart === "report" ? ", never trained or chosen on, never looked at page by page" : ""}.`
    : "AEB: the benchmark's 4-gram shingle scores (P and R averaged over pages, F1 of the two). wcxb-dev: word P/R/F1 averaged over pages. The held-out part (~30% of wcxb-dev by page-id hash, bench/quality/read-holdout.txt) is never looked at page by page.",
});

// F1 with 95% bootstrap intervals (sites resampled, 1,000 rounds), per corpus and wcxb-dev page
// type, and Sightline's difference from each other extractor on the same pages (paired).
if (sitePart || opt.ci === "true") {
  const per = (i, e, kind) => (kind === "aeb" ? aebPage(pages[i].truth, outOf(i, e).text) : wordPage(pages[i].truth, outOf(i, e).text));
  const aggOf = (kind) => (kind === "aeb" ? (ms) => aebAggregate(ms).f1 : (ms) => wordAggregate(ms).f1);
  const order = ["article", "forum", "product", "collection", "listing", "documentation", "service"];
  const groupsCi = [...sets.map(([label, f, kind]) => [label, f, kind]), ...order.map((t) => [`wcxb-dev ${t}`, (p) => p.corpus === "wcxb-dev" && p.type === t, "wcxb"])];
  const others = ex.filter((e) => e !== "sightline");
  const rows = [];
  for (const [label, f, kind] of groupsCi) {
    const idx = pages.map((p, i) => (f(p) ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    const a = aggOf(kind);
    const ci = (e) => {
      const items = idx.map((i) => ({ site: pages[i].site, m: per(i, e, kind) }));
      const [lo, hi] = bootstrap(items, a);
      return `${a(items.map((x) => x.m)).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
    };
    const diff = (e) => {
      const [lo, hi] = pairedBootstrap(idx.map((i) => ({ site: pages[i].site, a: per(i, "sightline", kind), b: per(i, e, kind) })), a);
      return `[${lo >= 0 ? "+" : ""}${lo.toFixed(3)}, ${hi >= 0 ? "+" : ""}${hi.toFixed(3)}]`;
    };
    rows.push([label, idx.length, new Set(idx.map((i) => pages[i].site)).size, ...ex.map(ci), ...(ex.includes("sightline") ? others.map(diff) : [])]);
  }
  run.table({
    id: "intervals",
    title: "F1 with 95% bootstrap intervals (sites resampled), and Sightline's difference from each (paired)",
    columns: ["pages of", { label: "pages", format: "int" }, { label: "sites", format: "int" }, ...ex.map((e) => `${NAMES[e]} F1 [95%]`), ...(ex.includes("sightline") ? others.map((e) => `Sightline − ${NAMES[e]}`) : [])],
    rows,
    note: "1,000 bootstrap rounds resampling sites (a site's pages move together); an interval of the difference that excludes 0 says the two differ on such pages.",
  });
}

// per page type (wcxb-dev), tuning and held-out apart
for (const [label, hold] of sitePart ? [[`${sitePart} part`, sitePart === "report"]] : [["tuning part", false], ["held out", true]]) {
  const g = groups((p) => p.corpus === "wcxb-dev" && (sitePart !== null || p.holdout === hold), (p) => p.type);
  if (!g.size) continue;
  const order = ["article", "forum", "product", "collection", "listing", "documentation", "service"];
  const rows = [...g.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([k, idx]) => {
    const row = scoreSet(idx, "wcxb");
    return [k, row.n, ...prf(row)];
  });
  run.table({ id: hold ? "types-holdout" : "types", title: `wcxb-dev per page type, ${label}`, columns: ["page type", { label: "pages", format: "int" }, ...prfCols], rows });
}

// boilerplate / content snippets (wcxb-dev)
{
  const rows = [];
  for (const [label, f] of sets.slice(1)) {
    const idx = pages.map((p, i) => (f(p) ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    const row = scoreSet(idx, "wcxb");
    rows.push([label, row.n, ...ex.flatMap((e) => [row[e].with, row[e].without])]);
  }
  if (rows.length) {
    run.table({
      id: "snippets", title: "wcxb-dev snippets: main-content snippets kept (higher is better) and boilerplate snippets let through (lower is better)",
      columns: ["corpus", { label: "pages", format: "int" }, ...ex.flatMap((e) => [{ label: `${NAMES[e]} kept`, format: "percent" }, { label: "boilerplate", format: "percent" }])],
      rows,
    });
  }
}

// per language (the page's <html lang>), AEB and wcxb-dev, tuning and held-out together
{
  const rows = [];
  for (const [corpus, kind] of [["aeb", "aeb"], ["wcxb-dev", "wcxb"]]) {
    const g = groups((p) => p.corpus === corpus, (p, i) => results[i]?.lang ?? "-");
    const small = [];
    for (const [k, idx] of [...g.entries()].sort((a, b) => b[1].length - a[1].length)) {
      if (idx.length < 8) { small.push(...idx); continue; }
      const row = scoreSet(idx, kind);
      rows.push([corpus, k === "-" ? "(no lang)" : k, row.n, ...prf(row)]);
    }
    if (small.length) rows.push([corpus, "other", small.length, ...prf(scoreSet(small, kind))]);
  }
  if (rows.length) run.table({ id: "languages", title: "Per language (the page's `<html lang>`; fewer than 8 pages: other)", columns: ["corpus", "lang", { label: "pages", format: "int" }, ...prfCols], rows });
}

// by style sheets: pages that rendered with every linked style sheet beside those that did not
{
  const rows = [];
  for (const [corpus, kind] of [["aeb", "aeb"], ["wcxb-dev", "wcxb"]]) {
    const g = groups((p) => p.corpus === corpus, (p, i) => results[i]?.styles ?? "-");
    for (const k of ["loaded", "missing"]) {
      const idx = g.get(k);
      if (idx?.length) rows.push([corpus, k === "loaded" ? "all loaded (or none linked)" : "some did not load", idx.length, ...prf(scoreSet(idx, kind))]);
    }
  }
  if (rows.length) {
    run.table({
      id: "styles", title: "By style sheets: the corpora hold each page's HTML only, so style sheets linked from elsewhere do not load here",
      columns: ["corpus", "style sheets", { label: "pages", format: "int" }, ...prfCols], rows,
      note: "A page without its style sheets renders unstyled: what its CSS hides (closed menus and modals, form messages, sr-only text) is on screen, and the layout rules of the live-page cleaning see it. Tuning and held-out pages together.",
    });
  }
}

// titles and descriptions
{
  const rows = [];
  const exact = (idx, want, got) => {
    const scored = idx.filter((i) => want(pages[i]) && norm(want(pages[i])));
    return ex.map((e) => (scored.length ? scored.filter((i) => norm(got(outOf(i, e))) === norm(want(pages[i]))).length / scored.length : null)).concat([scored.length]);
  };
  const rd = pages.map((p, i) => (p.corpus === "readability" ? i : -1)).filter((i) => i >= 0);
  if (rd.length) {
    const t = exact(rd, (p) => p.title, (o) => o.title);
    rows.push(["Readability test pages", "title", t.pop(), ...t]);
    const d = exact(rd, (p) => p.excerpt, (o) => o.description);
    rows.push(["Readability test pages", "description (excerpt)", d.pop(), ...d]);
  }
  for (const [label, hold] of sitePart ? [[`wcxb-dev, ${sitePart} part`, sitePart === "report"]] : [["wcxb-dev, tuning part", false], ["wcxb-dev, held out", true]]) {
    const idx = pages.map((p, i) => (p.corpus === "wcxb-dev" && (sitePart !== null || p.holdout === hold) ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    const t = exact(idx, (p) => p.title, (o) => o.title);
    rows.push([label, "title", t.pop(), ...t]);
  }
  if (rows.length) run.table({ id: "metadata", title: "Title and description exact match (whitespace-normalised)", columns: ["corpus", "field", { label: "pages", format: "int" }, ...ex.map((e) => ({ label: NAMES[e], format: "percent" }))], rows });
}

// the page_type read() reports, against wcxb-dev's own page types (its collections and
// listings are Sightline's `listing`, its service pages Sightline's `page`)
{
  const expected = { article: "article", forum: "forum", product: "product", collection: "listing", listing: "listing", documentation: "documentation", service: "page" };
  // An older build without page_type (before it existed) gets no column rather than 0%.
  const mine = ex.filter((e) => (e === "sightline" || e === "baseline") && results.some((r) => r?.[e]?.page_type));
  const g = groups((p) => p.corpus === "wcxb-dev" && p.type in expected, (p) => p.type);
  const order = Object.keys(expected);
  const rows = [...g.entries()].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([k, idx]) => {
    const counts = new Map();
    for (const i of idx) counts.set(outOf(i, "sightline").page_type ?? "-", (counts.get(outOf(i, "sightline").page_type ?? "-") ?? 0) + 1);
    const top = [...counts.entries()].filter(([t]) => t !== expected[k]).sort((a, b) => b[1] - a[1]).slice(0, 2);
    return [k, expected[k], idx.length, ...mine.map((e) => idx.filter((i) => outOf(i, e).page_type === expected[k]).length / idx.length), top.map(([t, n]) => `${t} ${n}`).join(", ")];
  });
  if (rows.length && mine.length) {
    run.table({
      id: "page-types", title: "page_type against wcxb-dev's page types (every wcxb-dev page of the run)",
      columns: ["wcxb-dev type", "expected page_type", { label: "pages", format: "int" }, ...mine.map((e) => ({ label: `${NAMES[e]} agrees`, format: "percent" })), `${NAMES.sightline}: most common others`],
      rows,
      note: "page_type comes from what the page declares (schema.org, Open Graph) and, failing that, its structure; it only sets the extractor's thresholds, and a caller may read it as a hint.",
    });
  }
}

// latency of read() in the page
{
  const cur = results.map((r) => r?.ms?.current).filter(Number.isFinite);
  const base = results.map((r) => r?.ms?.baseline).filter(Number.isFinite);
  if (cur.length) {
    const rows = [["this build", cur.length, median(cur), quantile(cur, 0.95), base.length ? median(cur) / median(base) : null]];
    if (base.length) rows.push([`baseline (${baselineName})`, base.length, median(base), quantile(base, 0.95), 1]);
    run.table({
      id: "latency", title: "read() time in the page (text format, ms)",
      columns: ["collector", { label: "pages", format: "int" }, { label: "median ms", format: "fixed1" }, { label: "p95 ms", format: "fixed1" }, { label: "median / baseline", format: "ratio" }],
      rows,
      note: base.length ? "Both builds in the same pages, after one untimed call of each (style and layout warm); timed baseline, this, this, baseline, the faster of each build's two times." : undefined,
    });
    figures.read_ms_median = Number(median(cur).toFixed(1));
    if (base.length) figures.read_ms_ratio = Number((median(cur) / median(base)).toFixed(3));
  }
}
for (const [k, v] of Object.entries(figures)) run.figure(k, v);
if (failures) run.note(`${failures} page(s) failed to load or extract and score as empty output.`);
run.note(`Pages opened in Chromium ${chromiumVersion} at 1280×900, nothing off loopback, no images, media or fonts, scripts off first (React's streamed parts put in place when the build can) and on for an extractor whose static reading is short (as the service reads); Readability.js alone = read({ fallback: false, stripHidden: false }) of the same collector; Defuddle ${defuddleVersion} is given the live document.`);

// per-page scores of the tuning pages only, for looking at failures
if (opt["pages-out"]) {
  const rows = pages.map((p, i) => {
    if (p.holdout) return null;
    const r = results[i] ?? {};
    const s = {};
    for (const e of ex) {
      const o = outOf(i, e);
      s[e] = p.corpus === "aeb" ? aebPage(p.truth, o.text) : p.corpus === "wcxb-dev" ? wordPage(p.truth, o.text) : { title: o.title === p.title, description: o.description === p.excerpt };
    }
    return { corpus: p.corpus, id: p.id, type: p.type, lang: r.lang, error: r.error, extractor: r.sightline?.extractor, page_type: r.sightline?.page_type, stats: r.sightline?.stats, ms: r.ms, scores: s,
      title: r.sightline?.title, chars: Object.fromEntries(ex.map((e) => [e, outOf(i, e).text.length])) };
  }).filter(Boolean);
  writeFileSync(resolve(opt["pages-out"]), JSON.stringify(rows, null, 1));
  if (opt["keep-text"]) {
    const texts = {};
    pages.forEach((p, i) => { if (!p.holdout) texts[`${p.corpus}/${p.id}`] = Object.fromEntries(ex.map((e) => [e, outOf(i, e).text])); });
    writeFileSync(resolve(opt["pages-out"]).replace(/\.json$/, "") + ".texts.json", JSON.stringify(texts));
  }
}
if (opt.ids) process.env.BENCH_RESULTS = "0"; // a hand-picked subset never replaces the docs' figures
run.write();
