// A copy of the document without what the live page shows is not content: what it does not
// render (display:none from style sheets: collapsed menus, templates of widgets), what sits on
// top of the page (fixed or sticky bars: cookie banners, sticky headers, chat buttons, unless
// they hold most of the text, as in app shells), modal dialogs, and text only screen readers get
// (1-px clipped "sr-only" spans, skip links parked off-screen). HTML-only extractors guess these
// from class names; the live page knows. Readability and the main-content extractor both run on
// this copy. The live and copied trees have the same shape, so they are walked in lockstep.

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head"]);
const TABLE_PARTS = new Set(["td", "th", "tr", "thead", "tbody", "tfoot", "table", "caption"]);

export interface CleanStats {
  /** Elements removed because the page does not render them. */
  hidden: number;
  /** Fixed or sticky overlays and modal dialogs removed. */
  overlays: number;
  /** Screen-reader-only or off-screen elements removed. */
  offscreen: number;
}

function textLength(el: Element): number {
  return (el.textContent ?? "").length;
}

/**
 * Removes from `copy` (a clone of `live`) the unrendered, overlaid and off-screen parts.
 * `layout`: false keeps to display:none only (the Readability-alone path's stripHidden).
 */
export function cleanCopy(live: Element, copy: Element, view: Window, layout: boolean): CleanStats {
  const stats: CleanStats = { hidden: 0, overlays: 0, offscreen: 0 };
  const total = Math.max(1, textLength(live));
  const vw = view.innerWidth || 1280;
  const walk = (l: Element, c: Element): void => {
    let cc = c.firstElementChild;
    for (let le = l.firstElementChild; le && cc; le = le.nextElementSibling) {
      const next = cc.nextElementSibling;
      const tag = le.localName;
      if (!SKIP_TAGS.has(tag) && !(layout && (tag === "svg" || tag === "math"))) {
        const cs = view.getComputedStyle(le);
        let drop = false;
        if (cs.display === "none") {
          drop = true;
          stats.hidden++;
        } else if (layout) {
          const pos = cs.position;
          if ((pos === "fixed" || pos === "sticky") && !TABLE_PARTS.has(tag) && textLength(le) < total * 0.25) {
            drop = true;
            stats.overlays++;
          } else if ((le.getAttribute("aria-modal") === "true" || /^(?:alert)?dialog$/.test(le.getAttribute("role") ?? "")) && textLength(le) < total * 0.25) {
            drop = true;
            stats.overlays++;
          } else if (pos === "absolute") {
            // sr-only (a clipped 1-px box) or parked off-screen (left:-9999px skip links).
            const r = le.getBoundingClientRect();
            if ((r.width <= 1 && r.height <= 1 && (cs.overflow === "hidden" || cs.clip !== "auto" || cs.clipPath !== "none")) || r.right <= 0 || r.left >= vw + 2000) {
              drop = true;
              stats.offscreen++;
            }
          }
        }
        if (drop) c.removeChild(cc);
        else walk(le, cc);
      }
      cc = next;
    }
  };
  walk(live, copy);
  return stats;
}
