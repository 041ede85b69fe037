// @sightline/shared/agent/core: the rules every part of the agent stack shares (actions and their
// answers, errors, the risk tier and whether to ask the person, the activity log, what is
// secret), light enough for the extension's service worker: no session, no prompt formatter
// and its tokenizer (megabytes the worker would parse on every wake-up). Isomorphic.
export * from "./actions.js";
export * from "./errors.js";
export * from "./policy.js";
export * from "./activity.js";
export * from "./secrets.js";
export * from "./uploads.js";
export { fieldIsSecret, fieldLine, isToolAction, loggableFields, sizeText, type ToolAction } from "./policy-tools.js";
