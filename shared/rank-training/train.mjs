// Trains the goal reranker (npm run train:rank) and writes shared/src/rank/model.json.
// How the data is made and the model trained: model.mjs. Data: synthetic cases (always) plus any
// collected corpus files (collect.mjs output, default $TMPDIR/sightline-rank/*.jsonl).
// Evaluation: leave-one-task-out (every task/family held out in turn) and leave-one-source-out
// (train without a corpus, test on it), heuristic vs model, Hit@1.
//
//   node shared/rank-training/train.mjs [--data a.jsonl,b.jsonl] [--out model.json] [--no-eval]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ALL_FEATURES, DEFAULTS, evaluate, fmt, loadCases, pool, showMisses, train as trainWith } from "./model.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const cacheDir = path.join(os.tmpdir(), "sightline-rank");
const dataFiles = (opt("data", null)?.split(",") ?? (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(cacheDir, f)) : [])).filter(Boolean);
const outFile = path.resolve(opt("out", path.join(here, "..", "src", "rank", "model.json")));
const doEval = !args.includes("--no-eval");
const LAMBDA = Number(opt("lambda", String(DEFAULTS.lambda)));
const ITERS = Number(opt("iters", String(DEFAULTS.iters)));
const BALANCE = opt("balance", DEFAULTS.balance);
const SCALE_FLOOR = Number(opt("scale-floor", String(DEFAULTS.scaleFloor)));
// --show TASK,TASK: print those tasks' held-out misses (goal, gold, the model's top 3).
const SHOW = opt("show", null)?.split(",") ?? null;

const train = (cs, o = {}) => trainWith(cs, { lambda: LAMBDA, iters: ITERS, balance: BALANCE, scaleFloor: SCALE_FLOOR, ...o });

const t0 = Date.now();
const { cases, coverage } = loadCases(dataFiles, { labelled: Boolean(SHOW) });
console.error(`featurized ${cases.length} cases in ${Date.now() - t0} ms; sources: ${JSON.stringify(coverage)}`);

// --grid λ:iters,λ:iters: model selection by cross-validation only (leave-one-task-out per
// source and leave-one-source-out for each setting), then exit without writing a model.
const GRID = opt("grid", null);
if (GRID) {
  const tasks = [...new Set(cases.map((c) => c.task))];
  for (const setting of GRID.split(",")) {
    const [lambda, iters] = setting.split(":").map(Number);
    const per = {};
    for (const t of tasks) {
      const r = evaluate(train(cases.filter((c) => c.task !== t), { lambda, iters }), cases.filter((c) => c.task === t));
      (per[cases.find((c) => c.task === t).source] ??= []).push(r);
    }
    console.log(`λ=${lambda} iters=${iters}`);
    for (const [src, rs] of Object.entries(per)) console.log(`  LOTO ${src.padEnd(12)} ${fmt(pool(rs))}`);
    for (const src of Object.keys(per)) {
      if (src === "synthetic") continue;
      console.log(`  LOSO ${src.padEnd(12)} ${fmt(evaluate(train(cases.filter((c) => c.source !== src), { lambda, iters }), cases.filter((c) => c.source === src)))}`);
    }
  }
  process.exit(0);
}

const evalReport = {};
if (doEval) {
  const tasks = [...new Set(cases.map((c) => c.task))];
  const loto = {};
  for (const t of tasks) {
    const model = train(cases.filter((c) => c.task !== t));
    loto[t] = evaluate(model, cases.filter((c) => c.task === t));
    if (SHOW?.some((x) => t.includes(x))) showMisses(model, cases.filter((c) => c.task === t));
  }
  const sources = [...new Set(cases.map((c) => c.source))];
  const perSource = Object.fromEntries(sources.map((s) => [s, pool(Object.entries(loto).filter(([t]) => cases.find((c) => c.task === t).source === s).map(([, r]) => r))]));
  evalReport.leave_one_task_out = { per_task: loto, per_source: perSource };
  // Whole corpus held out: trained on everything else (synthetic + the other corpus), and on
  // the synthetic cases alone (no real page seen at all).
  const loso = {}, synOnly = {};
  const synModel = train(cases.filter((c) => c.source === "synthetic"));
  for (const s of sources) {
    if (s === "synthetic") continue;
    const m = train(cases.filter((c) => c.source !== s));
    loso[s] = evaluate(m, cases.filter((c) => c.source === s));
    if (SHOW?.includes(`loso:${s}`)) showMisses(m, cases.filter((c) => c.source === s));
    synOnly[s] = evaluate(synModel, cases.filter((c) => c.source === s));
  }
  evalReport.leave_one_source_out = loso;
  evalReport.synthetic_only = synOnly;
  console.log("leave-one-task-out (each task held out, heuristic → model):");
  for (const [t, r] of Object.entries(loto)) console.log(`  ${t.padEnd(34)} ${fmt(r)}`);
  console.log("leave-one-task-out per source:");
  for (const [s, r] of Object.entries(perSource)) console.log(`  ${s.padEnd(34)} ${fmt(r)}`);
  console.log("leave-one-source-out (trained on synthetic + the other corpus):");
  for (const [s, r] of Object.entries(loso)) console.log(`  ${s.padEnd(34)} ${fmt(r)}`);
  console.log("trained on synthetic cases only:");
  for (const [s, r] of Object.entries(synOnly)) console.log(`  ${s.padEnd(34)} ${fmt(r)}`);
}

const final = train(cases);
const full = evaluate(final, cases);
const model = {
  format: "sightline-rank-linear/1",
  name: "linear-listwise-1",
  features: [...ALL_FEATURES],
  mean: final.mean.map((x) => +x.toPrecision(6)),
  scale: final.scale.map((x) => +x.toPrecision(6)),
  weights: final.weights.map((x) => +x.toPrecision(6)),
  min_confidence: 0.5,
  trained: {
    by: "shared/rank-training/train.mjs",
    cases: cases.length,
    lambda: LAMBDA,
    iterations: ITERS,
    balance: BALANCE,
    scale_floor: SCALE_FLOOR,
    sources: Object.fromEntries([...new Set(cases.map((c) => c.source))].map((s) => [s, cases.filter((c) => c.source === s).length])),
    training_fit: full,
    ...evalReport,
  },
};
fs.writeFileSync(outFile, JSON.stringify(model, null, 1) + "\n");
console.log(`training fit: ${JSON.stringify(full)}`);
console.log(`wrote ${outFile}`);
