// The contract (spec: shared/spec/observation-api.md) as schemas, types and validators.
// Isomorphic: no DOM, no Node APIs.
export * from "./common.js";
export * from "./limits.js";
export * from "./snapshot.js";
export * from "./observe.js";
export * from "./errors.js";
export * from "./validate.js";
