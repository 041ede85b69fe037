// The extension's agent inside the inspected tab (injected on demand into the extension's
// isolated world, never into the page's own world): draws the overlay, highlights and scrolls
// to elements, renders element images. It takes no commands from the page: only the
// extension's scripting calls reach it.
import { createOverlay, type Overlay, type OverlayBox } from "@sightline/shared/overlay";
import { toPng } from "html-to-image";
import type { Box, PageScroll } from "./messages.js";

export interface PageAgent {
  overlay(boxes: Box[] | null, scroll?: PageScroll): number;
  highlight(box: Box | null, scroll?: PageScroll): boolean;
  scrollTo(box: Box, scroll?: PageScroll): boolean;
  image(id?: number): Promise<string>;
}

/** The collector keeps node → id in this per-world state (shared/src/collector/state.ts). */
const COLLECTOR_STATE = "__sightlineCollectorState__";

function collectorIds(): WeakMap<Node, number> | null {
  const s = (globalThis as Record<string, unknown>)[COLLECTOR_STATE] as { ids?: WeakMap<Node, number> } | undefined;
  return s?.ids instanceof WeakMap ? s.ids : null;
}

const found = new Map<number, WeakRef<Element>>();

/** The live element the collector gave this id to (open shadow roots included), or null. */
export function elementById(id: number): Element | null {
  const cached = found.get(id)?.deref();
  if (cached?.isConnected) return cached;
  const ids = collectorIds();
  if (!ids) return null;
  const stack: (Document | ShadowRoot)[] = [document];
  while (stack.length) {
    const root = stack.pop()!;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n as Element;
      const got = ids.get(el);
      if (got !== undefined) found.set(got, new WeakRef(el));
      if (got === id) return el;
      if (el.shadowRoot) stack.push(el.shadowRoot);
    }
  }
  return null;
}

function toOverlayBox(box: Box, scroll?: PageScroll): OverlayBox {
  return { id: box.id, rect: box.rect, scroll, label: box.label, element: elementById(box.id) };
}

export function createPageAgent(): PageAgent {
  let overlay: Overlay | null = null;
  const ensure = () => (overlay ??= createOverlay(document));
  return {
    overlay(boxes, scroll) {
      if (!boxes) {
        overlay?.destroy();
        overlay = null;
        return 0;
      }
      const o = ensure();
      o.showBoxes(boxes.map((b) => toOverlayBox(b, scroll)));
      return o.boxCount;
    },
    highlight(box, scroll) {
      if (!box) {
        overlay?.highlight(null);
        return false;
      }
      const ob = toOverlayBox(box, scroll);
      ensure().highlight(ob);
      return !!ob.element;
    },
    scrollTo(box, scroll) {
      const el = elementById(box.id);
      if (el) {
        el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
        return true;
      }
      const y = (scroll?.y ?? window.scrollY) + box.rect.y - window.innerHeight / 2 + box.rect.height / 2;
      window.scrollTo({ top: Math.max(0, y), behavior: "instant" });
      return false;
    },
    async image(id) {
      const el = id === undefined ? document.documentElement : elementById(id);
      if (!el) throw new Error(`element ${id} is no longer on the page`);
      const target = el as HTMLElement;
      // Full page: the whole document height, not only the visible part.
      const full = id === undefined;
      return toPng(target, {
        cacheBust: false,
        pixelRatio: 1,
        width: full ? document.documentElement.scrollWidth : undefined,
        height: full ? document.documentElement.scrollHeight : undefined,
        backgroundColor: getComputedStyle(document.body).backgroundColor || "#fff",
        // Never draw our own overlay into the image.
        filter: (n) => !(n instanceof Element && n.tagName === "SIGHTLINE-OVERLAY"),
      });
    },
  };
}
