// Listener records over CDP, for a page loaded without the recording init script (the person's
// tab in the extension, once it holds the debugger to act). DOMDebugger.getEventListeners on the
// document, subtree included, names every node given a click-like listener; each is sent a
// `sightline:listener` event from the page's world, which the collector's receiver (in its own
// world: collector/listeners.ts receiveListenerMarks) adds to its registry. The collector then
// finds script-only controls as it does with the init script's records.
// Isomorphic: the caller passes its CDP `send` (chrome.debugger in the extension, a Playwright
// CDPSession in tests).

/** Sends one CDP command and resolves with its result. */
export type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** The event the collector's receiver (collector/listeners.ts) listens for. */
export const LISTENER_MARK_EVENT = "sightline:listener";
/**
 * The collector, in its own world, asks the page's world for the init script's records with this
 * event on the document (shared/src/playwright/listeners.ts answers with a mark per recorded node,
 * then one with detail LISTENER_MARKS_END).
 */
export const LISTENER_REQUEST_EVENT = "sightline:listener-request";
export const LISTENER_MARKS_END = "end";

/** Event types that make an element a click target: both record paths (this one and the init script) use them. */
export const CLICK_LIKE_EVENTS = ["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend", "dblclick", "auxclick"] as const;
const CLICKY = new Set<string>(CLICK_LIKE_EVENTS);
const GROUP = "sightline-listener-marks";
/** A page with more listener nodes than this is marked up to it (each node is one CDP round trip). */
export const MAX_MARKED = 1500;

// Runs in the page's world: `top` says window itself listens (marked on the document with detail "window").
const MARK = `function (top, ...nodes) {
  const T = ${JSON.stringify(LISTENER_MARK_EVENT)};
  for (const n of nodes) if (n) n.dispatchEvent(new CustomEvent(T, { bubbles: true, composed: true }));
  if (top) document.dispatchEvent(new CustomEvent(T, { detail: "window" }));
  return nodes.length;
}`;

interface Remote {
  result?: { objectId?: string };
  object?: { objectId?: string };
  listeners?: Array<{ type: string; backendNodeId?: number }>;
}

/** Marks the nodes with click-like listeners; resolves with how many were marked. */
export async function markListeners(send: CdpSend): Promise<number> {
  const call = async (method: string, params: Record<string, unknown>) => (await send(method, params)) as Remote;
  try {
    const doc = (await call("Runtime.evaluate", { expression: "document", objectGroup: GROUP })).result?.objectId;
    const win = (await call("Runtime.evaluate", { expression: "window", objectGroup: GROUP })).result?.objectId;
    if (!doc) return 0;
    const inTree = (await call("DOMDebugger.getEventListeners", { objectId: doc, depth: -1, pierce: true })).listeners ?? [];
    const onWindow = win ? ((await call("DOMDebugger.getEventListeners", { objectId: win })).listeners ?? []) : [];
    const ids = new Set<number>();
    for (const l of inTree) if (CLICKY.has(l.type) && typeof l.backendNodeId === "number" && ids.size < MAX_MARKED) ids.add(l.backendNodeId);
    const nodes: string[] = [];
    for (const backendNodeId of ids) {
      const o = await call("DOM.resolveNode", { backendNodeId, objectGroup: GROUP }).catch(() => null);
      if (o?.object?.objectId) nodes.push(o.object.objectId);
    }
    const top = onWindow.some((l) => CLICKY.has(l.type));
    const args = [{ value: top }, ...nodes.map((objectId) => ({ objectId }))];
    try {
      await call("Runtime.callFunctionOn", { objectId: doc, functionDeclaration: MARK, arguments: args, silent: true });
    } catch {
      // Nodes of another frame's context cannot be passed with the document's: one at a time.
      for (const objectId of nodes) {
        await call("Runtime.callFunctionOn", { objectId, functionDeclaration: `function () { return (${MARK}).call(null, false, this); }`, silent: true }).catch(() => null);
      }
      if (top) await call("Runtime.callFunctionOn", { objectId: doc, functionDeclaration: MARK, arguments: [{ value: true }], silent: true }).catch(() => null);
    }
    return nodes.length + (top ? 1 : 0);
  } finally {
    await send("Runtime.releaseObjectGroup", { objectGroup: GROUP }).catch(() => undefined);
  }
}
