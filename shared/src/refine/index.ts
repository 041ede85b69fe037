// The refinement engine: raw elements in, ranked refined elements out (spec 2.9).
// Isomorphic, pure and synchronous, so the extension can run it offline too.
export { refineSnapshot, type RefineOptions } from "./refine.js";
export { toObserveImportance } from "./observe.js";
export { deriveRole, explicitRole, tierPoints, type RoleInfo } from "./roles.js";
export { describeColor, parseColor, nearestName } from "./colors.js";
export { deriveViewport, FALLBACK_VIEWPORT } from "./geometry.js";
export { DIAGNOSTIC_PENALTIES, type DiagnosticCode } from "./diagnostics.js";
export { effectiveLimit } from "./filter.js";
