// A copy of the document without what the live page shows is not content: what it does not
// render (display:none from style sheets: collapsed menus, templates of widgets), what sits on
// top of the page (fixed bars: cookie banners, chat buttons, unless they hold most of the text,
// as in app shells; sticky headers, menus and share bars, not a sticky buy box or code panel),
// modal dialogs, and text only screen readers get
// (1-px clipped "sr-only" spans, skip links parked off-screen). HTML-only extractors guess these
// from class names; the live page knows. Readability and the main-content extractor both run on
// this copy. The live and copied trees have the same shape, so they are walked in lockstep.

import { linkTextLen, textLen } from "./main-content.js";

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head"]);
/**
 * Text no page shows (scripts, style sheets, templates): out of the cleaned copy, so that it
 * does not count in the shares the candidates are measured by (a store's inline scripts made
 * its product grid look like a small part of the page). JSON-LD stays: it says the page type.
 */
const UNSHOWN = new Set(["script", "style", "template"]);
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

/** Off-screen text longer than this is content parked by a script (carousel slides), not a skip link. */
const OFFSCREEN_MAX_CHARS = 200;

/**
 * A sticky element stays in the flow of the page: a sticky header, menu, table of contents or
 * share bar is chrome (a landmark, or mostly links, or next to no text), while a sticky buy box,
 * code panel or section heading is content and stays.
 */
function stickyChrome(el: Element): boolean {
  if (/^(?:header|nav|aside|footer)$/.test(el.localName)) return true;
  if (/^(?:banner|navigation|complementary|contentinfo|toolbar|menubar)$/.test(el.getAttribute("role") ?? "")) return true;
  const text = textLen(el);
  return text < 20 || linkTextLen(el) >= text * 0.5;
}

/**
 * What holds less than this share of the page's text is a part of it: an overlay that may go, a
 * collapsed panel that may stay. More is the page itself (an app shell's fixed box, a hidden copy
 * of the whole page for other screens).
 */
const PART_OF_PAGE = 0.25;
/** A collapsed panel holds at least this much text… */
const PANEL_MIN_CHARS = 150;
/** …and little of it in links (a hidden submenu is mostly links). */
const PANEL_MAX_LINK_SHARE = 0.3;
/** The control of a collapsed section: a heading, a button, a summary or a term that expands it. */
const PANEL_CONTROL = /^(?:h[1-6]|button|summary|dt)$/;

/**
 * A collapsed section of the content: an accordion's panel, a tab, a "read more" continuation.
 * The page hides it until the reader opens it, but it is part of the text (HTML-only extractors
 * keep it too). It holds prose, no form, and something opens it: the element before it is a
 * heading, a button or says it expands (aria-expanded), or a control names it (aria-controls),
 * or it calls itself a tab panel. Hidden menus (links), pop-ups (forms) and templates (no
 * opener) still go.
 */
function collapsedPanel(el: Element, total: number): boolean {
  const len = textLen(el);
  if (len < PANEL_MIN_CHARS || len > total * PART_OF_PAGE || linkTextLen(el) > len * PANEL_MAX_LINK_SHARE) return false;
  if (el.querySelector("form, input, textarea, select, iframe")) return false;
  if (el.getAttribute("role") === "tabpanel") return true;
  const id = el.id;
  if (id && el.ownerDocument.querySelector(`[aria-controls~="${CSS.escape(id)}"]`)) return true;
  let prev = el.previousElementSibling;
  while (prev && SKIP_TAGS.has(prev.localName)) prev = prev.previousElementSibling; // CSS-in-JS puts a <style> between
  if (!prev) return false;
  return PANEL_CONTROL.test(prev.localName) || prev.hasAttribute("aria-expanded") || prev.querySelector("h1, h2, h3, h4, h5, h6, button, summary, [aria-expanded]") !== null;
}

/**
 * An accordion's question is a button inside a heading: both candidates drop buttons (controls),
 * and the question went with it. The button's words stay as the heading's text.
 */
function unwrapHeadingButtons(copy: Element): void {
  for (const b of Array.from(copy.querySelectorAll("h1 button, h2 button, h3 button, h4 button, h5 button, h6 button"))) {
    b.replaceWith(...Array.from(b.childNodes));
  }
}

/**
 * Removes from `copy` (a clone of `live`) the unrendered, overlaid and off-screen parts.
 * `layout`: false keeps to display:none only (the Readability-alone path's stripHidden).
 * `styles` gets each live element's computed style it read (the learned model's blocks read
 * them again: one getComputedStyle per element instead of two).
 */
export function cleanCopy(live: Element, copy: Element, view: Window, layout: boolean, styles?: Map<Element, CSSStyleDeclaration>): CleanStats {
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
        styles?.set(le, cs);
        let drop = false;
        if (cs.display === "none") {
          if (!(layout && collapsedPanel(le, total))) {
            drop = true;
            stats.hidden++;
          }
        } else if (layout) {
          const pos = cs.position;
          if (pos === "fixed" && !TABLE_PARTS.has(tag) && textLength(le) < total * PART_OF_PAGE) {
            drop = true;
            stats.overlays++;
          } else if (pos === "sticky" && !TABLE_PARTS.has(tag) && textLength(le) < total * PART_OF_PAGE && stickyChrome(le)) {
            drop = true;
            stats.overlays++;
          } else if ((le.getAttribute("aria-modal") === "true" || /^(?:alert)?dialog$/.test(le.getAttribute("role") ?? "")) && textLength(le) < total * PART_OF_PAGE) {
            drop = true;
            stats.overlays++;
          } else if (pos === "absolute") {
            // sr-only (a clipped 1-px box) or parked off-screen (left:-9999px skip links).
            const r = le.getBoundingClientRect();
            // A carousel's slides parked beside the viewport hold more text than a skip link: they stay.
            const clipped = r.width <= 1 && r.height <= 1 && (cs.overflow === "hidden" || cs.clip !== "auto" || cs.clipPath !== "none");
            if (clipped || ((r.right <= 0 || r.left >= vw + 2000) && textLength(le) < OFFSCREEN_MAX_CHARS)) {
              drop = true;
              stats.offscreen++;
            }
          }
        }
        if (drop) c.removeChild(cc);
        else walk(le, cc);
      } else if (layout && UNSHOWN.has(tag) && !(tag === "script" && /ld\+json/i.test(le.getAttribute("type") ?? ""))) {
        c.removeChild(cc);
      }
      cc = next;
    }
  };
  walk(live, copy);
  if (layout) unwrapHeadingButtons(copy);
  return stats;
}
