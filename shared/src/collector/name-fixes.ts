// Corrections to dom-accessibility-api's computeAccessibleName() where it departs from the
// accname expectations that Chromium and WPT agree on.
import type { StyleOf } from "./style-cache.js";

export function fixName(_el: Element, _role: string, base: string, _style: StyleOf): string {
  return base.replace(/[\t\n\f\r ]+/g, " ").trim();
}
