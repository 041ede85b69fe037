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
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startServer, type RunningServer } from "@sightline/server";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt } = parseArgs({ options: { limit: { type: "string", default: "50" } } });
const tool = join(root, "../shared/tools/eval-rank.mjs");
const corpora = ["miniwob-dev", "flight-aa"].map((name) => ({ name, dir: join(root, "../shared/corpora/rank", name) })).filter((c) => existsSync(join(c.dir, "cases.jsonl")));
if (!existsSync(tool) || corpora.length === 0) {
  console.error("rank-eval: the ranking corpora and tools beside the repository are missing (see docs/development.md); nothing measured");
  process.exit(2);
}
const run = startRun("rank-quality", { title: "Goal ranking through the service on the ranking corpora" });

interface Summary {
  n: number;
  hit1: number;
  hit3: number;
  mrr: number;
  gold_present: number;
  failures: number;
}

/** Runs the tool once; resolves with its overall summary. */
function evalRank(args: string[], out: string): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tool, ...args, "--limit", opt.limit!, "--concurrency", "2", "--out", out], { cwd: join(root, "test"), stdio: ["ignore", "inherit", "inherit"] });
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`eval-rank exited ${code}`));
      resolve((JSON.parse(readFileSync(out, "utf8")) as { summary: { overall: Summary } }).summary.overall);
    });
  });
}

async function boot(env: Record<string, string>): Promise<{ server: RunningServer; key: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-rank-eval-"));
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: dir, logLevel: "silent", rateLimitPerMinute: 0 }, env);
  const { key } = await server.ledger.createAccount({ credits: 1_000_000 });
  return { server, key, dir };
}

const work = mkdtempSync(join(tmpdir(), "sightline-rank-eval-out-"));
const rows: unknown[][] = [];
try {
  for (const c of corpora) {
    const results: Record<string, Summary> = {};
    results.lexical = await evalRank(["--baseline", "lexical", "--corpus", c.dir], join(work, `${c.name}-lexical.json`));
    for (const [side, env] of [
      ["heuristic", { SIGHTLINE_ML_RERANK: "0" }],
      ["reranker", { SIGHTLINE_ML_RERANK: "1" }],
    ] as const) {
      const b = await boot(env);
      try {
        results[side] = await evalRank(
          ["--base-url", b.server.origin, "--api-key", b.key, "--collector", join(root, "shared/dist/collector.js"), "--corpus", c.dir],
          join(work, `${c.name}-${side}.json`),
        );
      } finally {
        await b.server.close();
        rmSync(b.dir, { recursive: true, force: true });
      }
    }
    for (const [side, s] of Object.entries(results)) {
      rows.push([c.name, side, s.n, s.hit1, s.hit3, s.mrr, s.gold_present, s.failures]);
      run.figure(`${c.name.replace(/\W/g, "_")}_${side}_hit1`, s.hit1);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
run.table({
  id: "rank",
  title: `Hit@1, Hit@3, MRR and gold present (top ${opt.limit}) per corpus: the tool's lexical baseline, Sightline's heuristic alone, and with the committed reranker (the default)`,
  columns: ["corpus", "ranking", { label: "cases", format: "int" }, { label: "Hit@1", format: "fixed3" }, { label: "Hit@3", format: "fixed3" }, { label: "MRR", format: "fixed3" }, { label: "gold present", format: "percent" }, { label: "failures", format: "int" }],
  rows,
});
run.note("These corpora are the ones the ranking was developed on (dev figures); held-out figures are in the tables of the generated families below.");
run.write();
