// Goal-conditioned ordering of refined elements. The refinement engine calls rankByGoal when a
// request has a goal; this module owns everything about that order (importance with a goal,
// heuristic_index, fused_rank_index, ml_probability, ml_score, ml_rerank).
import type { MlRerank, MlRerankReason, RawElement, RefinedElement } from "../contract/index.js";
import { computeContextFeatures } from "./context.js";
import { BASE_FEATURES, computeFeatures } from "./features.js";
import { heuristicScore } from "./heuristic.js";
import { parseIntent, type Intent } from "./intent.js";
import { GoalLexicon } from "./lexicon.js";
import { ALL_FEATURES, HEURISTIC_FEATURES, type Reranker } from "./reranker.js";

export interface GoalCandidate {
  element: RefinedElement;
  /** The raw element it came from (placeholder, aria_label, title... live here). */
  raw: RawElement;
}

export interface GoalRankOptions {
  /** The learned reranker; null/absent: heuristic order only. */
  reranker?: Reranker | null;
  /** Why there is no reranker, reported as ml_rerank.reason: "disabled" (default) or "model_unavailable". */
  unavailableReason?: Extract<MlRerankReason, "disabled" | "model_unavailable">;
  /**
   * Keep the heuristic order when the model's top probability is below this (reason
   * "low_confidence"). Default 0: the model's order is always used; it was trained to beat the
   * heuristic, and `is_high_confidence` reports its confidence either way.
   */
  applyBelowConfidence?: number;
  /** Build only the first `limit` elements of the order (the caller returns no more). Default all. */
  limit?: number;
}

export interface GoalRankResult {
  /** The candidates (the first `limit`), best first, with the per-element rank fields filled. */
  elements: RefinedElement[];
  ml_rerank: MlRerank;
}

export interface RankFeatures {
  intent: Intent;
  /** Per candidate (input order), ALL_FEATURES columns. */
  rows: Float64Array[];
  heuristic: Float64Array;
  /** Candidate indices in heuristic order. */
  heuristicOrder: number[];
}

/**
 * Features and heuristic order for one request (also used by the training script). The
 * model-only context columns are filled when `forModel` (the heuristic alone never reads them).
 */
export function rankFeatures(goal: string, candidates: GoalCandidate[], forModel = true): RankFeatures {
  const intent = parseIntent(goal);
  const lexicon = new GoalLexicon(intent);
  // Full-width rows from the start: the heuristic and context columns are filled in place.
  const rows = computeFeatures(intent, candidates, ALL_FEATURES.length, lexicon);
  const n = candidates.length;
  const heuristic = new Float64Array(n);
  for (let i = 0; i < n; i++) heuristic[i] = heuristicScore(rows[i]);
  const importance = new Float64Array(n);
  for (let i = 0; i < n; i++) importance[i] = candidates[i].element.importance;
  const heuristicOrder = Array.from({ length: n }, (_, i) => i).sort((a, b) => heuristic[b] - heuristic[a] || importance[b] - importance[a] || a - b);
  const top = n ? heuristic[heuristicOrder[0]] : 0;
  const B = BASE_FEATURES.length;
  const lex = rows.map(lexicalEvidence);
  let bestLex = 0;
  for (const v of lex) bestLex = Math.max(bestLex, v);
  const byImportance = Array.from({ length: n }, (_, i) => i).sort((a, b) => importance[b] - importance[a] || a - b);
  const seenRole = new Set<string>();
  heuristicOrder.forEach((ci, rank) => {
    const row = rows[ci];
    row[B] = heuristic[ci];
    row[B + 1] = heuristic[ci] - top;
    row[B + 2] = 1 / (1 + rank);
    row[B + 3] = rank === 0 ? 1 : 0;
    row[B + 4] = lex[ci] - bestLex;
    const role = candidates[ci].element.role;
    row[B + 6] = seenRole.has(role) ? 0 : 1;
    seenRole.add(role);
  });
  byImportance.forEach((ci, rank) => (rows[ci][B + 5] = 1 / (1 + rank)));
  if (forModel) computeContextFeatures(intent, candidates, rows, B + HEURISTIC_FEATURES.length, lex, lexicon);
  return { intent, rows, heuristic, heuristicOrder };
}

const L = (f: (typeof BASE_FEATURES)[number]) => BASE_FEATURES.indexOf(f);
const LEX_COLS: [number, number][] = [
  [L("quoted_exact"), 1], [L("quoted_contains"), 0.5], [L("cov_exact"), 1], [L("cov_stem"), 1], [L("cov_syn"), 0.5],
  [L("nearby_control"), 1], [L("tuple_match"), 1], [L("number_match"), 0.5],
];
const LEX_COL = Int32Array.from(LEX_COLS, ([c]) => c);
const LEX_WEIGHT = Float64Array.from(LEX_COLS, ([, w]) => w);
/** How much of the goal's wording the element carries, whatever its kind or position. */
function lexicalEvidence(row: Float64Array): number {
  let s = 0;
  for (let k = 0; k < LEX_COL.length; k++) s += LEX_WEIGHT[k] * row[LEX_COL[k]];
  return s;
}

function intentTags(intent: Intent): string[] {
  const tags = [`verb:${intent.verb}`];
  if (intent.quoted.length) tags.push("quoted");
  if (intent.numbers.length) tags.push("number");
  if (intent.ordinal !== null) tags.push("ordinal");
  if (intent.superlative) tags.push(`superlative:${intent.superlative.kind}-${intent.superlative.of}`);
  if (intent.hasDate) tags.push("date");
  return tags;
}

export function rankByGoal(goal: string, candidates: GoalCandidate[], opts: GoalRankOptions = {}): GoalRankResult {
  const n = candidates.length;
  const reranker = opts.reranker ?? null;
  const { intent, rows, heuristic, heuristicOrder } = rankFeatures(goal, candidates, reranker !== null);
  const heuristicIndex = new Int32Array(n);
  heuristicOrder.forEach((ci, rank) => (heuristicIndex[ci] = rank));

  const tags = intentTags(intent);
  const ml: MlRerank = {
    enabled: reranker !== null,
    applied: false,
    reason: reranker ? "applied" : (opts.unavailableReason ?? "disabled"),
    candidate_count: n,
    top_probability: 0,
    min_confidence: reranker?.minConfidence ?? 0,
    is_high_confidence: false,
    tags,
    error: null,
  };

  let logits: Float64Array | null = null;
  let probs: Float64Array | null = null;
  let finalOrder = heuristicOrder;
  if (reranker) {
    tags.push(`model:${reranker.name}`);
    if (n < 2) {
      ml.reason = "too_few_candidates";
    } else {
      try {
        const s = reranker.score(rows);
        if (s.length !== n) throw new Error(`model returned ${s.length} scores for ${n} candidates`);
        let max = Number.NEGATIVE_INFINITY;
        for (const v of s) {
          if (!Number.isFinite(v)) throw new Error("model returned a non-finite score");
          if (v > max) max = v;
        }
        // Probability = softmax share within this request: the model was trained listwise.
        const p = new Float64Array(n);
        let z = 0;
        for (let i = 0; i < n; i++) z += p[i] = Math.exp(s[i] - max);
        let top = 0;
        for (let i = 0; i < n; i++) top = Math.max(top, (p[i] /= z));
        logits = s;
        probs = p;
        ml.top_probability = top;
        ml.is_high_confidence = top >= ml.min_confidence;
        if (top < (opts.applyBelowConfidence ?? 0)) {
          ml.reason = "low_confidence";
        } else {
          finalOrder = [...heuristicOrder].sort((a, b) => s[b] - s[a] || heuristicIndex[a] - heuristicIndex[b]);
          ml.applied = true;
          ml.reason = "applied";
        }
      } catch (err) {
        ml.reason = "error";
        ml.error = err instanceof Error ? err.message : String(err);
        logits = probs = null;
      }
    }
  }

  // With a goal, importance is goal relevance: the final score rescaled to 0..1000 across the
  // candidates (best = 1000), made non-increasing along the returned order so the list stays
  // "sorted by importance" (spec 2.8).
  const finalScore = ml.applied && logits ? logits : heuristic;
  let lo = Number.POSITIVE_INFINITY, hi = Number.NEGATIVE_INFINITY;
  for (const v of finalScore) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  let prev = 1000;
  const shown = opts.limit === undefined ? finalOrder : finalOrder.slice(0, Math.max(0, opts.limit));
  const elements = shown.map((ci, rank) => {
    const rel = hi > lo ? (finalScore[ci] - lo) / (hi - lo) : 1;
    const importance = Math.min(prev, Math.round(1000 * rel));
    prev = importance;
    return {
      ...candidates[ci].element,
      importance,
      heuristic_index: heuristicIndex[ci],
      fused_rank_index: rank,
      ml_probability: probs ? probs[ci] : null,
      ml_score: logits ? logits[ci] : null,
    };
  });
  return { elements, ml_rerank: ml };
}
