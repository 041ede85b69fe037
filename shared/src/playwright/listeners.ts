// The listener-recording init script: added to a page or context before its scripts run, it
// wraps EventTarget.prototype.addEventListener (and the click-like on* handler setters) and keeps
// every element given a click-like listener in a WeakSet on the frame's global
// (`__sightlineListeners__`), which a collector in the same world reads
// (shared/src/collector/listeners.ts). Nothing else changes: the listener is registered as
// before. Headless Chromium (the server's renders) and SDK users add it; a page loaded without it
// is read by its looks instead.
// The script runs in the page's world (it must see the page's registrations), the collector in
// Sightline's isolated world (world.ts), which cannot read this WeakSet: on the collector's
// request (a `sightline:listener-request` event on the document) the script sends a mark event
// to every recorded node still in the document, as the debugger path does
// (agent/listener-marks.ts), then an end mark. What the page registers is the page's own
// business: a page that answers for itself can only change which of its elements look clickable.
import type { BrowserContext, Page } from "playwright-core";
import { CLICK_LIKE_EVENTS, LISTENER_MARK_EVENT, LISTENER_MARKS_END, LISTENER_REQUEST_EVENT } from "../agent/listener-marks.js";

/** The script's source (kept as text: it runs in the page, and the server has no DOM types). */
export const LISTENER_INIT_SCRIPT = `(() => {
  const g = globalThis;
  if (g.__sightlineListeners__ || typeof EventTarget === "undefined") return;
  const seen = new WeakSet();
  // The same records as weak references, in order, to answer the collector's world.
  let refs = [];
  Object.defineProperty(g, "__sightlineListeners__", { value: seen, enumerable: false, configurable: false, writable: false });
  const CLICKY = new Set(${JSON.stringify(CLICK_LIKE_EVENTS)});
  // Elements, and the document or window too (a page that delegates from the top, as React
  // and jQuery's $(document).on do, is also read by its looks).
  let compactAt = 1024;
  const record = (t) => {
    if (t && (t.nodeType === 1 || t.nodeType === 9 || t === g) && !seen.has(t)) {
      seen.add(t);
      refs.push(new WeakRef(t));
      if (refs.length > compactAt) {
        refs = refs.filter((r) => r.deref() !== undefined);
        compactAt = Math.max(1024, 2 * refs.length);
      }
    }
  };
  const apply = Reflect.apply;
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const dispatch = proto.dispatchEvent;
  const wrapped = {
    addEventListener(type, listener, options) {
      if (listener && typeof type === "string" && CLICKY.has(type)) record(this);
      return apply(add, this, [type, listener, options]);
    },
  }.addEventListener;
  Object.defineProperty(proto, "addEventListener", { value: wrapped, writable: true, configurable: true, enumerable: false });
  // el.onclick = fn: a handler belongs to the world that set it, so the collector's world does not see it.
  for (const o of [g.HTMLElement && HTMLElement.prototype, g.SVGElement && SVGElement.prototype, g.Document && Document.prototype, g]) {
    for (const type of CLICKY) {
      const d = o && Object.getOwnPropertyDescriptor(o, "on" + type);
      if (!d || !d.set || !d.configurable) continue;
      const set = d.set;
      Object.defineProperty(o, "on" + type, { ...d, set(v) { if (typeof v === "function") record(this); return apply(set, this, [v]); } });
    }
  }
  const CE = CustomEvent;
  const connected = Object.getOwnPropertyDescriptor(Node.prototype, "isConnected").get;
  const rootOf = Node.prototype.getRootNode;
  const doc = document;
  apply(add, doc, [${JSON.stringify(LISTENER_REQUEST_EVENT)}, () => {
    const T = ${JSON.stringify(LISTENER_MARK_EVENT)};
    const live = [];
    for (const r of refs) {
      const t = r.deref();
      if (!t) continue;
      live.push(r);
      if (t === g) apply(dispatch, doc, [new CE(T, { detail: "window" })]);
      // A node in a closed shadow root would reach the collector as its host: left out, as the walk leaves it.
      else if (apply(connected, t, []) && !(apply(rootOf, t, []).mode === "closed")) apply(dispatch, t, [new CE(T, { bubbles: true, composed: true })]);
    }
    refs = live;
    apply(dispatch, doc, [new CE(T, { detail: ${JSON.stringify(LISTENER_MARKS_END)} })]);
  }, true]);
})();`;

const tracked = new WeakSet<Page | BrowserContext>();

/**
 * Records click-listener registrations on `target`'s pages from their next navigation on, so
 * snapshots find controls made clickable only by script. Call before page.goto().
 */
export async function trackListeners(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript({ content: LISTENER_INIT_SCRIPT });
  tracked.add(target);
}

/** Whether trackListeners was called for the page or its context: the collector asks the page's world for records. */
export function tracksListeners(page: Page): boolean {
  return tracked.has(page) || tracked.has(page.context());
}
