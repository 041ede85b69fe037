// @sightline/shared/agent: what an agent can do on a page and how every backend does it.
// Isomorphic: no DOM, no Node.
export * from "./actions.js";
export type { ActionTarget, AgentBackend, CallHooks, CaptureOptions, MarkBox, ReadPage } from "./backend.js";
export { isNavigationError, type PageDriver } from "./driver.js";
export { PAGE_AGENT_GLOBAL, type PageCalls, type PageCallName, type PageCallArgs, type PageCallResult, type TargetPoint, type SelectResult, type TargetFacts, type FormFacts } from "./page-calls.js";
export { performAction, type PerformOptions } from "./perform.js";
export { screenshotWithMarks, waitOnPage } from "./page-ops.js";
export { AgentSession, compact, MAX_CHANGE_LINES, type SessionDeps, type SnapshotOptions, type SnapshotAnswer, type CompactElement, type ActAnswer, type Billable } from "./session.js";
export { closestElement } from "./closest.js";
export * from "./activity.js";
export { markListeners, LISTENER_MARK_EVENT, type CdpSend } from "./listener-marks.js";
export { markHiddenRuns, hiddenPassagesIn, hiddenIdsOf, stripRunSentinels, followsHiddenText, HIDDEN_NOTICE, HIDDEN_OPEN, HIDDEN_CLOSE, RUN_START, RUN_END, TEXT_HIDDEN_ATTRIBUTE } from "./provenance.js";
export { replayable, replayEntry } from "./replay.js";
export { assessAction, maskSecret, sameSite, SENSITIVE_WORDS, type RiskTier, type RiskContext, type RiskAssessment } from "./risk.js";
export { isSecretField, isSecretTarget, scrubText, SecretValues, MIN_SECRET_LENGTH, type FieldFacts, type SeenTarget } from "./secrets.js";
