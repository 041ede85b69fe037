// The bridge between the Sightline server and the extension in the person's browser: one
// WebSocket the extension opens to the server it is configured with (never the other way, and
// nothing a web page can reach). The server relays an agent's tool calls for the same account;
// the extension answers from the tabs the person shared. Isomorphic: both ends import it.
import type { ActionResult, ActionTarget, AgentAction, AgentTab } from "../../core/actions.js";
import type { AgentErrorCode } from "../../core/errors.js";
import type { MarkBox, ReadPage } from "../../session/backend.js";
import type { SnapshotRequest } from "../../../contract/index.js";

/** Path of the WebSocket endpoint on the server. */
export const BRIDGE_PATH = "/v1/bridge";
export const BRIDGE_PROTOCOL_VERSION = 1;
/** The server pings this often; the extension treats 3 missed pings as a lost connection. */
export const HEARTBEAT_MS = 20_000;

/** WebSocket close codes the server uses (4000-4999 are the application's). */
export const CLOSE = {
  /** No, malformed or unknown key in hello. Do not retry until the key changes. */
  unauthorized: 4401,
  /** The account is deactivated. */
  forbidden: 4403,
  /** The first message was not a valid hello, or a message broke the protocol. */
  protocol: 4400,
  /** The same extension instance connected again; this older socket is closed. */
  replaced: 4409,
  /** Too many failed hellos from this client: retry later (the reason says when). */
  rateLimited: 4429,
  /** The server is shutting down; reconnect with backoff. */
  shutdown: 4503,
} as const;

/**
 * An upload's file (issue 33), carried from the agent's side: the extension builds a File of it
 * in the page (the person's disk is never read or written). `base64` is the content.
 */
export interface UploadFile {
  name: string;
  size: number;
  base64: string;
}

/** What each operation takes and answers. */
export interface BridgeOps {
  /**
   * `internal`: the agent did not ask for this capture (a stale hint, a screenshot's marks): the
   * extension does not log it as a snapshot. `summary`: only the top of the page (the elements
   * in the viewport, CaptureOptions.summary). An older extension ignores both.
   */
  capture: { args: { internal?: boolean; summary?: boolean }; result: SnapshotRequest };
  read: { args: Record<string, never>; result: ReadPage };
  screenshot: { args: { marks: MarkBox[] }; result: { png: string } };
  /**
   * `capture`: answer with the page captured after the action (`result.capture`; null when it
   * could not be taken), one round trip for both. An older extension answers without it, and the
   * session then calls capture. `summary` (with capture): after a navigation only the new page's
   * top is captured, answered with `captureSummary: true` (ActOptions.summary); an older extension
   * captures the whole page and does not say so. `followsHiddenText`: the session's provenance
   * verdict, for the extension's activity log.
   */
  act: {
    args: { action: AgentAction; target: ActionTarget | null; capture?: boolean; summary?: boolean; followsHiddenText?: boolean; file?: UploadFile };
    result: ActionResult & { capture?: SnapshotRequest | null; captureSummary?: boolean };
  };
  wait: { args: { text?: string; timeoutMs: number }; result: { found: boolean } };
  /** Passages the person cannot see (PageCalls.hiddenText). */
  hidden_text: { args: Record<string, never>; result: { texts: string[] } };
  /**
   * Tabs (issue 33), sent to the tab the agent works from: open `url` in a new tab beside it (it
   * joins the share, the person approves it like a navigate), bring a shared tab to the front,
   * close a tab the agent opened. Answers the tab (open) or nothing.
   */
  tab_open: { args: { url: string }; result: AgentTab };
  tab_select: { args: Record<string, never>; result: Record<string, never> };
  tab_close: { args: Record<string, never>; result: Record<string, never> };
}
export type BridgeOp = keyof BridgeOps;
export const BRIDGE_OPS: readonly BridgeOp[] = ["capture", "read", "screenshot", "act", "wait", "hidden_text", "tab_open", "tab_select", "tab_close"];

// Extension → server
export interface HelloMessage {
  type: "hello";
  version: number;
  /** The extension's Sightline API key (the same account as the agent's). */
  key: string;
  /** Random id of this browser profile's extension install: a reconnect replaces its own socket. */
  instance: string;
}
/** The tabs the person shared, sent on connect and whenever they change. */
export interface TabsMessage {
  type: "tabs";
  tabs: AgentTab[];
}
export interface ResultMessage {
  type: "result";
  id: string;
  ok: boolean;
  data?: unknown;
  error?: { code: AgentErrorCode; message: string; detail?: Record<string, unknown> };
}
/** A call is still running and why (e.g. "waiting for the person's approval"). */
export interface ProgressMessage {
  type: "progress";
  id: string;
  message: string;
}
export interface PongMessage {
  type: "pong";
}
export type ExtensionMessage = HelloMessage | TabsMessage | ResultMessage | ProgressMessage | PongMessage;

// Server → extension
export interface WelcomeMessage {
  type: "welcome";
  account: string;
  heartbeatMs: number;
}
export interface CallMessage<K extends BridgeOp = BridgeOp> {
  type: "call";
  id: string;
  tab: string;
  op: K;
  args: BridgeOps[K]["args"];
}
export interface CancelMessage {
  type: "cancel";
  id: string;
}
export interface PingMessage {
  type: "ping";
}
export type ServerMessage = WelcomeMessage | CallMessage | CancelMessage | PingMessage;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One frame as a JSON object, or null. */
function frameObject(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

/** Parses one frame from the extension; null when it is not a message of this protocol. */
export function parseExtensionMessage(raw: string): ExtensionMessage | null {
  const v = frameObject(raw);
  if (!v) return null;
  switch (v.type) {
    case "hello":
      return typeof v.key === "string" && typeof v.instance === "string" && typeof v.version === "number" ? (v as unknown as HelloMessage) : null;
    case "tabs":
      return Array.isArray(v.tabs) && v.tabs.every((t) => isObj(t) && typeof t.tab === "string" && typeof t.url === "string")
        ? (v as unknown as TabsMessage)
        : null;
    case "result":
      return typeof v.id === "string" && typeof v.ok === "boolean" ? (v as unknown as ResultMessage) : null;
    case "progress":
      return typeof v.id === "string" && typeof v.message === "string" ? (v as unknown as ProgressMessage) : null;
    case "pong":
      return { type: "pong" };
    default:
      return null;
  }
}

/** Parses one frame from the server; null when it is not a message of this protocol. */
export function parseServerMessage(raw: string): ServerMessage | null {
  const v = frameObject(raw);
  if (!v) return null;
  switch (v.type) {
    case "welcome":
      return typeof v.account === "string" ? (v as unknown as WelcomeMessage) : null;
    case "call":
      return typeof v.id === "string" && typeof v.tab === "string" && BRIDGE_OPS.includes(v.op as BridgeOp) && isObj(v.args)
        ? (v as unknown as CallMessage)
        : null;
    case "cancel":
      return typeof v.id === "string" ? (v as unknown as CancelMessage) : null;
    case "ping":
      return { type: "ping" };
    default:
      return null;
  }
}
