// Goal-conditioned ranking: heuristic intent matching and the learned reranker.
// Isomorphic.
export type { Reranker } from "./reranker.js";
