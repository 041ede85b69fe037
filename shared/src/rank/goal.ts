// Goal-conditioned ordering of refined elements. The refinement engine calls rankByGoal when a
// request has a goal; this module owns everything about that order (heuristic_index,
// fused_rank_index, ml_probability, ml_score, ml_rerank).
import type { MlRerank, RawElement, RefinedElement } from "../contract/index.js";
import type { Reranker } from "./reranker.js";

export interface GoalCandidate {
  element: RefinedElement;
  /** The raw element it came from (placeholder, aria_label, title... live here). */
  raw: RawElement;
}

export interface GoalRankOptions {
  reranker?: Reranker | null;
}

export interface GoalRankResult {
  /** All candidates, best first, with the per-element rank fields filled. */
  elements: RefinedElement[];
  ml_rerank: MlRerank;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Interim lexical ordering (replaced by the intent-aware ranker). */
export function rankByGoal(goal: string, candidates: GoalCandidate[], opts: GoalRankOptions = {}): GoalRankResult {
  const goalWords = new Set(words(goal));
  const scored = candidates.map((c, i) => {
    const a = c.raw.attributes ?? {};
    const hay = new Set(words([c.element.text, c.element.name, a.placeholder, a.aria_label, c.element.nearby_text].filter(Boolean).join(" ")));
    let hits = 0;
    for (const w of goalWords) if (hay.has(w)) hits++;
    return { c, i, score: hits * 1000 + c.element.importance };
  });
  scored.sort((x, y) => y.score - x.score || x.i - y.i);
  const elements = scored.map(({ c }, rank) => ({ ...c.element, heuristic_index: rank, fused_rank_index: rank }));
  return {
    elements,
    ml_rerank: {
      enabled: Boolean(opts.reranker),
      applied: false,
      reason: opts.reranker ? "error" : "disabled",
      candidate_count: candidates.length,
      top_probability: 0,
      min_confidence: 0,
      is_high_confidence: false,
      tags: [],
      error: opts.reranker ? "reranker not implemented" : null,
    },
  };
}
