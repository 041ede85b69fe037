// Trains the goal reranker (npm run train:rank) and writes shared/src/rank/model.json.
//
// Data: synthetic cases from rank-synth.mjs (always) plus any collected corpus files
// (rank-collect.mjs output, default $TMPDIR/sightline-rank/*.jsonl). Every case goes through the
// real refinement engine (shared/dist, so build first) with a capturing reranker, so the features
// are exactly the ones the server computes. Model: linear, listwise softmax over one request's
// candidates, L2-regularised towards "heuristic only" (so with little evidence it stays the
// heuristic). Evaluation: leave-one-task-out (every task/family held out in turn) and
// leave-one-source-out (train without a corpus, test on it), heuristic vs model, Hit@1.
//
//   node shared/scripts/train-rank.mjs [--data a.jsonl,b.jsonl] [--out model.json] [--no-eval]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSynthetic } from "./rank-synth.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { refineSnapshot } = await import(path.join(here, "..", "dist", "refine", "index.js"));
const { ALL_FEATURES } = await import(path.join(here, "..", "dist", "rank", "index.js"));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const cacheDir = path.join(os.tmpdir(), "sightline-rank");
const dataFiles = (opt("data", null)?.split(",") ?? (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(cacheDir, f)) : [])).filter(Boolean);
const outFile = path.resolve(opt("out", path.join(here, "..", "src", "rank", "model.json")));
const doEval = !args.includes("--no-eval");
const LAMBDA = Number(opt("lambda", "0.05"));
const ITERS = Number(opt("iters", "120"));
const BALANCE = opt("balance", "task");
const SCALE_FLOOR = Number(opt("scale-floor", "0.1"));
const F = ALL_FEATURES.length;
// --show TASK,TASK: print those tasks' held-out misses (goal, gold, the model's top 3).
const SHOW = opt("show", null)?.split(",") ?? null;
const H = ALL_FEATURES.indexOf("heuristic_score");

function iou(a, b) {
  const x1 = Math.max(a.x, b.x), y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width), y2 = Math.min(a.y + a.height, b.y + b.height);
  const i = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const u = a.width * a.height + b.width * b.height - i;
  return u > 0 ? i / u : 0;
}

/** Runs the engine on one case; returns feature rows (candidate order) and the gold row, or null. */
function featurize(body, goal, isGold) {
  let captured = null;
  const capture = { name: "capture", minConfidence: 0, score: (rows) => { captured = rows.map((r) => Float64Array.from(r)); return Float64Array.from(rows, (_, i) => -i); } };
  const res = refineSnapshot({ ...body, goal, options: { limit: 1e6 } }, { cap: 1e6, reranker: capture });
  if (!captured) return null;
  // ml_score = -candidate index (the capture's logits): maps returned elements back to rows.
  let gold = -1, best = 0;
  const labels = SHOW ? [] : null;
  for (const e of res.elements) {
    const s = isGold(e);
    if (s > best) { best = s; gold = -e.ml_score; }
    if (labels) labels[-e.ml_score] = `${e.role}:${JSON.stringify((e.text || e.name || "").slice(0, 40))}@${Math.round(e.bbox.x)},${Math.round(e.bbox.y)}`;
  }
  return { rows: captured, gold, goal, labels };
}

// ------------------------------------------------------------------ data
const cases = [];
const t0 = Date.now();
for (const c of generateSynthetic({ seed: 7, perFamily: 150 })) {
  const f = featurize(c.body, c.goal, (e) => (e.id === c.gold_id ? 1 : 0));
  if (f && f.gold >= 0) cases.push({ source: "synthetic", task: c.task, ...f });
}
const coverage = {};
for (const file of dataFiles) {
  const source = path.basename(file, ".jsonl");
  let n = 0, present = 0;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    n++;
    if (!c.gold_bbox) continue;
    const f = featurize(c.body, c.goal, (e) => { const v = iou(e.bbox, c.gold_bbox); return v >= 0.5 ? v : 0; });
    if (!f || f.gold < 0) continue;
    present++;
    cases.push({ source, task: `${source}/${c.task}`, ...f });
  }
  coverage[source] = { cases: n, gold_in_candidates: n ? present / n : 0 };
}
console.error(`featurized ${cases.length} cases in ${Date.now() - t0} ms; sources: ${JSON.stringify(coverage)}`);

// ------------------------------------------------------------------ model
function standardizer(cs) {
  const mean = new Float64Array(F), sq = new Float64Array(F);
  let n = 0;
  for (const c of cs) for (const r of c.rows) { n++; for (let j = 0; j < F; j++) { mean[j] += r[j]; sq[j] += r[j] * r[j]; } }
  const scale = new Float64Array(F);
  for (let j = 0; j < F; j++) {
    mean[j] /= n;
    const v = sq[j] / n - mean[j] * mean[j];
    // Floor: a rare binary feature (std 0.02) would otherwise get a huge raw weight for a small
    // standardized one, beyond what the L2 pull towards the heuristic can hold back.
    scale[j] = v > 1e-12 ? Math.max(SCALE_FLOOR, Math.sqrt(v)) : 1;
  }
  return { mean, scale };
}

/** Listwise softmax, Adam, L2 towards w0 (= heuristic only). Case weights balance sources. */
function train(cs, { lambda = LAMBDA, iters = ITERS, lr = 0.05 } = {}) {
  const { mean, scale } = standardizer(cs);
  // Packed standardized rows: one Float64Array, case c owns rows [off[c], off[c+1]).
  const total = cs.reduce((n, c) => n + c.rows.length, 0);
  const X = new Float64Array(total * F);
  const off = new Int32Array(cs.length + 1);
  let k = 0;
  cs.forEach((c, ci) => {
    off[ci] = k;
    for (const r of c.rows) { for (let j = 0; j < F; j++) X[k * F + j] = (r[j] - mean[j]) / scale[j]; k++; }
  });
  off[cs.length] = k;
  // Every source weighs the same, and inside a source every task (a corpus has 83 cases of
  // one task and 4 of another; an unseen site has its own mix).
  const bySource = {}, byTask = {}, tasksOf = {};
  for (const c of cs) {
    bySource[c.source] = (bySource[c.source] ?? 0) + 1;
    byTask[c.task] = (byTask[c.task] ?? 0) + 1;
    (tasksOf[c.source] ??= new Set()).add(c.task);
  }
  const nSources = Object.keys(bySource).length;
  const weight = cs.map((c) => (BALANCE === "task" ? cs.length / (nSources * tasksOf[c.source].size * byTask[c.task]) : cs.length / (nSources * bySource[c.source])));
  const wsum = weight.reduce((a, b) => a + b, 0);
  const w0 = new Float64Array(F);
  w0[H] = scale[H]; // the heuristic score unchanged: logit = heuristic
  const w = Float64Array.from(w0);
  const m = new Float64Array(F), v = new Float64Array(F);
  const s = new Float64Array(total);
  for (let it = 1; it <= iters; it++) {
    const g = new Float64Array(F);
    for (let ci = 0; ci < cs.length; ci++) {
      const a = off[ci], b = off[ci + 1];
      let mx = -Infinity;
      for (let i = a; i < b; i++) {
        let z = 0;
        for (let j = 0; j < F; j++) z += w[j] * X[i * F + j];
        s[i] = z;
        if (z > mx) mx = z;
      }
      let Z = 0;
      for (let i = a; i < b; i++) Z += s[i] = Math.exp(s[i] - mx);
      const gold = a + cs[ci].gold;
      for (let i = a; i < b; i++) {
        const d = (s[i] / Z - (i === gold ? 1 : 0)) * weight[ci];
        if (Math.abs(d) > 1e-12) for (let j = 0; j < F; j++) g[j] += d * X[i * F + j];
      }
    }
    for (let j = 0; j < F; j++) {
      const gj = g[j] / wsum + lambda * (w[j] - w0[j]);
      m[j] = 0.9 * m[j] + 0.1 * gj;
      v[j] = 0.999 * v[j] + 0.001 * gj * gj;
      w[j] -= (lr * (m[j] / (1 - 0.9 ** it))) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return { mean: [...mean], scale: [...scale], weights: [...w] };
}

function rankOf(scores, gold) {
  let r = 1;
  for (let i = 0; i < scores.length; i++) if (scores[i] > scores[gold] || (scores[i] === scores[gold] && i < gold)) r++;
  return r;
}
function evaluate(model, cs) {
  let h1 = 0, m1 = 0, h3 = 0, m3 = 0, mrrH = 0, mrrM = 0;
  for (const c of cs) {
    // Heuristic order = candidate order sorted by heuristic_score (ties by input order, as in rankByGoal up to importance).
    const hs = c.rows.map((r) => r[H] + 1e-9 * r[ALL_FEATURES.indexOf("heuristic_rank_recip")]);
    const ms = c.rows.map((r) => r.reduce((s, x, j) => s + (model.weights[j] * (x - model.mean[j])) / model.scale[j], 0));
    const rh = rankOf(hs, c.gold), rm = rankOf(ms, c.gold);
    h1 += rh === 1; m1 += rm === 1; h3 += rh <= 3; m3 += rm <= 3; mrrH += 1 / rh; mrrM += 1 / rm;
  }
  const n = cs.length || 1;
  const f = (x) => +(x / n).toFixed(3);
  return { n: cs.length, heuristic_hit1: f(h1), model_hit1: f(m1), heuristic_hit3: f(h3), model_hit3: f(m3), heuristic_mrr: f(mrrH), model_mrr: f(mrrM) };
}
/** Sums per-group evaluate() results back into one (weighted by n). */
function pool(results) {
  const out = { n: 0 };
  for (const r of results) {
    out.n += r.n;
    for (const [k, v] of Object.entries(r)) if (k !== "n") out[k] = (out[k] ?? 0) + v * r.n;
  }
  for (const k of Object.keys(out)) if (k !== "n") out[k] = +(out[k] / (out.n || 1)).toFixed(3);
  return out;
}
const fmt = (r) => `n=${String(r.n).padStart(4)}  Hit@1 ${r.heuristic_hit1.toFixed(3)} → ${r.model_hit1.toFixed(3)}  Hit@3 ${r.heuristic_hit3.toFixed(3)} → ${r.model_hit3.toFixed(3)}  MRR ${r.heuristic_mrr.toFixed(3)} → ${r.model_mrr.toFixed(3)}`;

function showMisses(model, cs) {
  for (const c of cs) {
    const ms = c.rows.map((r) => r.reduce((s, x, j) => s + (model.weights[j] * (x - model.mean[j])) / model.scale[j], 0));
    const order = [...ms.keys()].sort((a, b) => ms[b] - ms[a]);
    const hs = c.rows.map((r) => r[H]);
    const rh = rankOf(hs, c.gold);
    if (order[0] === c.gold && rh === 1) continue;
    console.log(`  MISS "${c.goal}" heuristic rank ${rh}, model rank ${order.indexOf(c.gold) + 1}; gold ${c.labels[c.gold]}`);
    for (const i of order.slice(0, 3)) {
      const contrib = ALL_FEATURES.map((f, j) => [f, (model.weights[j] * (c.rows[i][j] - model.mean[j])) / model.scale[j] - (model.weights[j] * (c.rows[c.gold][j] - model.mean[j])) / model.scale[j]]).filter((x) => Math.abs(x[1]) > 0.3).sort((a, b) => b[1] - a[1]).slice(0, 6);
      console.log(`     ${c.labels[i]} ${ms[i].toFixed(2)} vs gold ${ms[c.gold].toFixed(2)}: ${contrib.map(([f, v]) => `${f}${v > 0 ? "+" : ""}${v.toFixed(2)}`).join(" ")}`);
    }
  }
}

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
    by: "shared/scripts/train-rank.mjs",
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
