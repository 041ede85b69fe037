// The panel's overlay in the inspected tab (injected on demand into the extension's isolated
// world, never into the page's own world): draws the numbered boxes, highlights and scrolls to
// elements, renders element images. It does not act on the page (that is the shared page agent,
// shared/src/agent/page/) and takes no commands from the page: only the extension's scripting
// calls reach it.
import { createOverlay, type Overlay, type OverlayBox } from "@sightline/shared/overlay";
import { elementById } from "@sightline/shared/agent/page";
import { toPng } from "html-to-image";
import type { Box, PageScroll } from "./messages.js";

export interface PageOverlay {
  overlay(boxes: Box[] | null, scroll?: PageScroll): number;
  highlight(box: Box | null, scroll?: PageScroll): boolean;
  scrollTo(box: Box, scroll?: PageScroll): boolean;
  image(id?: number): Promise<string>;
}

/** The element of `id` in this document (the overlay draws in top-level viewport coordinates). */
function topElement(id: number): Element | null {
  const el = elementById(id);
  return el && el.ownerDocument === document ? el : null;
}

function toOverlayBox(box: Box, scroll?: PageScroll): OverlayBox {
  return { id: box.id, rect: box.rect, scroll, label: box.label, element: topElement(box.id) };
}

export function createPageOverlay(): PageOverlay {
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
      const el = topElement(box.id);
      if (el) {
        el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
        return true;
      }
      const y = (scroll?.y ?? window.scrollY) + box.rect.y - window.innerHeight / 2 + box.rect.height / 2;
      window.scrollTo({ top: Math.max(0, y), behavior: "instant" });
      return false;
    },
    async image(id) {
      const el = id === undefined ? document.documentElement : topElement(id);
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
