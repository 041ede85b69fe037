// Goal-conditioned ranking: heuristic intent matching and the learned reranker.
// Isomorphic.
export type { Reranker } from "./reranker.js";
export { rankByGoal, type GoalCandidate, type GoalRankOptions, type GoalRankResult } from "./goal.js";
