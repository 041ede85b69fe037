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
  | { kind: "back" }
  // The tools real tasks need (issue 33): pointer moves, dialogs, whole forms, files, tabs.
  | { kind: "hover"; id: number }
  | { kind: "drag"; id: number; to?: number; dx?: number; dy?: number }
  | { kind: "dialog"; accept: boolean; text?: string }
  | { kind: "fill_form"; fields: FormField[] }
  | { kind: "forward" }
  /**
   * A file from the agent's side into a file input: `path` inside SIGHTLINE_UPLOAD_DIR (of the
   * server), or `content` (base64, uploads.ts) and `path` is then only the file's name.
   */
  | { kind: "upload"; id: number; path: string; content?: string };

/** One field of a fill_form: a text to type, an option to choose, or a box to tick / untick. */
export interface FormField {
  id: number;
  /** Text for a text field, option value or text for a select; "true"/"false" for a checkbox; ignored for a radio (it is chosen). */
  value: string;
  /** Filled in by the session from the agent's snapshot, for the approval card and the log. */
  label?: string;
  role?: string;
  /** The agent saw a secret field (its value was redacted): the value is never shown or logged. */
  secret?: boolean;
}

/** A JavaScript dialog the page opened: it blocks the page until it is answered. */
export interface DialogInfo {
  type: "alert" | "confirm" | "prompt" | "beforeunload";
  message: string;
  /** A prompt's default answer. */
  default_value?: string;
}

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

/**
 * `navigated`: a new document or URL; `dom_changed`: mutations or input events; `dialog`: the
 * page opened a JavaScript dialog and waits for its answer (`dialog` in the result); else nothing.
 */
export type ActionOutcome = "navigated" | "dom_changed" | "nothing_changed" | "dialog";

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
  /** A dialog the page opened and that is still open: nothing else runs on the tab until it is answered. */
  dialog?: DialogInfo;
  /** Tabs the action opened (a target=_blank link, window.open): they joined the agent's tabs. */
  opened?: { tab: string; url: string }[];
  /** Files the action downloaded (a link with `download`, an attachment response): never opened or run. */
  downloads?: DownloadInfo[];
}

/**
 * A download an action started. Headless: kept in the download folder (SIGHTLINE_DOWNLOAD_DIR)
 * or, with none, not kept ("off"); the person's tab: in the browser's own downloads.
 */
export interface DownloadInfo {
  /** The file's name (as the site suggested it, without any folder part). */
  file: string;
  /** Where it came from. */
  url: string;
  /** Bytes, once known. */
  size?: number;
  /** saved: complete, at `path`; off: no download folder, not kept; failed: see `error`; in_progress: still arriving. */
  state: "saved" | "off" | "failed" | "in_progress";
  /** Where it was saved (headless: inside the download folder; the person's tab: where the browser put it). */
  path?: string;
  error?: string;
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
  /** A dialog open on the tab, waiting for an answer (the `dialog` tool). */
  dialog?: DialogInfo;
}

/** The origin of an address ("" when it is none: a page's, a frame's, a download's site). */
export function originOf(url: string | null | undefined): string {
  if (!url) return "";
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
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
