// click / type / press on a snapshot's elements, each reporting what it did to the page:
// `navigated` (a new document or a new URL), `dom_changed` (mutations, input or change
// events) or `nothing_changed`. The same action flow as the MCP tools (shared/src/agent/
// perform/perform.ts) on a Playwright page: trusted input at the element's centre, a DOM click when
// something covers it, and an AgentError "stale" when the element is gone.
import type { Page } from "playwright-core";
import type { RefinedElement } from "../contract/index.js";
import type { ActionOutcome, ActionResult as AgentActionResult, AgentAction } from "../agent/core/actions.js";
import { performAction, type PerformOptions } from "../agent/perform/perform.js";
import { PlaywrightDriver } from "../agent/backends/headless/driver.js";

export type { ActionOutcome };

/**
 * What an action did: the agent stack's ActionResult (agent/core/actions.ts), with the count of
 * DOM mutations and input/change events under the name the SDK has always given it.
 */
export type ActionResult = Pick<AgentActionResult, "outcome" | "url" | "method"> & { changes: number };

export interface ActionOptions {
  /** How long to wait for a first effect before answering `nothing_changed`. Default 1000 ms. */
  settleMs?: number;
  /** Quiet time after the last change before answering `dom_changed`. Default 150 ms. */
  quietMs?: number;
}

interface SnapshotLike {
  elements: RefinedElement[];
}

/** One driver per page, so navigations are counted from the first action on. */
const drivers = new WeakMap<Page, PlaywrightDriver>();
function driverOf(page: Page): PlaywrightDriver {
  let d = drivers.get(page);
  if (!d) drivers.set(page, (d = new PlaywrightDriver(page)));
  return d;
}

function checkId(snap: SnapshotLike, id: number): void {
  if (!snap.elements.some((e) => e.id === id)) throw new Error(`Sightline: no element [${id}] in this snapshot`);
}

async function perform(page: Page, action: AgentAction, opts: ActionOptions): Promise<ActionResult> {
  const r = await performAction(driverOf(page), action, opts satisfies PerformOptions);
  // performAction itself never answers "dialog" (a backend does: agent/backends/headless).
  return { outcome: r.outcome as ActionOutcome, url: r.url, changes: r.mutations ?? 0, method: r.method };
}

/**
 * Clicks element `id` of `snap`: scrolls it into view, moves a real mouse to its centre and
 * clicks, or, when something else covers that point, clicks it through the DOM.
 */
export async function click(page: Page, snap: SnapshotLike, id: number, opts: ActionOptions = {}): Promise<ActionResult> {
  checkId(snap, id);
  return perform(page, { kind: "click", id }, opts);
}

export interface TypeOptions extends ActionOptions {
  /** Replace the current content (default true); false appends at the caret. */
  clear?: boolean;
}

/** Focuses element `id` (a click at its centre, as a user would) and types `text` into it. */
export async function type(page: Page, snap: SnapshotLike, id: number, text: string, opts: TypeOptions = {}): Promise<ActionResult> {
  checkId(snap, id);
  return perform(page, { kind: "type", id, text, clear: opts.clear }, opts);
}

/** Presses a key (Playwright key names: "Enter", "Tab", "Control+A"...) in the focused element. */
export async function press(page: Page, key: string, opts: ActionOptions = {}): Promise<ActionResult> {
  return perform(page, { kind: "press", key }, opts);
}
