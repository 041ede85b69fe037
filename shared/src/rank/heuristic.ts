// The intent-aware heuristic: a hand-set weighted sum of the base features. It is the ranking
// when no model is loaded, and the learned reranker's strongest input.
import { BASE_FEATURES, type BaseFeature } from "./features.js";

/** Hand-set weights (documented in the README's ranking section); unlisted features weigh 0. */
export const HEURISTIC_WEIGHTS: Partial<Record<BaseFeature, number>> = {
  quoted_exact: 4,
  quoted_verbatim: 0.5,
  quoted_contains: 2.5,
  quoted_nearby: 1,
  quoted_absent_tab: 2,
  cov_exact: 3,
  cov_stem: 2.5,
  cov_syn: 1.2,
  cov_nearby: 0.5,
  nearby_control: 1.5,
  label_word: 1,
  cov_attr: 1,
  precision: 1,
  number_match: 1.5,
  tuple_match: 4,
  ordinal_match: 2.5,
  superlative_match: 2.5,
  verb_agree: 0.8,
  role_hint: 0.8,
  date_field: 2,
  value_entry: 0.5,
  importance: 0.5,
  in_viewport: 0.3,
  is_occluded: -1,
  disabled: -0.8,
  in_dominant_group: 0.1,
  empty_text: -0.2,
  row_ctx: 2,
  static_container: -3,
  concept_match: 3,
  concept_near: -2.5,
  purpose_cov: 1.5,
  off_page: -2,
};

const W = BASE_FEATURES.map((f) => HEURISTIC_WEIGHTS[f] ?? 0);

export function heuristicScore(row: Float64Array): number {
  let s = 0;
  for (let i = 0; i < W.length; i++) s += W[i] * row[i];
  return s;
}
