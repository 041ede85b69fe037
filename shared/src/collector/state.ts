// Per-page collector state kept on the page's global object, so that the IIFE bundle injected
// twice, or the bundle and the content-script module side by side, share one id counter and
// one mutation clock (ids stay stable across collect() calls for the same DOM node).
export interface CollectorState {
  ids: WeakMap<Node, number>;
  nextId: number;
  /** performance.now() of the last observed DOM mutation (or of installation). */
  lastMutation: number;
  observer: MutationObserver | null;
}

const KEY = "__sightlineCollectorState__";

export function collectorState(): CollectorState {
  const g = globalThis as unknown as Record<string, CollectorState | undefined>;
  let s = g[KEY];
  if (!s) {
    s = { ids: new WeakMap(), nextId: 1, lastMutation: performance.now(), observer: null };
    Object.defineProperty(globalThis, KEY, { value: s, enumerable: false, configurable: true });
  }
  return s;
}

/** Stable numeric id for a DOM node: the same node gets the same id on every call. */
export function idFor(node: Node, state: CollectorState = collectorState()): number {
  let id = state.ids.get(node);
  if (id === undefined) {
    id = state.nextId++;
    state.ids.set(node, id);
  }
  return id;
}

/**
 * Starts the mutation clock on first use. Later calls are no-ops; quiet_ms is measured from
 * the last mutation seen since then (or since installation when nothing changed).
 */
export function installMutationClock(doc: Document = document, state: CollectorState = collectorState()): void {
  if (state.observer || typeof MutationObserver === "undefined") return;
  const root = doc.documentElement;
  if (!root) return;
  const observer = new MutationObserver(() => {
    state.lastMutation = performance.now();
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  state.observer = observer;
}

export function quietMs(state: CollectorState = collectorState()): number {
  return Math.max(0, Math.round(performance.now() - state.lastMutation));
}
