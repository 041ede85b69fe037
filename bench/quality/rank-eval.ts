// Goal ranking through the service on the ranking corpora beside the repository
// (../shared/corpora/rank: miniwob-dev, flight-aa), scored by the corpora's own tool
// (../shared/tools/eval-rank.mjs): Sightline's POST /v1/snapshot (the committed reranker on, as
// the server runs by default, and off: the heuristic alone) beside the tool's lexical baseline,
// in one run on the same pages.
//
//   pnpm --dir bench exec tsx quality/rank-eval.ts [--limit 50]
//
// Needs the built collector bundle (npm run build) and playwright-core in test/ (the tool
// resolves it from its working directory).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRun } from "../lib/results.mjs";
import { besides, COLLECTOR, requireBesides, runTool, withServer } from "./corpus-tools.js";

const { values: opt } = parseArgs({ options: { limit: { type: "string", default: "50" } } });
const corpora = ["miniwob-dev", "flight-aa"].map((name) => ({ name, dir: besides(`corpora/rank/${name}`) }));
requireBesides("rank-eval", besides("tools/eval-rank.mjs"), ...corpora.map((c) => join(c.dir, "cases.jsonl")));
const run = startRun("rank-quality", { title: "Goal ranking through the service on the ranking corpora" });

interface Summary {
  n: number;
  hit1: number;
  hit3: number;
  mrr: number;
  gold_present: number;
  failures: number;
}
const evalRank = async (args: string[]) =>
  (await runTool<{ summary: { overall: Summary } }>("eval-rank.mjs", [...args, "--limit", opt.limit!, "--concurrency", "2"])).summary.overall;

const rows: unknown[][] = [];
for (const c of corpora) {
  const results: Record<string, Summary> = {};
  results.lexical = await evalRank(["--baseline", "lexical", "--corpus", c.dir]);
  for (const [side, env] of [
    ["heuristic", { SIGHTLINE_ML_RERANK: "0" }],
    ["reranker", { SIGHTLINE_ML_RERANK: "1" }],
  ] as const) {
    results[side] = await withServer(env, (origin, key) => evalRank(["--base-url", origin, "--api-key", key, "--collector", COLLECTOR, "--corpus", c.dir]));
  }
  for (const [side, s] of Object.entries(results)) {
    rows.push([c.name, side, s.n, s.hit1, s.hit3, s.mrr, s.gold_present, s.failures]);
    run.figure(`${c.name.replace(/\W/g, "_")}_${side}_hit1`, s.hit1);
  }
}
run.table({
  id: "rank",
  title: `Hit@1, Hit@3, MRR and gold present (top ${opt.limit}) per corpus: the tool's lexical baseline, Sightline's heuristic alone, and with the committed reranker (the default)`,
  columns: ["corpus", "ranking", { label: "cases", format: "int" }, { label: "Hit@1", format: "fixed3" }, { label: "Hit@3", format: "fixed3" }, { label: "MRR", format: "fixed3" }, { label: "gold present", format: "percent" }, { label: "failures", format: "int" }],
  rows,
});
run.note("These corpora are the ones the ranking was developed on (dev figures); held-out figures are in the tables of the generated families below.");
run.write();
