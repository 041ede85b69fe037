// The listener-recording init script: added to a page or context before its scripts run, it
// wraps EventTarget.prototype.addEventListener and keeps every element given a click-like
// listener in a WeakSet on the frame's global (`__sightlineListeners__`), which the collector
// reads (shared/src/collector/listeners.ts). Nothing else changes: the listener is registered as
// before. Headless Chromium (the server's renders) and SDK users add it; a page loaded without
// it is read by its looks instead.
import type { BrowserContext, Page } from "playwright-core";
import { CLICK_LIKE_EVENTS } from "../agent/listener-marks.js";

/** The script's source (kept as text: it runs in the page, and the server has no DOM types). */
export const LISTENER_INIT_SCRIPT = `(() => {
  const g = globalThis;
  if (g.__sightlineListeners__ || typeof EventTarget === "undefined") return;
  const seen = new WeakSet();
  Object.defineProperty(g, "__sightlineListeners__", { value: seen, enumerable: false, configurable: false, writable: false });
  const CLICKY = new Set(${JSON.stringify(CLICK_LIKE_EVENTS)});
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const wrapped = {
    addEventListener(type, listener, options) {
      // Elements, and the document or window too (a page that delegates from the top, as React
      // and jQuery's $(document).on do, is also read by its looks).
      if (listener && typeof type === "string" && CLICKY.has(type) && this && (this.nodeType === 1 || this.nodeType === 9 || this === g)) seen.add(this);
      return add.call(this, type, listener, options);
    },
  }.addEventListener;
  Object.defineProperty(proto, "addEventListener", { value: wrapped, writable: true, configurable: true, enumerable: false });
})();`;

/**
 * Records click-listener registrations on `target`'s pages from their next navigation on, so
 * snapshots find controls made clickable only by script. Call before page.goto().
 */
export async function trackListeners(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript({ content: LISTENER_INIT_SCRIPT });
}
