// Role and accessible name: dom-accessibility-api (the W3C accname / html-aam algorithms),
// plus a thin correction layer (role-fixes.ts, name-fixes.ts) where it departs from WPT.
import { computeAccessibleName, getRole } from "dom-accessibility-api";
import type { StyleOf } from "./style-cache.js";
import { fixRole } from "./role-fixes.js";
import { fixName } from "./name-fixes.js";

/** Roles whose name comes from their content when nothing else names them. */
const NAME_FROM_CONTENT = new Set([
  "button", "link", "heading", "cell", "checkbox", "columnheader", "gridcell", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem",
]);

const ASCII_WS = /[\t\n\f\r ]+/g;

export function roleOf(el: Element): string {
  let base: string | null = null;
  try {
    base = getRole(el);
  } catch {
    base = null;
  }
  return fixRole(el, base);
}

/**
 * The common case, a control whose only content is text and that nothing else names, gives
 * the same name as the full algorithm for a fraction of its cost.
 */
function textOnlyName(el: Element, role: string, generated: Set<Element>): string | null {
  if (!NAME_FROM_CONTENT.has(role) || el.firstElementChild || el.shadowRoot || generated.has(el)) return null;
  if (el.hasAttribute("aria-labelledby") || el.hasAttribute("aria-label")) return null;
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea" || tag === "img" || tag === "slot") return null;
  const labels = (el as HTMLButtonElement).labels;
  if (labels && labels.length) return null;
  const t = (el.textContent ?? "").replace(ASCII_WS, " ").trim();
  return t || null;
}

export function nameOf(el: Element, role: string, style: StyleOf, generated: Set<Element>): string {
  const fast = textOnlyName(el, role, generated);
  if (fast !== null) return fast;
  let base = "";
  try {
    base = computeAccessibleName(el, {
      getComputedStyle: style as unknown as typeof window.getComputedStyle,
      computedStyleSupportsPseudoElements: true,
    });
  } catch {
    base = "";
  }
  return fixName(el, role, base, style);
}
