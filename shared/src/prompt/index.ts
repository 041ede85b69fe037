// @sightline/shared/prompt: snapshots for LLM prompts (toPrompt) and between steps (diff).
// Isomorphic.
export { toPrompt, DEFAULT_TOKEN_BUDGET, type ToPromptOptions, type PromptResult, type PromptSource } from "./to-prompt.js";
export { formatElement, labelOf, redundantType, MAX_LABEL_CHARS, MAX_VALUE_CHARS, type LineOptions } from "./format.js";
export { countTokens } from "./tokens.js";
export {
  diff,
  compareElements,
  MOVE_THRESHOLD_PX,
  RESIZE_THRESHOLD_PX,
  type DiffSummary,
  type DiffResult,
  type DiffSource,
} from "./diff.js";
