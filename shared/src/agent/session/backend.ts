// A backend is a browser an agent works in: headless Chromium (../backends/headless/) or the
// person's own tabs through the extension (../backends/bridge/). The session above it keeps
// ids, diffs and errors the same whichever it is.
import type { SnapshotRequest } from "../../contract/index.js";
import type { ActionResult, ActionTarget, AgentAction, AgentTab } from "../core/actions.js";

/** A set-of-mark box: element id and its viewport rectangle at capture time. */
export interface MarkBox {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a capture is for, beyond the /v1/snapshot body. */
export interface CaptureOptions {
  /**
   * Mark raw elements whose text the person cannot see (attributes.text_hidden, decided from
   * layout in the page). It costs a layout pass over the elements' text, so only the agent's own
   * snapshot asks; a backend may also always do it.
   */
  textVisibility?: boolean;
  /**
   * Only the top of the page (its first elements in the viewport), for a navigation's answer; a
   * backend may capture the whole page instead.
   */
  summary?: boolean;
  /**
   * The agent did not ask for this capture (the picture behind a stale hint or a handed-back
   * answer, a screenshot's marks): a supervising backend does not log it as a snapshot.
   */
  internal?: boolean;
}

/** What the session tells a backend about an action, beyond the action itself. */
export interface ActOptions {
  /**
   * Answer with the page as captured right after the action (ActOutcome.capture), so the diff
   * needs no second call. A backend may ignore it; the session then captures itself.
   */
  capture?: boolean;
  /**
   * With `capture`: when the action navigated, capture only the new page's top (as
   * CaptureOptions.summary) and say so (ActOutcome.captureSummary). A backend may capture the
   * whole page instead.
   */
  summary?: boolean;
  /** The action seems to follow text the person cannot see (provenance.ts): for a supervising log. */
  followsHiddenText?: boolean;
}

/** An action's result, with the page captured after it when asked (null: it could not be taken). */
export interface ActOutcome extends ActionResult {
  capture?: SnapshotRequest | null;
  /** The capture is a navigation's summary (ActOptions.summary), not the whole page. */
  captureSummary?: boolean;
}

export interface ReadPage {
  url: string;
  title: string;
  description: string;
  /** Markdown of the main content. */
  content: string;
}

/** What a long call may report while it runs, and how the caller gives up on it. */
export interface CallHooks {
  /** e.g. "waiting for the person's approval". */
  onProgress?(message: string): void;
  signal?: AbortSignal;
}

export interface AgentBackend {
  /** The tabs the agent may use (the extension: only those the person shared). */
  tabs(): Promise<AgentTab[]>;
  /** Runs the collector in the tab: the /v1/snapshot request body. */
  capture(tab: string, opts?: CaptureOptions): Promise<SnapshotRequest>;
  /**
   * The main content as Markdown; text the person cannot see wrapped in ⟦hidden⟧…⟦/hidden⟧
   * (the collector's read with `markHidden`, provenance.ts).
   */
  read(tab: string): Promise<ReadPage>;
  /** PNG (base64) of the tab's viewport with numbered boxes drawn at `marks`. */
  screenshot(tab: string, marks: MarkBox[]): Promise<string>;
  /** Performs a page-changing action (the extension asks the person first). */
  act(tab: string, action: AgentAction, target: ActionTarget | null, hooks?: CallHooks, opts?: ActOptions): Promise<ActOutcome>;
  /**
   * Every passage of the tab's page the person cannot see (PageCalls.hiddenText), for the
   * activity log's follows_hidden_text. Optional.
   */
  hiddenText?(tab: string): Promise<string[]>;
  /** Opens `url` in a new tab the agent may use (issue 33). Optional: absent, the tool says so. */
  openTab?(url: string): Promise<AgentTab>;
  /** Makes `tab` the one the agent works in (the active one in tabs()). Optional. */
  selectTab?(tab: string): Promise<void>;
  /** Closes a tab the agent opened (never one the person opened). Optional. */
  closeTab?(tab: string): Promise<void>;
  /** Waits until `text` is visible, or until the page is quiet; false on timeout. */
  wait(tab: string, opts: { text?: string; timeoutMs: number }): Promise<boolean>;
}
