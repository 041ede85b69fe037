// The learned reranker: a linear model over the features, trained listwise (softmax over one
// request's candidates) by shared/rank-training/train.mjs. Weights live in model.json (small) and
// are loaded by whoever hosts the engine (server at start, extension at build time).
import { BASE_FEATURES } from "./features.js";
import { CONTEXT_FEATURES } from "./context.js";

/** Features the heuristic's own verdict adds for the model (computed after heuristic ordering). */
export const HEURISTIC_FEATURES = [
  "heuristic_score",
  "heuristic_gap", // score minus the request's best score
  "heuristic_rank_recip", // 1 / (1 + heuristic rank)
  "heuristic_top",
  "lexical_gap", // lexical evidence minus the request's best lexical evidence
  "importance_rank_recip", // 1 / (1 + rank by goal-free importance)
  "role_best", // best heuristic score among the candidates of its role
] as const;
export const ALL_FEATURES: readonly string[] = [...BASE_FEATURES, ...HEURISTIC_FEATURES, ...CONTEXT_FEATURES];

export interface Reranker {
  readonly name: string;
  /** Probability the top candidate needs for `is_high_confidence`. */
  readonly minConfidence: number;
  /** One logit per feature row (rows follow ALL_FEATURES order). Throws on failure. */
  score(rows: readonly Float64Array[]): Float64Array;
}

/** The committed JSON model format. */
export interface LinearModel {
  format: "sightline-rank-linear/1";
  name: string;
  features: string[];
  /** Standardisation applied before the weights: (x - mean) / scale. */
  mean: number[];
  scale: number[];
  weights: number[];
  min_confidence: number;
  /** Free-form training metadata (cases, held-out scores). */
  trained?: unknown;
}

function isNumArray(v: unknown, len: number): v is number[] {
  return Array.isArray(v) && v.length === len && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** Validates a parsed model file and builds the reranker. Throws with a reason when the file is unusable. */
export function createLinearReranker(model: unknown): Reranker {
  const m = model as Partial<LinearModel> | null;
  if (!m || typeof m !== "object" || m.format !== "sightline-rank-linear/1") throw new Error("rank model: unknown format");
  if (!Array.isArray(m.features) || !m.features.every((f) => typeof f === "string")) throw new Error("rank model: features missing");
  const k = m.features.length;
  if (!isNumArray(m.weights, k) || !isNumArray(m.mean, k) || !isNumArray(m.scale, k)) throw new Error("rank model: weights/mean/scale must be finite arrays matching features");
  const cols = m.features.map((f) => {
    const i = ALL_FEATURES.indexOf(f);
    if (i < 0) throw new Error(`rank model: unknown feature ${f}`);
    return i;
  });
  // Fold standardisation into the weights once: w·(x-μ)/σ = (w/σ)·x - Σ wμ/σ.
  const w = m.weights.map((wi, j) => wi / (m.scale![j] || 1));
  const bias = -m.weights.reduce((s, wi, j) => s + (wi * m.mean![j]) / (m.scale![j] || 1), 0);
  const minConfidence = typeof m.min_confidence === "number" ? m.min_confidence : 0.5;
  const name = typeof m.name === "string" ? m.name : "linear";
  return {
    name,
    minConfidence,
    score(rows) {
      const out = new Float64Array(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        let s = bias;
        for (let j = 0; j < cols.length; j++) s += w[j] * row[cols[j]];
        out[r] = s;
      }
      return out;
    },
  };
}
