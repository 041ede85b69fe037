// The refinement engine: raw elements in, ranked refined elements out (spec 2.9).
// Isomorphic, pure and synchronous, so the extension can run it offline too.
export { refineSnapshot, type RefineOptions } from "./refine.js";
