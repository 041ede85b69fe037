// click / type / press on a snapshot's elements, each reporting what it did to the page:
// `navigated` (a new document or a new URL), `dom_changed` (mutations, input or change
// events) or `nothing_changed`.
import type { Page, Request } from "playwright-core";
import type { RefinedElement } from "../contract/index.js";
import { domClick, focusTarget, prepareTarget, settleWatch, startWatch, type TargetPoint } from "./in-page.js";

export type ActionOutcome = "navigated" | "dom_changed" | "nothing_changed";

export interface ActionResult {
  outcome: ActionOutcome;
  /** Page URL after the action. */
  url: string;
  /** DOM mutations plus input/change events counted (0 when navigated). */
  changes: number;
  /** How the element was reached: a real mouse click at its centre, or a DOM-level fallback. */
  method: "mouse" | "dom" | "keyboard";
}

export interface ActionOptions {
  /** How long to wait for a first effect before answering `nothing_changed`. Default 1000 ms. */
  settleMs?: number;
  /** Quiet time after the last change before answering `dom_changed`. Default 150 ms. */
  quietMs?: number;
}

/** How long a started main-frame navigation may take to commit before we stop waiting. */
const NAVIGATION_WAIT_MS = 10_000;

interface SnapshotLike {
  elements: RefinedElement[];
}

function elementOf(snap: SnapshotLike, id: number): RefinedElement {
  const el = snap.elements.find((e) => e.id === id);
  if (!el) throw new Error(`Sightline: no element [${id}] in this snapshot`);
  return el;
}

const isNavigationError = (err: unknown) => /context was destroyed|navigat|Target closed|frame was detached/i.test(String(err));

/** Runs `act` between a watch start and its settle, and says what happened. */
async function observeAction(page: Page, opts: ActionOptions, act: () => Promise<ActionResult["method"]>): Promise<ActionResult> {
  const before = page.url();
  let navigated = false;
  // A navigation request of the main frame: the document is about to change even if the
  // new one has not committed yet (a slow server, a busy machine).
  let pending: Request | null = null;
  const onNav = (frame: { parentFrame(): unknown }) => {
    if (!frame.parentFrame()) navigated = true;
  };
  const onRequest = (req: Request) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) pending = req;
  };
  const onDone = (req: Request) => {
    if (req === pending) pending = null;
  };
  page.on("framenavigated", onNav);
  page.on("request", onRequest);
  page.on("requestfailed", onDone);
  try {
    const token = await page.evaluate(startWatch);
    const method = await act();
    let changes = 0;
    try {
      changes = await page.evaluate(settleWatch, { token, quietMs: opts.quietMs ?? 150, maxMs: opts.settleMs ?? 1000 });
    } catch (err) {
      if (!isNavigationError(err)) throw err;
      changes = -1;
    }
    if (changes >= 0 && !navigated && pending) {
      await page
        .waitForEvent("framenavigated", { predicate: (f) => !f.parentFrame(), timeout: NAVIGATION_WAIT_MS })
        .catch(() => undefined);
    }
    if (changes < 0 || navigated || page.url() !== before) {
      // The old document is gone; Playwright may not have processed the commit yet.
      if (!navigated && page.url() === before) {
        await page.waitForEvent("framenavigated", { predicate: (f) => !f.parentFrame(), timeout: 5000 }).catch(() => undefined);
      }
      await page.waitForLoadState("domcontentloaded").catch(() => undefined);
      return { outcome: "navigated", url: page.url(), changes: 0, method };
    }
    return { outcome: changes > 0 ? "dom_changed" : "nothing_changed", url: page.url(), changes, method };
  } finally {
    page.off("framenavigated", onNav);
    page.off("request", onRequest);
    page.off("requestfailed", onDone);
  }
}

async function prepare(page: Page, el: RefinedElement): Promise<TargetPoint> {
  const x = el.center_x ?? el.bbox.x + el.bbox.width / 2;
  const docY = el.doc_y ?? el.center_y ?? el.bbox.y + el.bbox.height / 2;
  return page.evaluate(prepareTarget, { id: el.id, x, docY });
}

/**
 * Clicks element `id` of `snap`: scrolls it into view, moves a real mouse to its centre and
 * clicks, or, when something else covers that point, clicks it through the DOM.
 */
export async function click(page: Page, snap: SnapshotLike, id: number, opts: ActionOptions = {}): Promise<ActionResult> {
  const el = elementOf(snap, id);
  return observeAction(page, opts, async () => {
    const t = await prepare(page, el);
    if (t.hits) {
      await page.mouse.click(t.x, t.y);
      return "mouse";
    }
    await page.evaluate(domClick);
    return "dom";
  });
}

export interface TypeOptions extends ActionOptions {
  /** Replace the current content (default true); false appends at the caret. */
  clear?: boolean;
  /** Delay between key strokes in ms (default 0). */
  delayMs?: number;
}

/** Focuses element `id` (a click at its centre, as a user would) and types `text` into it. */
export async function type(page: Page, snap: SnapshotLike, id: number, text: string, opts: TypeOptions = {}): Promise<ActionResult> {
  const el = elementOf(snap, id);
  const clear = opts.clear ?? true;
  return observeAction(page, opts, async () => {
    const t = await prepare(page, el);
    let method: ActionResult["method"] = "dom";
    if (t.hits) {
      await page.mouse.click(t.x, t.y);
      method = "mouse";
    }
    const focused = await page.evaluate(focusTarget, clear);
    if (!focused) throw new Error(`Sightline: element [${id}] cannot take keyboard focus`);
    if (text) await page.keyboard.type(text, { delay: opts.delayMs ?? 0 });
    else if (clear) await page.keyboard.press("Backspace");
    return method;
  });
}

/** Presses a key (Playwright key names: "Enter", "Tab", "Control+A"...) in the focused element. */
export async function press(page: Page, key: string, opts: ActionOptions = {}): Promise<ActionResult> {
  return observeAction(page, opts, async () => {
    await page.keyboard.press(key);
    return "keyboard";
  });
}
