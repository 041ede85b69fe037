// bench/rank: goal-ranking time per request (rankByGoal: intent parsing, features, heuristic,
// and the learned reranker), with and without the reranker, for 100 and 1,000 candidates,
// measured side by side in one run. Candidates are generated pages (links, buttons, labelled
// fields, text) refined by the real engine; the model is the committed shared/src/rank/model.json.
//
//   npm run bench:rank [-- --runs 200]        (a few seconds: no quick mode)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { RawElement } from "@sightline/shared/contract";
import { refineSnapshot } from "@sightline/shared/refine";
import { createLinearReranker, rankByGoal, type GoalCandidate } from "@sightline/shared/rank";
import { startRun } from "../lib/results.mjs";
import { median, ratio } from "../lib/stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const { values: args } = parseArgs({ options: { runs: { type: "string", default: "200" } } });
const RUNS = Number(args.runs);
const reranker = createLinearReranker(JSON.parse(readFileSync(resolve(here, "../../shared/src/rank/model.json"), "utf8")));

const WORDS = "account search cart checkout profile settings orders help contact privacy terms login signup news sports weather travel flights hotels deals music video photos maps".split(" ");
function page(n: number): GoalCandidate[] {
  let seed = 42;
  const r = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const w = () => WORDS[Math.floor(r() * WORDS.length)];
  const raws: RawElement[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 5;
    const y = 20 + i * 22;
    const attrs: Record<string, string | null> = { nearby_text: `${w()} ${w()}` };
    let tag = "a", text = `${w()} ${w()} ${w()}`;
    if (kind === 1) { tag = "button"; text = `${w()}`; }
    if (kind === 2) { tag = "input"; text = ""; attrs.input_type = "text"; attrs.placeholder = `${w()}`; attrs.name = w(); }
    if (kind === 3) { tag = "p"; text = Array.from({ length: 12 }, w).join(" "); }
    if (kind === 0) attrs.href = `/${w()}/${i}`;
    raws.push({ id: i + 1, tag, text, rect: { x: 10 + (i % 3) * 300, y, width: 200, height: 20 }, attributes: attrs, styles: { cursor: kind < 2 ? "pointer" : "auto" }, in_viewport: y < 900, is_occluded: false });
  }
  const res = refineSnapshot({ url: "https://bench.test/", viewport: { width: 1280, height: 900 }, raw_elements: raws, options: { limit: n } }, { cap: n });
  const byId = new Map(raws.map((x) => [x.id, x]));
  return res.elements.map((element) => ({ element, raw: byId.get(element.id)! }));
}

const GOALS = ['search for "cheap flights"', "click the third link", "enter your account email", "open help", "select 2 travellers"];
/** Median wall ms and mean CPU ms per call (the machine is shared: CPU time is the cost, wall time includes waiting for a core). */
function time(cands: GoalCandidate[], withModel: boolean): { wall: number; cpu: number } {
  const ts: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const goal = GOALS[i % GOALS.length];
    const t0 = process.hrtime.bigint();
    const out = rankByGoal(goal, cands, { reranker: withModel ? reranker : null });
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (withModel && !out.ml_rerank.applied) throw new Error("reranker did not apply");
  }
  const c = process.cpuUsage(c0);
  return { wall: median(ts), cpu: (c.user + c.system) / 1000 / RUNS };
}
function timeModelOnly(cands: GoalCandidate[]): number {
  // The model's own share: scoring precomputed feature rows.
  const rows = Array.from({ length: cands.length }, () => new Float64Array(64).fill(0.5));
  const ts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    reranker.score(rows);
    ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(ts);
}

const run = startRun("rank", { title: "Goal ranking time per request" });
const rows: (string | number)[][] = [];
const figures: Record<string, Record<string, number>> = {};
for (const n of [100, 1000]) {
  const cands = page(n);
  time(cands, true); // warm-up (JIT, stem/synonym caches)
  time(cands, false);
  const h = time(cands, false);
  const m = time(cands, true);
  const model = timeModelOnly(cands);
  figures[n] = { heuristic_cpu_ms: h.cpu, heuristic_wall_ms: h.wall, reranker_cpu_ms: m.cpu, reranker_wall_ms: m.wall, model_only_ms: model };
  rows.push([n, h.cpu, h.wall, m.cpu, m.wall, ratio(m.cpu, h.cpu), model]);
}
run.figure("per_candidates", figures);
run.table({
  id: "time",
  title: `rankByGoal per call: ${RUNS} calls per cell, 5 goals rotating, model ${reranker.name}`,
  columns: [{ label: "candidates", format: "int" }, "heuristic only, CPU ms", "(wall median)", "heuristic + reranker, CPU ms", "(wall median)", { label: "CPU with / without reranker", format: "ratio" }, "model scoring alone, ms"],
  rows,
  note: "CPU = mean per call (this process); wall = median. The reranker column runs second, on a warmer JIT.",
});
run.write();
