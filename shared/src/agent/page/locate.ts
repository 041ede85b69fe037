// Finding the node behind a collector id, and the point where a person would click it.
import type { LocateArgs, TargetPoint } from "../perform/page-calls.js";
import { isInput, isTextArea } from "./dom.js";

type CollectorGlobal = { __sightlineCollectorState__?: { ids: WeakMap<Node, number> } };

/** The element the last locate() found: domClick, focus and selectOption act on it. */
let target: Element | null = null;
export const located = (): Element | null => (target?.isConnected ? target : null);

/** Elements already met while walking, by id: a page of many ids is not walked once per id. */
const seen = new Map<number, WeakRef<Element>>();

/**
 * The node the collector numbered `id`, in the document, open shadow roots and same-origin
 * frames. The one lookup for acting (locate, describe) and for the extension's overlay.
 */
export function elementById(id: number): Element | null {
  const ids = (globalThis as CollectorGlobal).__sightlineCollectorState__?.ids;
  if (!ids) return null;
  const cached = seen.get(id)?.deref();
  // A new capture may number nodes anew: the cache is only trusted when the collector agrees.
  if (cached?.isConnected && ids.get(cached) === id) return cached;
  const stack: (Document | ShadowRoot)[] = [document];
  while (stack.length) {
    const root = stack.pop()!;
    const all = root.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      const got = ids.get(el);
      if (got !== undefined) seen.set(got, new WeakRef(el));
      if (got === id) return el;
      if (el.shadowRoot) stack.push(el.shadowRoot);
      if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
        try {
          const doc = (el as HTMLIFrameElement).contentDocument;
          if (doc) stack.push(doc);
        } catch {
          // Cross-origin frame: not ours to walk.
        }
      }
    }
  }
  return null;
}

function editableOf(el: Element): boolean {
  if (isTextArea(el)) return !el.readOnly && !el.disabled;
  if (isInput(el)) {
    const textual = ["", "text", "search", "email", "url", "tel", "password", "number", "date", "time", "datetime-local", "month", "week"];
    return textual.includes(el.type) && !el.readOnly && !el.disabled;
  }
  return (el as HTMLElement).isContentEditable === true;
}

export function locate(args: LocateArgs): TargetPoint {
  const el = elementById(args.id);
  target = el;
  if (!el) return { found: false, x: 0, y: 0, hits: false, tag: "", inputType: null, editable: false };
  let r = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView ?? window;
  if (r.top < 0 || r.left < 0 || r.bottom > view.innerHeight || r.right > view.innerWidth) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });
    r = el.getBoundingClientRect();
  }
  // A node inside a same-origin iframe has rects relative to that frame.
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
  const hits = r.width > 0 && r.height > 0 && !!hit && (hit === el || el.contains(hit) || label?.control === el);
  return {
    found: true,
    x: ox + lx,
    y: oy + ly,
    hits,
    tag: el.tagName.toLowerCase(),
    inputType: isInput(el) ? el.type : null,
    editable: editableOf(el),
  };
}
