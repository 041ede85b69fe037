// The title sources of the read corpora's train and choose pages, for looking at title misses
// without training anything: each page rendered as collect.mjs does (scripts off, on when the
// rules' reading is short), and what read()'s title rules saw (the document title, Open Graph,
// Twitter, site names, the rendered <h1>/<h2>s, JSON-LD), what they picked, Readability's
// title, the chooser's candidates, and the page's truth. The report part is never read here.
//
//   node shared/read-training/titles.mjs --out /tmp/titles.json [--corpora wcxb-dev,readability]
//        [--parts train,choose] [--sample wcxb-dev:250] [--concurrency 2] [--bundle shared/dist/collector.js]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { loadPages } from "./corpus.mjs";
import { options, pageRenderer } from "./render.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = options();
const out = resolve(opt("out", "/tmp/sightline-titles.json"));
const concurrency = Number(opt("concurrency", "2"));
const bundle = readFileSync(resolve(opt("bundle", join(root, "shared/dist/collector.js"))), "utf8");
const parts = new Set(opt("parts", "train,choose").split(","));
if (parts.has("report")) throw new Error("the report part is never looked at page by page");
let pages = loadPages(opt("corpora", "wcxb-dev,readability").split(",")).filter((p) => p.file && p.title && parts.has(p.part));
// --sample corpus:N,...: a deterministic N pages of that corpus (by a hash of the id)
for (const s of (opt("sample", "") ?? "").split(",").filter(Boolean)) {
  const [name, n] = s.split(":");
  const h = (id) => createHash("sha256").update(`titles/${id}`).digest("hex");
  const of = pages.filter((p) => p.corpus === name).sort((a, b) => (h(a.id) < h(b.id) ? -1 : 1)).slice(0, Number(n));
  const keep = new Set(of);
  pages = pages.filter((p) => p.corpus !== name || keep.has(p));
}

// in a mixed order, so that the file written as it goes holds some of every corpus
pages.sort((a, b) => (createHash("sha256").update(a.id).digest("hex") < createHash("sha256").update(b.id).digest("hex") ? -1 : 1));
process.stderr.write(`[titles] ${pages.length} pages\n`);
const renderer = await pageRenderer(pages, bundle);

async function inPage() {
  const g = globalThis;
  g.sightline.revealStreamed?.();
  const r = await g.sightline.read({ format: "text" });
  const b = g.sightline.readBlocks({});
  const meta = (sel) => document.querySelector(sel)?.getAttribute("content") ?? "";
  const shown = (tag) => Array.from(document.getElementsByTagName(tag)).slice(0, 8).map((h) => {
    const rect = h.getBoundingClientRect();
    return { text: (h.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 400), visible: h.getClientRects().length > 0, size: parseFloat(getComputedStyle(h).fontSize) || 0, y: Math.round(rect.top + scrollY), inMain: !!h.closest("main, article, [role=main]"), inHeader: !!h.closest("header, nav, [role=banner]") };
  });
  return {
    read: r.title, length: r.content.length, rules: b?.title, readability: b?.readabilityTitle, candidates: b?.titles.texts ?? [], pageType: r.page_type,
    doc: document.title, og: meta('meta[property="og:title" i]'), twitter: meta('meta[name="twitter:title" i]'), site: meta('meta[property="og:site_name" i]'),
    app: meta('meta[name="application-name" i]'), canonical: document.querySelector('link[rel="canonical" i]')?.getAttribute("href") ?? "", ogUrl: meta('meta[property="og:url" i]'),
    h1: shown("h1"), h2: shown("h2").slice(0, 4),
  };
}

const render = (i, js) => renderer.render(i, js, inPage);

const rows = [];
let done = 0;
async function one(i) {
  const p = pages[i];
  try {
    let r = await render(i, false);
    if (r.length < 250) {
      try {
        const j = await render(i, true);
        if (j.length >= 250) r = { ...j, scripts: true };
      } catch { /* the static reading stands */ }
    }
    rows.push({ corpus: p.corpus, id: p.id, part: p.part, type: p.type, host: p.host, truth: p.title, ...r });
  } catch (e) {
    process.stderr.write(`[titles] ${p.corpus}/${p.id}: ${String(e).slice(0, 160)}\n`);
  }
  if (++done % 25 === 0) {
    process.stderr.write(`[titles] ${done}/${pages.length}\n`);
    writeFileSync(out, JSON.stringify(rows, null, 1));
  }
}
try {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < pages.length) await one(next++); }));
} finally {
  await renderer.close();
}
writeFileSync(out, JSON.stringify(rows, null, 1));
console.log(`${rows.length} pages into ${out}`);
