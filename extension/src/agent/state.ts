// What the background's agent supervisor shows the side panel, and what the panel may ask of
// it. The panel renders this state; the background owns it.
import type { ActivityEntry, AgentAction, Tier } from "@sightline/shared/agent/core";
import type { FormFacts } from "@sightline/shared/agent/perform";

export type ConnectionStatus = "off" | "connecting" | "connected" | "reconnecting" | "lost";

export interface ConnectionState {
  status: ConnectionStatus;
  /** In words: why off or lost, where connected. */
  detail: string;
  /** When the status last changed (ms since epoch). */
  since: number;
}

/** running: calls go through; paused: calls wait; takeover: the person works on the tab, calls wait. */
export type AgentMode = "running" | "paused" | "takeover";

export interface PendingApproval {
  id: string;
  tabId: number;
  /** The page's origin, for "act runs on this site". */
  origin: string;
  tier: Tier;
  summary: string;
  reasons: string[];
  action: AgentAction;
  /** The element id it is aimed at (highlighted on the page). */
  targetId: number | null;
  /** What a submit would send (secrets masked in the page). */
  form: FormFacts | null;
  /** Typing into a secret field: the text is hidden and cannot be edited in the clear. */
  secret: boolean;
  /** The agent's first action on this tab also attaches the debugger: the card says so. */
  attachesDebugger: boolean;
  at: number;
}

/**
 * One call in the activity log: the shared sightline-activity/1 entry (so `sightline replay`
 * takes the panel's export), plus the card's line and how long the call took.
 */
export interface LogEntry extends ActivityEntry {
  summary: string;
  ms: number;
}

export interface AgentState {
  connection: ConnectionState;
  /** Tab ids shared with agents. */
  shared: number[];
  /** Tabs the debugger is attached to. */
  attached: number[];
  /** Origins where act runs without asking, for this browser session. */
  allowedSites: string[];
  mode: AgentMode;
  pending: PendingApproval[];
  log: LogEntry[];
}

export type AgentRequest =
  | { type: "agent-state" }
  | { type: "agent-share"; tabId: number; on: boolean }
  | { type: "agent-decide"; id: string; approve: boolean; text?: string }
  | { type: "agent-allow-site"; origin: string; on: boolean }
  | { type: "agent-mode"; mode: AgentMode }
  | { type: "agent-reconnect" };

/** Broadcast to the extension's pages whenever the state changes. */
export const AGENT_STATE_TAG = "sightline/agent-state";
export interface AgentStateEnvelope {
  tag: typeof AGENT_STATE_TAG;
  state: AgentState;
}
