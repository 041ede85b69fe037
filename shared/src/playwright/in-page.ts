// Functions that run inside the page (passed to page.evaluate, so each is self-contained and
// must not close over anything). They find an element by the collector's stable id, and count
// DOM changes between two points in time.

export interface TargetPoint {
  /** The element was found by its id (false: we fell back to the snapshot's coordinates). */
  found: boolean;
  /** Viewport point to click, after scrolling. */
  x: number;
  y: number;
  /** What is at that point is the element itself (or inside it, or its label). */
  hits: boolean;
}

export interface TargetArgs {
  id: number;
  /** Snapshot centre: viewport x and document y (used when the node cannot be found). */
  x: number;
  docY: number;
}

/**
 * Finds the node the collector numbered `id` (its ids live in a WeakMap node→id on the page's
 * global, so we walk the DOM, open shadow roots and same-origin frames), scrolls it to the
 * middle of the viewport when it is not fully visible, and hit-tests its centre. The node is
 * kept in `__sightlineTarget__` for a DOM-level fallback.
 */
export function prepareTarget(args: TargetArgs): TargetPoint {
  type State = { ids: WeakMap<Node, number> };
  const g = globalThis as unknown as { __sightlineCollectorState__?: State; __sightlineTarget__?: Element | null };
  const state = g.__sightlineCollectorState__;
  const find = (root: Document | ShadowRoot): Element | null => {
    const all = root.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (state!.ids.get(el) === args.id) return el;
      if (el.shadowRoot) {
        const inner = find(el.shadowRoot);
        if (inner) return inner;
      }
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        try {
          const doc = (el as HTMLIFrameElement).contentDocument;
          const inner = doc ? find(doc) : null;
          if (inner) return inner;
        } catch {
          // Cross-origin frame: not ours to walk.
        }
      }
    }
    return null;
  };
  const el = state ? find(document) : null;
  if (!el) {
    // Not found (re-rendered node, or no collector state): trust the snapshot's coordinates.
    const top = Math.max(0, args.docY - innerHeight / 2);
    if (args.docY < scrollY || args.docY > scrollY + innerHeight) scrollTo(scrollX, top);
    const y = args.docY - scrollY;
    g.__sightlineTarget__ = document.elementFromPoint(args.x, y);
    return { found: false, x: args.x, y, hits: true };
  }
  g.__sightlineTarget__ = el;
  let r = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView ?? window;
  if (r.top < 0 || r.left < 0 || r.bottom > view.innerHeight || r.right > view.innerWidth) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });
    r = el.getBoundingClientRect();
  }
  // Frame offsets: a node inside a same-origin iframe has rects relative to that frame.
  let ox = 0;
  let oy = 0;
  for (let w: Window | null = view; w && w !== window && w.frameElement; w = w.parent) {
    const fr = w.frameElement.getBoundingClientRect();
    ox += fr.left + (w.frameElement as HTMLElement).clientLeft;
    oy += fr.top + (w.frameElement as HTMLElement).clientTop;
  }
  const lx = r.left + r.width / 2;
  const ly = r.top + r.height / 2;
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = typeof root.elementFromPoint === "function" ? root.elementFromPoint(lx, ly) : el.ownerDocument.elementFromPoint(lx, ly);
  const label = hit?.closest("label") as HTMLLabelElement | null;
  const hits = !!hit && (hit === el || el.contains(hit) || label?.control === el);
  return { found: true, x: ox + lx, y: oy + ly, hits };
}

/** Clicks the prepared target through the DOM (when the mouse would hit something else). */
export function domClick(): void {
  const t = (globalThis as unknown as { __sightlineTarget__?: Element | null }).__sightlineTarget__;
  if (t && "click" in t) (t as HTMLElement).click();
}

/** Focuses the prepared target (if it is not focused) and selects its content when `select`. */
export function focusTarget(select: boolean): boolean {
  const t = (globalThis as unknown as { __sightlineTarget__?: Element | null }).__sightlineTarget__ as HTMLElement | null | undefined;
  if (!t) return false;
  const doc = t.ownerDocument;
  if (!(doc.activeElement === t || t.contains(doc.activeElement))) t.focus();
  if (select) {
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) t.select();
    else if (t.isContentEditable) {
      const range = doc.createRange();
      range.selectNodeContents(t);
      const sel = doc.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
  }
  return doc.activeElement === t || t.contains(doc.activeElement);
}

/** Starts counting DOM mutations and input/change events; returns a token for this document. */
export function startWatch(): string {
  type Watch = { token: string; count: number; last: number; stop: () => void };
  const g = globalThis as unknown as { __sightlineWatch__?: Watch };
  g.__sightlineWatch__?.stop();
  const w: Watch = { token: Math.random().toString(36).slice(2), count: 0, last: performance.now(), stop: () => undefined };
  const bump = () => {
    w.count++;
    w.last = performance.now();
  };
  const mo = new MutationObserver((records) => {
    w.count += records.length;
    w.last = performance.now();
  });
  mo.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  // Typing and ticking change properties (value, checked), not attributes: count their events.
  document.addEventListener("input", bump, true);
  document.addEventListener("change", bump, true);
  w.stop = () => {
    mo.disconnect();
    document.removeEventListener("input", bump, true);
    document.removeEventListener("change", bump, true);
  };
  g.__sightlineWatch__ = w;
  return w.token;
}

/**
 * Waits until changes have stopped for `quietMs` (after at least one), or `maxMs` passed with
 * none; returns the change count, or -1 when this is not the document the watch started in.
 */
export function settleWatch(args: { token: string; quietMs: number; maxMs: number }): Promise<number> {
  type Watch = { token: string; count: number; last: number; stop: () => void };
  const w = (globalThis as unknown as { __sightlineWatch__?: Watch }).__sightlineWatch__;
  if (!w || w.token !== args.token) return Promise.resolve(-1);
  const start = performance.now();
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      if ((w.count > 0 && now - w.last >= args.quietMs) || now - start >= args.maxMs) {
        w.stop();
        resolve(w.count);
      } else setTimeout(tick, 25);
    };
    tick();
  });
}
