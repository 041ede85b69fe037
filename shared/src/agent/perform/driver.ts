// What acting on a page needs from the browser, whoever drives it: Playwright (headless) or
// chrome.debugger (the person's tab). Input must be trusted (CDP Input.*), so pages that check
// event.isTrusted or listen only to pointer events work.
import type { PageCallArgs, PageCallName, PageCallResult } from "./page-calls.js";

export interface PageDriver {
  /** Runs a page agent function in the collector's world (injecting the agent if needed). */
  call<K extends PageCallName>(name: K, args: PageCallArgs<K>): Promise<PageCallResult<K>>;
  /** A trusted left click at a viewport point. */
  click(x: number, y: number): Promise<void>;
  /** A trusted mouse move to a viewport point (hover menus, tooltips). */
  hover(x: number, y: number): Promise<void>;
  /**
   * A trusted drag: press at `from`, move in steps to `to`, release. Pages that listen to
   * pointer/mouse events and native HTML5 drag and drop (draggable) both see it.
   */
  drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void>;
  /** Trusted text input into the focused element. */
  typeText(text: string): Promise<void>;
  /** A trusted key press: Playwright key names ("Enter", "Tab", "Control+A"). */
  press(key: string): Promise<void>;
  navigate(url: string): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
  url(): Promise<string>;
  /**
   * Waits for a navigation the action may have started to commit and its DOM to load.
   * Resolves true when the main document changed since `since` (a value of documentId()).
   */
  settleNavigation(since: string): Promise<boolean>;
  /** PNG (base64) of the viewport as it is on screen. */
  screenshot(): Promise<string>;
  /** Identifies the current main document (changes on every navigation, even same-URL). */
  documentId(): Promise<string>;
  /**
   * Starts watching the page's network requests for one action. A driver that can see them lets
   * the action's wait end sooner when the page did nothing but take the input (perform.ts); one
   * that cannot (absent) gets the full quiet wait.
   */
  watchRequests?(): RequestWatch;
}

/** The requests a page made since watchRequests(). */
export interface RequestWatch {
  /** Requests started since the watch began (finished or not). */
  started(): number;
  /** Resolves when none of them is in flight, or after `ms`. */
  idle(ms: number): Promise<void>;
  stop(): void;
}

/** Errors a driver sees when the document went away under a call: a navigation, not a fault. */
export function isNavigationError(err: unknown): boolean {
  return /context was destroyed|navigat|Target closed|frame was detached|No frame|Cannot find context|Execution context/i.test(String(err));
}
