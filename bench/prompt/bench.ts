// bench/prompt: what toPrompt costs in an LLM prompt, beside the raw elements (the
// /v1/snapshot request body) and Playwright's ariaSnapshot() of the same page, measured in one
// run, all in o200k_base tokens (gpt-tokenizer); and whether each case's gold element (the one
// the goal asks for) survives in the budgeted prompt.
//
//   npm run bench:prompt                          # all pages
//   npm run bench:prompt -- --budget 500 --max-cases 40 --limit 50
//   BENCH_QUICK=1 npm run bench:prompt            # the first 40 cases of each corpus
//
// Pages: this repo's SDK fixture pages (no goal) and the ranking corpus
// (../shared/corpora/rank or SIGHTLINE_RANK_CORPUS), read at run time, never copied.
// Local mode (the server's engine, no ML reranker); one Chromium, pages served on loopback.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Page } from "playwright-core";
import { collectPage, refineLocally, snapshotRequest } from "@sightline/shared/playwright";
import { countTokens, toPrompt } from "@sightline/shared/prompt";
import { startRun } from "../lib/results.mjs";
import { median } from "../lib/stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const repo = resolve(here, "../..");
const { values: args } = parseArgs({
  options: {
    budget: { type: "string", default: "1000" },
    limit: { type: "string", default: "100" },
    "max-cases": { type: "string" },
    corpus: { type: "string" },
  },
});
const BUDGET = Number(args.budget);
const LIMIT = Number(args.limit);
const MAX_CASES = args["max-cases"] ? Number(args["max-cases"]) : process.env.BENCH_QUICK === "1" ? 40 : Infinity;
const corpusRoot = resolve(args.corpus ?? process.env.SIGHTLINE_RANK_CORPUS ?? join(repo, "../shared/corpora/rank"));

interface Case {
  id: string;
  corpus: string;
  dir: string;
  file: string;
  goal?: string;
  gold_selector?: string;
  viewport: { width: number; height: number };
}

function loadCases(): Case[] {
  const cases: Case[] = [];
  const fixtures = join(repo, "test/sdk/fixtures");
  for (const f of readdirSync(fixtures).filter((n) => n.endsWith(".html")).sort()) {
    cases.push({ id: f, corpus: "fixtures", dir: fixtures, file: f, viewport: { width: 1280, height: 900 } });
  }
  if (!existsSync(corpusRoot)) {
    console.error(`rank corpus not found at ${corpusRoot}; fixture pages only`);
    return cases;
  }
  for (const name of readdirSync(corpusRoot).sort()) {
    const file = join(corpusRoot, name, "cases.jsonl");
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).slice(0, MAX_CASES);
    for (const line of lines) {
      const c = JSON.parse(line) as Omit<Case, "corpus" | "dir">;
      cases.push({ ...c, corpus: name, dir: join(corpusRoot, name) });
    }
  }
  return cases;
}

/** Serves one directory tree per prefix: /<n>/<path>. */
async function serve(dirs: string[]): Promise<{ url(dirIndex: number, file: string): string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const m = /^\/(\d+)\/(.+)$/.exec(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const dir = m ? dirs[Number(m[1])] : undefined;
    const path = dir && m ? resolve(dir, m[2]) : "";
    if (!dir || !path.startsWith(dir) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (i, f) => `http://127.0.0.1:${port}/${i}/${f}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * Collector ids that stand for the gold element: the gold itself, and its ancestors and
 * descendants whose box overlaps the gold's box by IoU >= 0.5 (a button's label span, a
 * link wrapping the gold image): clicking any of them clicks the gold.
 */
function goldIds(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((sel) => {
    const state = (globalThis as unknown as { __sightlineCollectorState__?: { ids: WeakMap<Node, number> } }).__sightlineCollectorState__;
    const gold = document.querySelector(sel);
    if (!gold || !state) return [];
    const g = gold.getBoundingClientRect();
    const iou = (r: DOMRect) => {
      const w = Math.max(0, Math.min(r.right, g.right) - Math.max(r.left, g.left));
      const h = Math.max(0, Math.min(r.bottom, g.bottom) - Math.max(r.top, g.top));
      const inter = w * h;
      const union = r.width * r.height + g.width * g.height - inter;
      return union > 0 ? inter / union : 0;
    };
    const ids: number[] = [];
    const add = (el: Element, always: boolean) => {
      const id = state.ids.get(el);
      if (id !== undefined && (always || iou(el.getBoundingClientRect()) >= 0.5)) ids.push(id);
    };
    add(gold, true);
    for (let a = gold.parentElement; a; a = a.parentElement) add(a, false);
    gold.querySelectorAll("*").forEach((d) => add(d, false));
    return ids;
  }, selector);
}

/** toPrompt element caps compared side by side (Infinity: only the token budget limits). */
const CAPS = [Infinity, 20, 10, 5];

interface Row {
  corpus: string;
  id: string;
  raw: number;
  aria: number;
  /** Per cap (same order as CAPS): tokens, elements written, gold kept. */
  prompt: number[];
  included: number[];
  goldKept: (boolean | null)[];
  candidates: number;
  goldRank: number | null;
}

/** A share 0–1, or null when there is nothing to count. */
const share = (n: number, d: number) => (d ? n / d : null);

async function main(): Promise<void> {
  const run = startRun("prompt", { title: "Prompt size: toPrompt beside the raw elements and ariaSnapshot()" });
  const cases = loadCases();
  const dirs = [...new Set(cases.map((c) => c.dir))];
  const site = await serve(dirs);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  const rows: Row[] = [];
  // Pages are shared by many cases (flight-aa: 1 page, 300 goals): load and measure each once.
  const perPage = new Map<string, { raw: number; aria: number }>();
  let page: Page | null = null;
  let loaded = "";
  let capture: Awaited<ReturnType<typeof collectPage>> | null = null;
  const started = Date.now();
  try {
    for (const [i, c] of cases.entries()) {
      const url = site.url(dirs.indexOf(c.dir), c.file);
      const key = `${url} ${c.viewport.width}x${c.viewport.height}`;
      if (key !== loaded) {
        await page?.close();
        page = await browser.newPage({ viewport: c.viewport });
        run.machine({ chromium: browser.version() });
        // tsx compiles with esbuild keepNames, which wraps functions in __name(); functions
        // passed to page.evaluate then need that helper in the page too.
        await page.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
        await page.goto(url, { waitUntil: "load" });
        capture = await collectPage(page);
        const aria = await page.locator("body").ariaSnapshot();
        perPage.set(key, { raw: countTokens(JSON.stringify(capture.raw_elements)), aria: countTokens(aria) });
        loaded = key;
      }
      const sizes = perPage.get(key)!;
      const snap = refineLocally(snapshotRequest(capture!, { goal: c.goal, limit: LIMIT }));
      const prompts = CAPS.map((cap) => toPrompt(snap, { tokenBudget: BUDGET, maxElements: cap }));
      let goldKept: (boolean | null)[] = CAPS.map(() => null);
      let goldRank: number | null = null;
      if (c.gold_selector) {
        const ids = new Set(await goldIds(page!, c.gold_selector));
        goldKept = prompts.map((p) => p.included.some((id) => ids.has(id)));
        const r = snap.elements.findIndex((e) => ids.has(e.id));
        goldRank = r >= 0 ? r + 1 : null;
      }
      rows.push({
        corpus: c.corpus,
        id: c.id,
        raw: sizes.raw,
        aria: sizes.aria,
        prompt: prompts.map((p) => p.tokens),
        included: prompts.map((p) => p.included.length),
        goldKept,
        candidates: snap.elements.length,
        goldRank,
      });
      if (process.stderr.isTTY) process.stderr.write(`\r${i + 1}/${cases.length}`);
    }
  } finally {
    await browser.close();
    await site.close();
  }
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[2K");

  const seconds = (Date.now() - started) / 1000;
  const groups = [...new Set(rows.map((r) => r.corpus)), "all"];
  const sizeRows: (string | number | null)[][] = [];
  for (const g of groups) {
    const rs = g === "all" ? rows : rows.filter((r) => r.corpus === g);
    CAPS.forEach((cap, k) => {
      const golds = rs.filter((r) => r.goldKept[k] !== null);
      const total = rs.reduce((s, r) => s + r.prompt[k], 0) / rs.reduce((s, r) => s + r.aria, 0);
      sizeRows.push([
        g,
        rs.length,
        Number.isFinite(cap) ? cap : "budget only",
        median(rs.map((r) => r.raw)),
        median(rs.map((r) => r.aria)),
        median(rs.map((r) => r.prompt[k])),
        median(rs.map((r) => r.prompt[k] / r.aria)),
        total,
        median(rs.map((r) => r.prompt[k] / r.raw)),
        share(rs.filter((r) => r.prompt[k] * 5 <= r.aria).length, rs.length),
        share(golds.filter((r) => r.goldKept[k]).length, golds.length),
      ]);
    });
  }
  run.figure("cases", rows.length);
  run.figure("seconds", Math.round(seconds));
  run.table({
    id: "size",
    title: `toPrompt at a ${BUDGET}-token budget (snapshot limit ${LIMIT}, local mode), o200k_base tokens`,
    columns: [
      "corpus",
      { label: "cases", format: "int" },
      "max elements",
      { label: "raw elements (median)", format: "int" },
      { label: "ariaSnapshot (median)", format: "int" },
      { label: "toPrompt (median)", format: "int" },
      { label: "toPrompt / aria (median)", format: "fixed2" },
      { label: "toPrompt / aria (total)", format: "fixed2" },
      { label: "toPrompt / raw (median)", format: "fixed3" },
      { label: "cases ≤ 1/5 aria", format: "percent" },
      { label: "gold kept", format: "percent" },
    ],
    rows: sizeRows,
    note: "Gold kept: the case's gold element (or an ancestor or descendant with the same box, IoU ≥ 0.5) is among the written lines.",
  });
  const ranked = rows.filter((r) => r.goldKept[0] !== null);
  const within = (k: number) => share(ranked.filter((r) => r.goldRank !== null && r.goldRank <= k).length, ranked.length);
  const goldRank = { rank1: within(1), top5: within(5), top10: within(10), absent: share(ranked.filter((r) => r.goldRank === null).length, ranked.length), cases: ranked.length };
  run.figure("gold_rank", goldRank);
  run.table({
    id: "gold-rank",
    title: "Gold element's rank in the refined list (goal cases)",
    columns: [{ label: "goal cases", format: "int" }, { label: "rank 1", format: "percent" }, { label: "top 5", format: "percent" }, { label: "top 10", format: "percent" }, { label: "absent", format: "percent" }],
    rows: [[goldRank.cases, goldRank.rank1, goldRank.top5, goldRank.top10, goldRank.absent]],
  });
  const pageRows: (string | number)[][] = [];
  const shown = new Set<string>();
  for (const r of rows) {
    const name = r.corpus === "flight-aa" ? "flight-aa/aa.html" : `${r.corpus}/${r.id}`;
    if (r.corpus === "miniwob-dev" || shown.has(name)) continue;
    shown.add(name);
    pageRows.push([name, r.raw, r.aria, r.prompt[0], `${r.included[0]} / ${r.candidates}`]);
  }
  run.table({
    id: "pages",
    title: "Per page (fixtures and flight-aa), budget only",
    columns: ["page", { label: "raw", format: "int" }, { label: "aria", format: "int" }, { label: "toPrompt", format: "int" }, "elements written / refined"],
    rows: pageRows,
  });
  const lost = rows.filter((r) => r.goldKept[2] === false);
  if (lost.length) {
    console.log(`\nGold not kept at 10 elements (${lost.length}): ${lost.slice(0, 15).map((r) => `${r.id} (rank ${r.goldRank ?? "absent"})`).join(", ")}${lost.length > 15 ? ", …" : ""}`);
  }
  run.note(`${rows.length} cases in ${seconds.toFixed(0)} s. Pages: the SDK fixtures (test/sdk/fixtures) and, when present, the ranking corpora beside the repository (see docs/development.md).`);
  run.write();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
