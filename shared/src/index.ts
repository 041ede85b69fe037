// @sightline/shared: the isomorphic public face (contract, refinement, ranking).
// Browser-only (collector, overlay) and Node-only (playwright) parts have their own entry points.
export * from "./contract/index.js";
export * from "./refine/index.js";
export * from "./rank/index.js";
