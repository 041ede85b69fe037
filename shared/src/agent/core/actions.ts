// What an agent may ask of a page, and what it is told back. Isomorphic: the MCP tools, the
// bridge protocol, the extension and the headless backend all speak these types.
import { AgentError } from "./errors.js";

/** A page-changing request, addressed by the element ids of the tab's last snapshot. */
export type AgentAction =
  | { kind: "click"; id: number }
  | { kind: "type"; id: number; text: string; submit?: boolean; clear?: boolean }
  | { kind: "select"; id: number; value: string }
  | { kind: "press"; key: string }
  | { kind: "scroll"; direction?: ScrollDirection; id?: number }
  | { kind: "navigate"; url: string }
  | { kind: "back" };

/** How much an action can do: observe never asks, act asks by default, sensitive always asks. */
export type Tier = "observe" | "act" | "sensitive";

/** Who let an action run: the policy (a tier that does not ask) or the person. */
export interface Decision {
  tier: Tier;
  by: "policy" | "person";
  verdict: "approved" | "edited" | "rejected";
}

export type ScrollDirection = "up" | "down" | "left" | "right";
export type ActionKind = AgentAction["kind"];

/** `navigated`: a new document or URL; `dom_changed`: mutations or input events; else nothing. */
export type ActionOutcome = "navigated" | "dom_changed" | "nothing_changed";

export interface ActionResult {
  outcome: ActionOutcome;
  /** Page URL after the action. */
  url: string;
  /** How the element was reached: trusted mouse input at its centre, a DOM fallback, or keys. */
  method: "mouse" | "dom" | "keyboard" | "browser";
  /** DOM mutations plus input/change events counted (0 when navigated or unknown). */
  mutations?: number;
  /** How the action was let through, when a person supervises (the extension's approvals). */
  decision?: Decision;
}

/** The element an action is aimed at, as the agent saw it (for approvals and the log). */
export interface ActionTarget {
  id: number;
  role: string;
  name: string;
  input_type: string | null;
  /** The page said secret when it was captured (its value was redacted): see secrets.ts. */
  secret?: boolean;
}

/** What a tab looks like to an agent (`tab` is the handle every tool takes). */
export interface AgentTab {
  tab: string;
  url: string;
  title: string;
  /** The tab the person (or the headless browser) has in front. */
  active: boolean;
}

/** Schemes an agent may navigate to: the web, nothing local or privileged. */
export function checkNavigableUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentError("bad_url", `"${raw}" is not an absolute URL (give http:// or https://)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AgentError("bad_url", `${url.protocol} URLs cannot be opened by an agent; only http: and https:`);
  }
  return url;
}
