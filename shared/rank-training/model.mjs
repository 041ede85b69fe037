// The goal reranker's training, as functions: the CLI (train.mjs) trains and writes model.json;
// bench/quality/rank-lofo.mjs holds out one task family at a time on our own generated set.
//
// Data: synthetic cases from synth.mjs plus collected corpus files (collect.mjs output, or
// bench/quality/rank-targets.mjs --jsonl). Every case goes through the real refinement engine
// (shared/dist, so build first) with a capturing reranker, so the features are exactly the ones
// the server computes. Model: linear, listwise softmax over one request's candidates,
// L2-regularised towards "heuristic only" (so with little evidence it stays the heuristic).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSynthetic } from "./synth.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const { refineSnapshot } = await import(path.join(here, "..", "dist", "refine", "index.js"));
const { ALL_FEATURES } = await import(path.join(here, "..", "dist", "rank", "index.js"));
export { ALL_FEATURES };

/** Training settings; the CLI's flags override them (the defaults reproduce the committed model). */
export const DEFAULTS = { lambda: 0.05, iters: 120, balance: "task", scaleFloor: 0.1 };
const F = ALL_FEATURES.length;
const H = ALL_FEATURES.indexOf("heuristic_score");

/** Intersection over union of two boxes: how the gold element is found among the candidates. */
export function iou(a, b) {
  const x1 = Math.max(a.x, b.x), y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width), y2 = Math.min(a.y + a.height, b.y + b.height);
  const i = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const u = a.width * a.height + b.width * b.height - i;
  return u > 0 ? i / u : 0;
}

/** Runs the engine on one case: feature rows (candidate order) and the gold row, or null; `labelled` adds labels for printing misses. */
export function featurize(body, goal, isGold, labelled = false) {
  let captured = null;
  const capture = { name: "capture", minConfidence: 0, score: (rows) => { captured = rows.map((r) => Float64Array.from(r)); return Float64Array.from(rows, (_, i) => -i); } };
  const res = refineSnapshot({ ...body, goal, options: { limit: 1e6 } }, { cap: 1e6, reranker: capture });
  if (!captured) return null;
  // ml_score = -candidate index (the capture's logits): maps returned elements back to rows.
  let gold = -1, best = 0;
  const labels = labelled ? [] : null;
  for (const e of res.elements) {
    const s = isGold(e);
    if (s > best) { best = s; gold = -e.ml_score; }
    if (labels) labels[-e.ml_score] = `${e.role}:${JSON.stringify((e.text || e.name || "").slice(0, 40))}@${Math.round(e.bbox.x)},${Math.round(e.bbox.y)}`;
  }
  return { rows: captured, gold, goal, labels };
}

/**
 * Every case: the synthetic families (source "synthetic") and each data file's cases (source =
 * the file's name; task = "source/task"), gold found by box overlap. Returns the cases and, per
 * file, how often the gold element was among the candidates at all.
 */
export function loadCases(dataFiles, { labelled = false } = {}) {
  const cases = [];
  for (const c of generateSynthetic({ seed: 7, perFamily: 150 })) {
    const f = featurize(c.body, c.goal, (e) => (e.id === c.gold_id ? 1 : 0), labelled);
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
      const f = featurize(c.body, c.goal, (e) => { const v = iou(e.bbox, c.gold_bbox); return v >= 0.5 ? v : 0; }, labelled);
      if (!f || f.gold < 0) continue;
      present++;
      cases.push({ source, task: `${source}/${c.task}`, ...f });
    }
    coverage[source] = { cases: n, gold_in_candidates: n ? present / n : 0 };
  }
  return { cases, coverage };
}

function standardizer(cs, scaleFloor) {
  const mean = new Float64Array(F), sq = new Float64Array(F);
  let n = 0;
  for (const c of cs) for (const r of c.rows) { n++; for (let j = 0; j < F; j++) { mean[j] += r[j]; sq[j] += r[j] * r[j]; } }
  const scale = new Float64Array(F);
  for (let j = 0; j < F; j++) {
    mean[j] /= n;
    const v = sq[j] / n - mean[j] * mean[j];
    // Floor: a rare binary feature (std 0.02) would otherwise get a huge raw weight for a small
    // standardized one, beyond what the L2 pull towards the heuristic can hold back.
    scale[j] = v > 1e-12 ? Math.max(scaleFloor, Math.sqrt(v)) : 1;
  }
  return { mean, scale };
}

/** Listwise softmax, Adam, L2 towards w0 (= heuristic only). Case weights balance sources. */
export function train(cs, { lambda = DEFAULTS.lambda, iters = DEFAULTS.iters, balance = DEFAULTS.balance, scaleFloor = DEFAULTS.scaleFloor, lr = 0.05 } = {}) {
  const { mean, scale } = standardizer(cs, scaleFloor);
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
  const weight = cs.map((c) => (balance === "task" ? cs.length / (nSources * tasksOf[c.source].size * byTask[c.task]) : cs.length / (nSources * bySource[c.source])));
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

export function rankOf(scores, gold) {
  let r = 1;
  for (let i = 0; i < scores.length; i++) if (scores[i] > scores[gold] || (scores[i] === scores[gold] && i < gold)) r++;
  return r;
}
/**
 * A model's score of each candidate row: a trained model ({ weights, mean, scale } over
 * ALL_FEATURES, as train() returns it) or a Reranker (createLinearReranker of a saved model
 * file, which lays its named features on today's list itself).
 */
function scoresOf(model, rows) {
  if (typeof model.score === "function") return Array.from(model.score(rows));
  return rows.map((r) => r.reduce((s, x, j) => s + (model.weights[j] * (x - model.mean[j])) / model.scale[j], 0));
}

export function evaluate(model, cs) {
  let h1 = 0, m1 = 0, h3 = 0, m3 = 0, mrrH = 0, mrrM = 0;
  for (const c of cs) {
    // Heuristic order = candidate order sorted by heuristic_score (ties by input order, as in rankByGoal up to importance).
    const hs = c.rows.map((r) => r[H] + 1e-9 * r[ALL_FEATURES.indexOf("heuristic_rank_recip")]);
    const ms = scoresOf(model, c.rows);
    const rh = rankOf(hs, c.gold), rm = rankOf(ms, c.gold);
    h1 += rh === 1; m1 += rm === 1; h3 += rh <= 3; m3 += rm <= 3; mrrH += 1 / rh; mrrM += 1 / rm;
  }
  const n = cs.length || 1;
  const f = (x) => +(x / n).toFixed(3);
  return { n: cs.length, heuristic_hit1: f(h1), model_hit1: f(m1), heuristic_hit3: f(h3), model_hit3: f(m3), heuristic_mrr: f(mrrH), model_mrr: f(mrrM) };
}
/** Sums per-group evaluate() results back into one (weighted by n). */
export function pool(results) {
  const out = { n: 0 };
  for (const r of results) {
    out.n += r.n;
    for (const [k, v] of Object.entries(r)) if (k !== "n") out[k] = (out[k] ?? 0) + v * r.n;
  }
  for (const k of Object.keys(out)) if (k !== "n") out[k] = +(out[k] / (out.n || 1)).toFixed(3);
  return out;
}
export const fmt = (r) => `n=${String(r.n).padStart(4)}  Hit@1 ${r.heuristic_hit1.toFixed(3)} → ${r.model_hit1.toFixed(3)}  Hit@3 ${r.heuristic_hit3.toFixed(3)} → ${r.model_hit3.toFixed(3)}  MRR ${r.heuristic_mrr.toFixed(3)} → ${r.model_mrr.toFixed(3)}`;

/** Prints a model's held-out misses: goal, gold, the top 3 and the features that put them there. */
export function showMisses(model, cs) {
  for (const c of cs) {
    const ms = scoresOf(model, c.rows);
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
