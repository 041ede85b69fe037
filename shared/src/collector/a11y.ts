// Role and accessible name: dom-accessibility-api (the W3C accname / html-aam algorithms),
// plus a thin correction layer (role-fixes.ts, name-fixes.ts) where it departs from WPT.
import { computeAccessibleName, getRole } from "dom-accessibility-api";
import type { StyleOf } from "./style-cache.js";
import { fixRole, validRoleToken } from "./role-fixes.js";
import { NAME_FROM_CONTENT, fixName, type NameCtx } from "./name-fixes.js";

const ASCII_WS = /[\t\n\f\r ]+/g;

function libRole(el: Element): string | null {
  try {
    return getRole(el);
  } catch {
    return null;
  }
}

/** The library's role for the element as if it had no role attribute (a detached shallow copy). */
function libImplicit(el: Element): string | null {
  const copy = el.cloneNode(false) as Element;
  copy.removeAttribute("role");
  return libRole(copy);
}

/** Role of an ancestor, for required-context checks: valid explicit token, else native role. */
function ancestorRole(a: Element): string {
  const explicit = validRoleToken(a.getAttribute("role"));
  if (explicit) return explicit === "presentation" ? "none" : explicit === "directory" ? "list" : explicit;
  const tag = a.localName;
  if (tag === "ul" || tag === "ol" || tag === "menu" || tag === "dir") return "list";
  return libRole(a) ?? "generic";
}

export function roleOf(el: Element): string {
  return fixRole(el, libRole(el), () => libImplicit(el), ancestorRole);
}

/**
 * The common case, a control whose only content is text and that nothing else names, gives
 * the same name as the full algorithm for a fraction of its cost.
 */
function textOnlyName(el: Element, role: string, generated: Set<Element>): string | null {
  if (!NAME_FROM_CONTENT.has(role) || el.firstElementChild || el.shadowRoot || generated.has(el)) return null;
  if (el.hasAttribute("aria-labelledby") || el.hasAttribute("aria-label") || el.hasAttribute("aria-labeledby")) return null;
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea" || tag === "img" || tag === "slot") return null;
  const labels = (el as HTMLButtonElement).labels;
  if (labels && labels.length) return null;
  const t = (el.textContent ?? "").replace(ASCII_WS, " ").trim();
  return t || null;
}

/**
 * The style function handed to the library: `visibility: collapse` hides like `hidden`
 * (the library only knows the latter). Wrappers are cached per element for one collect().
 */
export function libraryStyle(style: StyleOf): StyleOf {
  const cache = new Map<Element, CSSStyleDeclaration>();
  return (el, pseudo) => {
    const cs = style(el, pseudo);
    if (pseudo) return cs;
    let w = cache.get(el);
    if (!w) {
      w = {
        getPropertyValue(p: string) {
          const v = cs.getPropertyValue(p);
          return p === "visibility" && v === "collapse" ? "hidden" : v;
        },
      } as unknown as CSSStyleDeclaration;
      cache.set(el, w);
    }
    return w;
  };
}

export interface NameContext extends NameCtx {
  /** libraryStyle(style), made once per collect(). */
  lib: StyleOf;
}

/** Elements whose host language names them (label, alt, legend, caption, figcaption, …). */
const NATIVELY_NAMED = new Set([
  "input", "select", "textarea", "button", "img", "area", "fieldset", "figure", "table", "svg", "iframe",
  "output", "meter", "progress", "details", "summary", "optgroup", "option", "a", "object", "embed", "math",
]);

/**
 * Roles that take no name from content (lists, landmarks, list items, …) and elements with
 * no naming attribute and no native naming: accname gives "", without running the algorithm.
 */
function certainlyUnnamed(el: Element, role: string): boolean {
  if (NAME_FROM_CONTENT.has(role) || role === "article" || role === "dialog" || role === "alertdialog") return false;
  if (NATIVELY_NAMED.has(el.localName)) return false;
  return !(el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") || el.hasAttribute("aria-labeledby") || el.hasAttribute("title"));
}

export function nameOf(el: Element, role: string, ctx: NameContext): string {
  if (certainlyUnnamed(el, role)) return "";
  const fast = textOnlyName(el, role, ctx.generated);
  if (fast !== null) return fast;
  let base = "";
  try {
    base = computeAccessibleName(el, {
      getComputedStyle: ctx.lib as unknown as typeof window.getComputedStyle,
      computedStyleSupportsPseudoElements: true,
    });
  } catch {
    base = "";
  }
  return fixName(el, role, base, ctx);
}
