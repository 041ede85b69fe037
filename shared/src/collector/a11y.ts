// Role and accessible name: dom-accessibility-api (the W3C accname / html-aam algorithms),
// plus a thin correction layer (role-fixes.ts, name-fixes.ts) where it departs from WPT.
import { computeAccessibleName, getRole } from "dom-accessibility-api";
import type { StyleOf } from "./style-cache.js";
import { fixRole } from "./role-fixes.js";
import { fixName } from "./name-fixes.js";

export function roleOf(el: Element): string {
  let base: string | null = null;
  try {
    base = getRole(el);
  } catch {
    base = null;
  }
  return fixRole(el, base);
}

export function nameOf(el: Element, role: string, style: StyleOf): string {
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
