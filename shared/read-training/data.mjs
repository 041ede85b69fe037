// The rendered pages (collect.mjs's cache) as training data: every block's feature row and a
// label from the page's ground truth, mapped onto the blocks by token overlap.
//
// Labels: the page's tokens (lower-cased words, as the benchmarks count them) in document
// order, block after block; a token is main content when one of the word trigrams it is part
// of occurs in the ground truth (a short block is judged with its neighbours' words: "Share"
// after an article's last sentence makes trigrams the truth does not hold). A block's label is
// the share of its tokens so covered (a soft label), its weight its token count over the page's.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadPages } from "./corpus.mjs";

const WORD = /[\p{L}\p{N}_]+/gu;
export const tokens = (s) => (s ? String(s).toLowerCase().match(WORD) ?? [] : []);

/** Per block: the share of its tokens the ground truth holds (null: a block without tokens). */
export function coverage(blockTexts, truth) {
  const gt = tokens(truth);
  const per = blockTexts.map((t) => tokens(t));
  const stream = per.flat();
  const covered = new Uint8Array(stream.length);
  if (gt.length >= 3) {
    const grams = new Set();
    for (let i = 0; i + 2 < gt.length; i++) grams.add(`${gt[i]} ${gt[i + 1]} ${gt[i + 2]}`);
    for (let i = 0; i + 2 < stream.length; i++) {
      if (grams.has(`${stream[i]} ${stream[i + 1]} ${stream[i + 2]}`)) covered[i] = covered[i + 1] = covered[i + 2] = 1;
    }
  } else if (gt.length) {
    const set = new Set(gt);
    stream.forEach((t, i) => (covered[i] = set.has(t) ? 1 : 0));
  }
  const out = [];
  let k = 0;
  for (const ts of per) {
    if (!ts.length) { out.push(null); continue; }
    let c = 0;
    for (let j = 0; j < ts.length; j++) c += covered[k + j];
    k += ts.length;
    out.push(c / ts.length);
  }
  return { labels: out, tokenCounts: per.map((t) => t.length) };
}

/** Reads one cached page. */
export function readPage(dir, corpus, id) {
  const f = join(dir, corpus, `${id}.json.gz`);
  if (!existsSync(f)) return null;
  let r;
  try {
    r = JSON.parse(gunzipSync(readFileSync(f)));
  } catch {
    return null; // being written
  }
  const buf = Buffer.from(r.rows, "base64");
  r.rows = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  r.pageRow = Float32Array.from(r.pageRow);
  return r;
}

/** Every cached page with its corpus page (truth, type, site, part) and block labels. */
export function loadData(dir, corpora = ["aeb", "wcxb-dev", "readability"]) {
  const pages = [];
  let names = null, pageNames = null;
  for (const p of loadPages(corpora)) {
    const r = readPage(dir, p.corpus, p.id);
    if (!r) continue;
    names ??= r.blockFeatures;
    pageNames ??= r.pageFeatures;
    const lab = p.truth != null ? coverage(r.blocks.map((b) => b.text), p.truth) : null;
    pages.push({ ...p, r, labels: lab?.labels ?? null, tokenCounts: lab?.tokenCounts ?? r.blocks.map((b) => tokens(b.text).length) });
  }
  return { pages, names, pageNames };
}

export function cachedIds(dir, corpus) {
  const d = join(dir, corpus);
  return existsSync(d) ? readdirSync(d).filter((f) => f.endsWith(".json.gz")).map((f) => f.slice(0, -8)) : [];
}
