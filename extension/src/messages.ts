// What the extension's own pages (side panel) may ask the background worker to do.
// The background acts only on these, and only when they come from the extension's own pages.
import type { SnapshotRequest } from "@sightline/shared/contract";
import type { AgentRequest, AgentState } from "./agent/state.js";

export interface Box {
  id: number;
  /** Viewport coordinates at capture time (CSS pixels). */
  rect: { x: number; y: number; width: number; height: number };
  label?: string;
}

export interface ReadResult {
  title: string;
  description: string;
  content: string;
}

export interface TabInfo {
  tabId: number;
  windowId: number;
  url: string;
  title: string;
}

export interface PageScroll {
  x: number;
  y: number;
}

export type PanelRequest =
  | { type: "tab"; tabId?: number }
  | { type: "collect"; tabId: number }
  | { type: "read"; tabId: number }
  | { type: "screenshot"; tabId: number }
  | { type: "page-image"; tabId: number; id?: number }
  | { type: "overlay"; tabId: number; boxes: Box[] | null; scroll?: PageScroll }
  | { type: "highlight"; tabId: number; box: Box | null; scroll?: PageScroll }
  | { type: "scroll-to"; tabId: number; box: Box; scroll?: PageScroll }
  | AgentRequest;

export interface PanelResults {
  tab: TabInfo;
  collect: SnapshotRequest & { scroll: PageScroll };
  read: ReadResult;
  screenshot: { dataUrl: string; format: "png" | "jpeg" };
  "page-image": { dataUrl: string };
  overlay: { shown: number };
  highlight: { found: boolean };
  "scroll-to": { found: boolean };
  "agent-state": AgentState;
  "agent-share": AgentState;
  "agent-decide": AgentState;
  "agent-allow-site": AgentState;
  "agent-mode": AgentState;
  "agent-reconnect": AgentState;
}

export type PanelReply<K extends PanelRequest["type"]> =
  | { ok: true; data: PanelResults[K] }
  | { ok: false; error: string };

export const MESSAGE_TAG = "sightline/panel";

export interface Envelope {
  tag: typeof MESSAGE_TAG;
  request: PanelRequest;
}
