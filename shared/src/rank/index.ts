// Goal-conditioned ranking: heuristic intent matching and the learned reranker.
// Isomorphic.
export { rankByGoal, type GoalCandidate, type GoalRankOptions, type GoalRankResult } from "./goal.js";
export { createLinearReranker, ALL_FEATURES, HEURISTIC_FEATURES, type LinearModel, type Reranker } from "./reranker.js";
export { BASE_FEATURES, computeFeatures } from "./features.js";
export { heuristicScore, HEURISTIC_WEIGHTS } from "./heuristic.js";
export { parseIntent, type Intent, type VerbClass } from "./intent.js";
export { rankFeatures } from "./goal.js";
export { parseRerankSetting, type RerankSetting } from "./setting.js";
