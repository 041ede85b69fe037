// Corrections to dom-accessibility-api's getRole() where it departs from the html-aam /
// wai-aria expectations that Chromium and WPT agree on.
export function fixRole(el: Element, base: string | null): string {
  return base ?? "generic";
}
