// @sightline/shared/agent: what an agent can do on a page and how every backend does it: the
// shared rules (core/), the session and the MCP server built on it (session/), the action flow
// (perform/) and the bridge protocol (backends/bridge/). Isomorphic: no DOM, no Node. The
// headless backend (Node) is @sightline/shared/agent/headless; the in-page agent (browser) is
// the bundle dist/page-agent.js.
export * from "./core/index.js";
export * from "./perform/index.js";
export type { ActOptions, ActOutcome, AgentBackend, CallHooks, CaptureOptions, MarkBox, ReadPage } from "./session/backend.js";
export { AgentSession, compact, MAX_CHANGE_LINES, type SessionDeps, type SnapshotOptions, type SnapshotAnswer, type CompactElement, type ActAnswer, type Billable } from "./session/session.js";
export { closestElement, staleAnswer } from "./session/stale.js";
export { markHiddenRuns, hiddenPassagesIn, hiddenIdsOf, stripRunSentinels, followsHiddenText, HIDDEN_NOTICE, HIDDEN_OPEN, HIDDEN_CLOSE, RUN_START, RUN_END, TEXT_HIDDEN_ATTRIBUTE } from "./session/provenance.js";
export { replayable, replayEntry } from "./session/replay.js";
export { composeAgentServer, SIGHTLINE_MCP_VERSION, STRUCTURED_META, type AgentServer, type AgentServerParts } from "./session/compose.js";
export { TOOLS, defineTool, toolTable, answerText, API_PRICES, LOCAL_PRICES, REST_TWIN, priceNote, type PriceList, type ToolAnswer, type ToolContext, type ToolDefinition } from "./tools/index.js";
