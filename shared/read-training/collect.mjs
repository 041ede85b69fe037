// Renders every page of the read corpora once in Chromium, as read-eval and the service do
// (scripts off, React's streamed parts put in place; scripts on when the rules' reading is
// short), and writes what the learned read model sees of it: readBlocks() of the collector
// bundle (every block's text and feature row, the page's feature row, the rules' text) and the
// title candidates (titles.mjs). Rendering is the expensive part (about 1,800 pages): it is
// done once into a cache, and training (train.mjs) runs on the cache.
//
//   node shared/read-training/collect.mjs [--out /tmp/sightline-read] [--concurrency 2]
//        [--corpora aeb,wcxb-dev,readability] [--parts train,choose] [--ids a,b] [--bundle shared/dist/collector.js] [--force]
//
// Build the collector first (pnpm --filter @sightline/shared run build). One file per page:
// OUT/<corpus>/<id>.json.gz; pages already there are skipped (--force renders them again).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { loadPages } from "./corpus.mjs";
import { options, pageRenderer } from "./render.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = options();
const out = resolve(opt("out", join(tmpdir(), "sightline-read")));
const concurrency = Number(opt("concurrency", "2"));
const bundle = readFileSync(resolve(opt("bundle", join(root, "shared/dist/collector.js"))), "utf8");
const force = opt("force", "false") === "true";
let pages = loadPages(opt("corpora", "aeb,wcxb-dev,readability").split(","));
// --parts train,choose: the report part is never needed for training (read-eval reads it).
if (opt("parts", null)) {
  const parts = new Set(opt("parts").split(","));
  pages = pages.filter((p) => parts.has(p.part));
}
if (opt("ids", null)) {
  const keep = new Set(opt("ids").split(","));
  pages = pages.filter((p) => keep.has(p.id));
}
pages = pages.filter((p) => p.file && (force || !existsSync(join(out, p.corpus, `${p.id}.json.gz`))));
for (const c of new Set(pages.map((p) => p.corpus))) mkdirSync(join(out, c), { recursive: true });

const renderer = await pageRenderer(pages, bundle);

/** In the page: what the model sees, and the title candidates. */
function inPage() {
  const g = globalThis;
  g.sightline.revealStreamed?.();
  const t0 = performance.now();
  const b = g.sightline.readBlocks({});
  const ms = performance.now() - t0;
  const meta = (sel) => document.querySelector(sel)?.getAttribute("content") ?? "";
  const shown = (tag) => Array.from(document.getElementsByTagName(tag)).filter((h) => h.getClientRects().length > 0).slice(0, 5).map((h) => {
    const r = h.getBoundingClientRect();
    return { text: (h.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 400), size: parseFloat(getComputedStyle(h).fontSize) || 0, y: r.top + scrollY };
  });
  const ld = [];
  for (const s of Array.from(document.querySelectorAll('script[type="application/ld+json"]')).slice(0, 8)) {
    try {
      const walk = (v, d) => {
        if (!v || typeof v !== "object" || d > 3) return;
        if (Array.isArray(v)) return v.slice(0, 20).forEach((x) => walk(x, d));
        for (const k of ["headline", "name"]) if (typeof v[k] === "string") ld.push({ key: k, type: String(v["@type"] ?? ""), text: v[k].slice(0, 400) });
        if (v["@graph"]) walk(v["@graph"], d + 1);
        if (v.mainEntity) walk(v.mainEntity, d + 1);
      };
      walk(JSON.parse(s.textContent ?? ""), 0);
    } catch { /* broken JSON-LD */ }
  }
  const titleRaw = { doc: document.title, og: meta('meta[property="og:title" i]'), twitter: meta('meta[name="twitter:title" i]'), site: meta('meta[property="og:site_name" i]'), h1: shown("h1"), h2: shown("h2").slice(0, 2), ld: ld.slice(0, 10) };
  const styles = Array.from(document.querySelectorAll('link[rel~="stylesheet" i][href]')).some((l) => !/^data:/i.test(l.href)) ? "missing" : "loaded";
  // Without a model shipped, the rules' content is what read() answers today.
  return b && { ...b, ms, styles, titleRaw, current: { title: b.title, text: b.rulesText, page_type: b.pageType } };
}

const render = (i, js) => renderer.render(i, js, inPage);

const NEEDS_SCRIPT = /\b(?:enable|turn on|activate|requires?|needs?)\b[^.\n]{0,40}\bjavascript\b|\bjavascript\b[^.\n]{0,30}\b(?:disabled|required|is off|not enabled)\b/i;
const short = (text) => {
  const n = (text ?? "").replace(/\s+/g, " ").trim().length;
  return n < 250 || (n < 1500 && NEEDS_SCRIPT.test(text));
};

let done = 0, failed = 0;
const t0 = Date.now();
async function one(i) {
  const p = pages[i];
  try {
    let r = await render(i, false);
    // As the service reads: a short reading with scripts off is read again with them on.
    if (short(r?.current?.text)) {
      try {
        const j = await render(i, true);
        if (j && !short(j.current?.text)) r = { ...j, scripts: true };
      } catch {
        /* the static reading stands */
      }
    }
    if (!r || !r.rows) throw new Error("no blocks");
    const rows = Buffer.from(Float32Array.from(r.rows).buffer).toString("base64");
    const rec = { corpus: p.corpus, id: p.id, site: p.site, part: p.part, type: p.type, ...r, rows };
    writeFileSync(join(out, p.corpus, `${p.id}.json.gz`), gzipSync(JSON.stringify(rec)));
  } catch (e) {
    failed++;
    process.stderr.write(`[collect] ${p.corpus}/${p.id}: ${String(e).slice(0, 160)}\n`);
  } finally {
    done++;
    if (done % 25 === 0 || done === pages.length) process.stderr.write(`[collect] ${done}/${pages.length} ${((Date.now() - t0) / 1000).toFixed(0)} s, ${failed} failed\n`);
  }
}
try {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < pages.length) await one(next++);
  }));
} finally {
  await renderer.close();
}
console.log(`collected ${done - failed} pages into ${out} (${failed} failed)`);
