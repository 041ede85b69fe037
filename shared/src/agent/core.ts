// The light part of the agent core, for the extension's service worker: actions, the action
// flow, page operations, risk tiers and the activity log, without AgentSession (which brings
// the prompt formatter and its tokenizer: megabytes the worker would parse on every wake-up).
export * from "./actions.js";
export type { ActionTarget, CallHooks, MarkBox, ReadPage } from "./backend.js";
export { isNavigationError, type PageDriver } from "./driver.js";
export { PAGE_AGENT_GLOBAL, type PageCalls, type PageCallName, type PageCallArgs, type PageCallResult, type TargetFacts, type FormFacts } from "./page-calls.js";
export { performAction } from "./perform.js";
export { screenshotWithMarks, waitOnPage } from "./page-ops.js";
export { assessAction, maskSecret, sameSite, type RiskTier, type RiskAssessment } from "./risk.js";
export { isSecretField, isSecretTarget, scrubText, SecretValues, type FieldFacts } from "./secrets.js";
export * from "./activity.js";
export { markListeners, type CdpSend } from "./listener-marks.js";
