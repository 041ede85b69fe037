// waitForStable: the page has loaded (document.readyState "complete") and the DOM has been
// quiet for a while, measured the way the collector measures client_metrics.quiet_ms (a
// MutationObserver on the whole document: children, attributes, text).
import type { Page } from "playwright-core";
import { SightlineWorld } from "./world.js";

export interface StableOptions {
  /** DOM quiet time to wait for, in ms. Default 500. */
  quietMs?: number;
  /** Give up after this long (resolves with `stable: false`, never throws). Default 10 000. */
  timeoutMs?: number;
}

export interface StableResult {
  stable: boolean;
  ready_state: string;
  /** Time since the last DOM mutation when we stopped waiting. */
  quiet_ms: number;
}

// Runs in Sightline's world (world.ts), where the page cannot stand in for the MutationObserver,
// the timers or the collector's clock. Source text: the Node build has no DOM types.
const QUIET_SOURCE = `(quiet, left) => new Promise((resolve) => {
  // Share the collector's clock when it is installed, so a change seen before we started counts too.
  const state = globalThis.__sightlineCollectorState__;
  let last = state ? state.lastMutation : performance.now();
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  const start = performance.now();
  const tick = () => {
    const now = performance.now();
    const q = now - last;
    const ready = document.readyState;
    if ((ready === "complete" && q >= quiet) || now - start >= left) {
      observer.disconnect();
      resolve({ stable: ready === "complete" && q >= quiet, ready_state: ready, quiet_ms: Math.round(q) });
    } else setTimeout(tick, Math.min(50, Math.max(10, quiet - q)));
  };
  tick();
})`;

export async function waitForStable(page: Page, opts: StableOptions = {}): Promise<StableResult> {
  const quiet = opts.quietMs ?? 500;
  const timeout = opts.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeout;
  try {
    await page.waitForLoadState("load", { timeout });
  } catch {
    // A page that never fires load can still be usable: report it, do not throw.
  }
  const world = SightlineWorld.of(page);
  for (;;) {
    try {
      return await world.call<StableResult>(QUIET_SOURCE, [quiet, Math.max(0, deadline - Date.now())]);
    } catch (err) {
      // The page navigated while we waited: start again on the new document, within the deadline.
      if (Date.now() >= deadline || !/context was destroyed|navigation/i.test(String(err))) throw err;
      await page.waitForLoadState("domcontentloaded", { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    }
  }
}
