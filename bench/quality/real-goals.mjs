#!/usr/bin/env node
// Goal ranking on real websites: the common intents of the web (site search, newsletter, log in,
// cart, next page, contact, cookie consent, …) labelled automatically on the real saved pages of
// the read corpora beside the repository (goal-labels.mjs: rules over the rendered page, one
// unique visible gold per family and page, a natural phrasing in the page's language), then
// ranked through POST /v1/snapshot of a Sightline server started here (the committed reranker
// on, as the server runs by default, and off: the heuristic alone), beside a lexical baseline
// and, with --compare-*, the build before.
//
// Split by site: a page is held out when its site (host) is (read-pages.mjs heldOutSite: a hash
// of the host, fixed before any result was looked at). Held-out figures are reported in
// aggregate only (per family and overall); no per-case output is ever written for them.
//
// Pages open with scripts off, like the service's static capture (read-pages.mjs openStatic).
// Each page is collected once per collector bundle and labelled once per version of the rules;
// both are cached in $TMPDIR/sightline-real-goals/ (delete it to render again).
//
//   node bench/quality/real-goals.mjs [--corpora wcxb-dev,aeb,readability] [--sample N] [--limit 50]
//        [--split all|tune|holdout] [--concurrency 2]
//        [--compare-bundle B.js --compare-refine R.mjs [--compare-model M.json]]
//        [--cases-out FILE] [--jsonl FILE]
//
// --cases-out FILE: every tuning case (family, goal, the gold's rank per ranking, the top 3) for
//   looking at misses; held-out cases are never written.
// --jsonl FILE: the tuning cases in the training script's format (id, task, goal, gold_bbox,
//   body), for shared/rank-training/train.mjs --data.
// Lexical baseline: eval-rank.mjs's (distinct goal-token overlap with the candidate's text,
// aria-label, placeholder, name, value, title, alt and label text; ties to the one with fewer
// words, then document order), re-implemented here over the whole page's candidates (the gold
// of a real page is often below the fold, which eval-rank's viewport cut would drop).
// Results: bench/results/real-goals.json (BENCH_RESULTS=0 to skip).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { launchChromium } from "../collector/serve.mjs";
import { startRun } from "../lib/results.mjs";
import { FAMILIES, LABEL_PAGE, goalFor } from "./goal-labels.mjs";
import { heldOutSite, loadReadPages, openStatic, samplePages, servePages } from "./read-pages.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = { corpora: "wcxb-dev,aeb,readability", concurrency: "2", limit: "50", split: "all" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, "");
  if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) opt[k] = "true";
  else opt[k] = argv[++i];
}
const LIMIT = Number(opt.limit);
let pages = loadReadPages(opt.corpora.split(","));
if (!pages.length) {
  console.error("real-goals: no read corpora beside the repository (../shared/corpora/read); nothing measured");
  process.exit(2);
}
for (const p of pages) p.holdout = heldOutSite(p.site);
if (opt.split === "tune") pages = pages.filter((p) => !p.holdout);
if (opt.split === "holdout") pages = pages.filter((p) => p.holdout);
if (opt.sample) pages = samplePages(pages, Number(opt.sample), Number(opt.seed ?? 1));

const { startServer } = await import(`${root}server/dist/server.js`);
const { iou } = await import(`${root}shared/rank-training/model.mjs`);
const { refineSnapshot } = await import(`${root}shared/dist/refine/index.js`);
const { createLinearReranker } = await import(`${root}shared/dist/rank/index.js`);
const { toPrompt, countTokens } = await import(`${root}shared/dist/prompt/index.js`);
const model = createLinearReranker(JSON.parse(readFileSync(join(root, "shared/src/rank/model.json"), "utf8")));
const bundle = readFileSync(join(root, "shared/dist/collector.js"), "utf8");
let base = null;
if (opt["compare-bundle"] && opt["compare-refine"]) {
  const mod = await import(resolve(opt["compare-refine"]));
  const m = JSON.parse(readFileSync(opt["compare-model"] ?? join(root, "shared/src/rank/model.json"), "utf8"));
  base = { bundle: readFileSync(opt["compare-bundle"], "utf8"), refine: mod.refineSnapshot, toPrompt: mod.toPrompt, model: mod.createLinearReranker(m) };
}
const hash = (s) => createHash("sha256").update(s).digest("hex").slice(0, 12);
// Two caches: what the collector builds (bodies, the aria snapshot, the baseline's candidates),
// keyed by the bundles; and the labels, keyed by the labelling rules. A change to one renders
// again only what it changes (the labels need the page opened, not collected).
const cacheRoot = join(process.env.TMPDIR || tmpdir(), "sightline-real-goals");
const bodyDir = join(cacheRoot, `bodies-${hash(bundle + (base ? base.bundle : ""))}`);
const labelDir = join(cacheRoot, `labels-${hash(LABEL_PAGE)}`);
mkdirSync(bodyDir, { recursive: true });
mkdirSync(labelDir, { recursive: true });

// ------------------------------------------------------------------ in the page
/** The lexical baseline's candidates (eval-rank.mjs's enumeration, whole page): box and words. */
const BASELINE_CANDIDATES = String.raw`(() => {
  const ROLES = new Set(["button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "switch", "textbox", "combobox", "searchbox", "slider", "spinbutton", "treeitem", "gridcell", "listbox"]);
  const TAGS = new Set(["a", "button", "input", "select", "textarea", "summary"]);
  const HANDLERS = ["onclick", "onmousedown", "onmouseup", "onpointerdown", "ontouchstart", "ondblclick"];
  const out = [];
  for (const el of document.body ? document.body.querySelectorAll("*") : []) {
    const tag = el.localName;
    if (tag === "script" || tag === "style" || tag === "noscript" || tag === "template") continue;
    if (tag === "input" && (el.type || "").toLowerCase() === "hidden") continue;
    const role = (el.getAttribute("role") || "").trim().toLowerCase();
    const cs = getComputedStyle(el);
    let why = TAGS.has(tag) || ROLES.has(role) || HANDLERS.some((h) => el.hasAttribute(h)) || (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) || (el.hasAttribute("tabindex") && Number(el.getAttribute("tabindex")) >= 0);
    if (!why && cs.cursor === "pointer") {
      const p = el.parentElement;
      if (!p || getComputedStyle(p).cursor !== "pointer") why = true;
      else { const a = el.getBoundingClientRect(), b = p.getBoundingClientRect(); why = a.width * a.height > 0 && a.width * a.height <= 0.5 * b.width * b.height; }
    }
    if (!why) continue;
    if (cs.visibility === "hidden" || cs.visibility === "collapse" || cs.display === "none" || Number(cs.opacity) === 0) continue;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) continue;
    const txt = (el.innerText !== undefined ? el.innerText : el.textContent || "").replace(/\s+/g, " ").trim().slice(0, 300);
    const labels = el.labels ? [...el.labels].map((l) => l.innerText || l.textContent || "").join(" ") : "";
    const lb = (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean).map((id) => { const n = document.getElementById(id); return n ? n.textContent : ""; }).join(" ");
    const value = (tag === "input" || tag === "button" || tag === "option") && el.type !== "password" ? String(el.value || "") : "";
    const words = [txt, el.getAttribute("aria-label") || "", el.getAttribute("placeholder") || "", el.getAttribute("name") || "", value, el.getAttribute("title") || "", el.getAttribute("alt") || "", labels + " " + lb].join(" ");
    out.push([Math.round(r.x * 10) / 10, Math.round(r.y * 10) / 10, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10, words.slice(0, 600)]);
  }
  return out;
})()`;

// ------------------------------------------------------------------ render (cached)
const readCache = (file) => (existsSync(file) ? JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) : null);
const writeCache = (file, v) => writeFileSync(file, gzipSync(JSON.stringify(v)));
async function render(browser, server, i) {
  const p = pages[i];
  const name = `${p.corpus}-${p.id.slice(0, 40)}.json.gz`;
  let bodies = readCache(join(bodyDir, name));
  let labels = readCache(join(labelDir, name));
  if (bodies && labels) return { ...bodies, labels };
  const { context, page } = await openStatic(browser, server.origin, server.urlOf(i), { waitUntil: "load" });
  try {
    if (!labels) {
      labels = await page.evaluate(LABEL_PAGE);
      writeCache(join(labelDir, name), labels);
    }
    if (!bodies) {
      bodies = { baseline: await page.evaluate(BASELINE_CANDIDATES), body: null, base_body: null, aria: null };
      // Playwright's aria snapshot of the same page, for the prompt-size comparison.
      bodies.aria = await page.locator("body").ariaSnapshot({ timeout: 20000 }).catch(() => null);
      if (base) {
        await page.evaluate(base.bundle);
        bodies.base_body = JSON.parse(await page.evaluate(() => globalThis.sightline.collectJSON({})));
        await page.evaluate(() => { delete globalThis.sightline; });
      }
      await page.evaluate(bundle);
      bodies.body = JSON.parse(await page.evaluate(() => globalThis.sightline.collectJSON({})));
      // The golds' boxes as the collector saw the page (a layout that moved since labelling would
      // misplace them).
      bodies.gold = await page.evaluate(`((paths) => paths.map((p) => { let el = document; for (const k of p.split("/")) el = k === "s" ? el.shadowRoot : el.children[Number(k)]; const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }))(${JSON.stringify(labels.found.map((f) => f.path))})`);
      bodies.gold_paths = labels.found.map((f) => f.path);
      writeCache(join(bodyDir, name), bodies);
    }
    return { ...bodies, labels };
  } finally {
    await context.close().catch(() => {});
  }
}

// ------------------------------------------------------------------ rankings
const STOP = new Set("a an the of and or is are be it its this that these those then than in on at for with by as into onto please me my i you your we our us them their click press tap".split(" "));
const lexTokens = (s) => new Set((String(s || "").normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).filter((t) => !STOP.has(t)));
function lexicalRank(cands, goal, gold) {
  const g = lexTokens(goal);
  const scored = cands.map(([x, y, w, h, words], idx) => {
    const et = lexTokens(words);
    let s = 0;
    for (const t of g) if (et.has(t)) s++;
    return { box: { x, y, width: w, height: h }, s, n: et.size, idx };
  });
  scored.sort((a, b) => b.s - a.s || (a.s > 0 ? a.n - b.n : 0) || a.idx - b.idx);
  return rankIn(scored.slice(0, LIMIT).map((c) => c.box), gold);
}
/** 1-based rank of the best-overlapping returned box (IoU ≥ 0.5), 0 when absent. */
function rankIn(boxes, gold) {
  let best = 0, at = 0;
  boxes.forEach((b, i) => {
    const v = iou(b, gold);
    if (v >= 0.5 && v > best + 1e-9) { best = v; at = i + 1; }
  });
  return at;
}
const flat = (list) => list.flatMap((e) => [e, ...(e.iframe_content ? flat(e.iframe_content) : [])]);

// ------------------------------------------------------------------ run
const run = startRun("real-goals", { title: "Goal ranking on real saved pages: common intents, tuning and held-out sites" });
const server = await servePages(pages);
const browser = await launchChromium();
const renders = new Array(pages.length);
let done = 0;
const t0 = Date.now();
try {
  let next = 0;
  await Promise.all(Array.from({ length: Number(opt.concurrency) }, async () => {
    while (next < pages.length) {
      const i = next++;
      try {
        renders[i] = await render(browser, server, i);
      } catch (err) {
        renders[i] = { error: String(err).split("\n")[0].slice(0, 200) };
      }
      done++;
      if (done % 100 === 0 || done === pages.length) process.stderr.write(`[real-goals] rendered ${done}/${pages.length} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    }
  }));
} finally {
  await browser.close();
  await server.close();
}

// The cases: every family found on a page, one phrasing each (chosen by a hash of page and family).
const cases = [];
const ambiguous = {};
renders.forEach((r, i) => {
  if (!r || r.error || !r.labels) return;
  const p = pages[i];
  for (const [fam, n] of Object.entries(r.labels.ambiguous)) ambiguous[fam] = (ambiguous[fam] ?? 0) + (n > 0 ? 1 : 0);
  for (const f of r.labels.found) {
    const at = r.gold_paths ? r.gold_paths.indexOf(f.path) : -1;
    if (at >= 0) f.box = r.gold[at];
    const pick = parseInt(hash(`${p.corpus}/${p.id}/${f.family}`).slice(0, 6), 16);
    const { goal, lang } = goalFor(f.family, r.labels.lang, pick, f.target);
    cases.push({ page: i, id: `${p.corpus}/${p.id}/${f.family}`, family: f.family, goal, lang, gold: f.box, holdout: p.holdout, site: p.site });
  }
});
process.stderr.write(`[real-goals] ${cases.length} cases on ${new Set(cases.map((c) => c.page)).size} pages (${cases.filter((c) => c.holdout).length} held out)\n`);

const sides = ["lexical", "heuristic", "reranker", ...(base ? ["before"] : [])];
async function scoreService(env, side) {
  const dir = join(tmpdir(), `sightline-real-goals-data-${process.pid}-${side}`);
  const srv = await startServer({ host: "127.0.0.1", port: 0, dataDir: dir, logLevel: "silent", rateLimitPerMinute: 0 }, env);
  try {
    const { key } = await srv.ledger.createAccount({ credits: 10_000_000 });
    let k = 0;
    await Promise.all(Array.from({ length: 2 }, async () => {
      while (k < cases.length) {
        const c = cases[k++];
        const body = renders[c.page].body;
        try {
          const res = await fetch(`${srv.origin}/v1/snapshot`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
            body: JSON.stringify({ ...body, goal: c.goal, options: { limit: LIMIT } }),
          });
          const json = await res.json();
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          c[side] = rankIn(json.elements.map((e) => e.bbox), c.gold);
          if (side === "reranker") c.top = json.elements.slice(0, 3).map((e) => `${e.role} ${JSON.stringify((e.name || e.text || "").slice(0, 50))}`);
        } catch (err) {
          c[side] = 0;
          c.error = String(err).slice(0, 120);
        }
      }
    }));
  } finally {
    await srv.close();
  }
}
for (const c of cases) {
  const r = renders[c.page];
  c.lexical = lexicalRank(r.baseline, c.goal, c.gold);
  c.in_raw = rankIn(flat(r.body.raw_elements).map((e) => e.rect), c.gold) > 0;
  if (base) {
    const res = base.refine({ ...r.base_body, goal: c.goal, options: { limit: LIMIT } }, { reranker: base.model });
    c.before = rankIn(res.elements.map((e) => e.bbox), c.gold);
  }
}
await scoreService({ SIGHTLINE_ML_RERANK: "0" }, "heuristic");
await scoreService({ SIGHTLINE_ML_RERANK: "1" }, "reranker");

// ------------------------------------------------------------------ prompt size
// The default snapshot of every page (no goal, default limit) as toPrompt writes it with no
// budget, and at its default budget; Playwright's aria snapshot of the same page beside it. With
// a goal: where the gold lands in toPrompt at the default budget (lines in rank order).
// Engine in local mode (the server's code and model).
const pageRows = [];
renders.forEach((r, i) => {
  if (!r || r.error || !r.body) return;
  const res = refineSnapshot({ ...r.body, options: {} }, { reranker: model });
  const whole = toPrompt(res, { tokenBudget: 1e9 });
  const lines = whole.text.split("\n").slice(1).filter((l) => l.startsWith("["));
  const row = { page: i, lines: lines.length, tokens: whole.tokens, budget: toPrompt(res).tokens, aria: r.aria === null ? null : countTokens(r.aria), ctxLines: lines.filter((l) => / row "/.test(l)).length };
  if (base && r.base_body) {
    const b = base.refine({ ...r.base_body, options: {} }, { reranker: base.model });
    const bw = base.toPrompt(b, { tokenBudget: 1e9 });
    row.before = bw.tokens;
    row.beforeLines = bw.text.split("\n").filter((l) => l.startsWith("[")).length;
    row.beforeCtx = bw.text.split("\n").filter((l) => / row "/.test(l)).length;
  }
  pageRows.push(row);
});
for (const c of cases) {
  const r = renders[c.page];
  const res = refineSnapshot({ ...r.body, goal: c.goal, options: { limit: LIMIT } }, { reranker: model });
  const pr = toPrompt(res);
  const written = pr.included.map((id) => res.elements.find((e) => e.id === id));
  c.prompt_rank = rankIn(written.map((e) => e.bbox), c.gold);
  c.prompt_tokens = pr.tokens;
}

// ------------------------------------------------------------------ report
const NAMES = { lexical: "lexical", heuristic: "heuristic", reranker: "reranker (default)", before: "before" };
function agg(list) {
  const n = list.length;
  const o = { n, sites: new Set(list.map((c) => c.site)).size, in_raw: n ? list.filter((c) => c.in_raw).length / n : null };
  for (const s of sides) {
    o[s] = {
      hit1: n ? list.filter((c) => c[s] === 1).length / n : null,
      hit3: n ? list.filter((c) => c[s] >= 1 && c[s] <= 3).length / n : null,
      returned: n ? list.filter((c) => c[s] >= 1).length / n : null,
    };
  }
  return o;
}
const cols = ["family", { label: "cases", format: "int" }, { label: "sites", format: "int" }, ...sides.flatMap((s) => [{ label: `${NAMES[s]} Hit@1`, format: "fixed2" }, ...(s === "lexical" ? [] : [{ label: "top 3", format: "fixed2" }, { label: "returned", format: "fixed2" }])]), { label: "in raw", format: "fixed2" }];
const rowOf = (name, a) => [name, a.n, a.sites, ...sides.flatMap((s) => [a[s].hit1, ...(s === "lexical" ? [] : [a[s].hit3, a[s].returned])]), a.in_raw];
for (const [label, hold] of [["tuning sites", false], ["held-out sites", true]]) {
  const part = cases.filter((c) => c.holdout === hold);
  if (!part.length) continue;
  const rows = [];
  for (const fam of FAMILIES) {
    const list = part.filter((c) => c.family === fam);
    if (list.length) rows.push(rowOf(fam, agg(list)));
  }
  const all = agg(part);
  rows.push(rowOf("**all**", all));
  const key = hold ? "holdout" : "tune";
  run.table({ id: key, title: `${label}: Hit@1, top 3 and gold among the ${LIMIT} returned, per intent family`, columns: cols, rows });
  for (const s of sides) {
    run.figure(`${key}_${s}_hit1`, all[s].hit1);
    if (s !== "lexical") run.figure(`${key}_${s}_returned`, all[s].returned);
  }
  if (hold) {
    const worst = Math.min(...FAMILIES.map((f) => part.filter((c) => c.family === f)).filter((l) => l.length >= 5).map((l) => agg(l).reranker.hit1));
    run.figure("holdout_worst_family_hit1", worst);
  }
}
run.table({
  id: "sets", title: "The goal set: pages, sites and cases per part",
  columns: ["part", { label: "pages", format: "int" }, { label: "pages with a case", format: "int" }, { label: "sites", format: "int" }, { label: "cases", format: "int" }],
  rows: [false, true].map((hold) => {
    const ps = pages.filter((p) => p.holdout === hold);
    const cs = cases.filter((c) => c.holdout === hold);
    return [hold ? "held out" : "tuning", ps.length, new Set(cs.map((c) => c.page)).size, new Set(cs.map((c) => c.site)).size, cs.length];
  }),
  note: `Families skipped on a page because more than one visible element fits the rule (not counted as cases): ${Object.entries(ambiguous).sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f} ${n}`).join(", ")}. Render failures: ${renders.filter((r) => r?.error).length}.`,
});
{
  const med = (xs) => { const a = xs.filter((x) => x !== null && x !== undefined).sort((p, q) => p - q); return a.length ? a[Math.floor(a.length / 2)] : null; };
  const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);
  const withAria = pageRows.filter((r) => r.aria !== null);
  const rows = [
    ["Sightline toPrompt, default snapshot, no budget", med(pageRows.map((r) => r.tokens)), sum(pageRows.map((r) => r.tokens)) / Math.max(1, sum(pageRows.map((r) => r.lines))), med(pageRows.map((r) => r.lines)), sum(pageRows.map((r) => r.ctxLines)) / Math.max(1, sum(pageRows.map((r) => r.lines))), med(withAria.map((r) => r.tokens / r.aria))],
    ["Sightline toPrompt, default budget (1,000)", med(pageRows.map((r) => r.budget)), null, null, null, med(withAria.map((r) => r.budget / r.aria))],
    ...(base ? [["before: toPrompt, default snapshot, no budget", med(pageRows.map((r) => r.before)), sum(pageRows.map((r) => r.before)) / Math.max(1, sum(pageRows.map((r) => r.beforeLines))), med(pageRows.map((r) => r.beforeLines)), sum(pageRows.map((r) => r.beforeCtx)) / Math.max(1, sum(pageRows.map((r) => r.beforeLines))), med(withAria.map((r) => r.before / r.aria))]] : []),
    ["Playwright ariaSnapshot() of body", med(withAria.map((r) => r.aria)), null, null, null, 1],
  ];
  run.table({
    id: "prompt", title: `Prompt size on ${pageRows.length} real pages (o200k tokens): the default snapshot (no goal, limit 50) beside Playwright's aria snapshot`,
    columns: ["text", { label: "tokens per page (median)", format: "int" }, { label: "tokens per line", format: "fixed1" }, { label: "lines (median)", format: "int" }, { label: "lines with row context", format: "percent" }, { label: "/ aria snapshot (median)", format: "fixed2" }],
    rows,
  });
  run.figure("prompt_tokens_median", med(pageRows.map((r) => r.tokens)));
  run.figure("prompt_tokens_per_line", sum(pageRows.map((r) => r.tokens)) / Math.max(1, sum(pageRows.map((r) => r.lines))));
  run.figure("aria_tokens_median", med(withAria.map((r) => r.aria)));
  const goalRows = [false, true].map((hold) => {
    const part = cases.filter((c) => c.holdout === hold);
    const n = Math.max(1, part.length);
    return [hold ? "held-out sites" : "tuning sites", part.length, part.filter((c) => c.prompt_rank === 1).length / n, part.filter((c) => c.prompt_rank >= 1 && c.prompt_rank <= 5).length / n, part.filter((c) => c.prompt_rank >= 1).length / n, med(part.map((c) => c.prompt_tokens))];
  });
  run.table({
    id: "prompt-gold", title: "The gold in a goal-ranked toPrompt at the default budget (1,000 tokens): its line among those written",
    columns: ["part", { label: "cases", format: "int" }, { label: "first line", format: "percent" }, { label: "first 5 lines", format: "percent" }, { label: "written at all", format: "percent" }, { label: "tokens (median)", format: "int" }],
    rows: goalRows,
  });
  run.figure("prompt_gold_written_holdout", goalRows[1][4]);
}
run.note("Cases are labelled at run time by bench/quality/goal-labels.mjs (rules over the rendered page; one unique visible gold per family and page) on the read corpora's real pages, opened with scripts off; one phrasing per case in the page's language. Split by site (sha256 of the host, 40% held out), fixed before any result was seen; held-out sites are reported in aggregate only.");
run.note(`Gold found among the returned elements by IoU ≥ 0.5; limit ${LIMIT} (the default). Lexical: eval-rank.mjs's lexical baseline over the whole page. in raw: the gold has a raw element at all (the collector's recall).${base ? " before: the collector, engine and model of the build before this work, in local mode." : ""}`);
run.write();

if (opt["cases-out"]) {
  const tune = cases.filter((c) => !c.holdout).map(({ page, gold, holdout, ...c }) => c);
  writeFileSync(opt["cases-out"], tune.map((c) => JSON.stringify(c)).join("\n") + "\n");
}
if (opt.jsonl) {
  const lines = cases.filter((c) => !c.holdout).map((c) => JSON.stringify({ id: c.id, task: c.family, goal: c.goal, gold_bbox: c.gold, body: renders[c.page].body }));
  writeFileSync(opt.jsonl, lines.join("\n") + "\n");
}
