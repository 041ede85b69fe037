// context_text: for a button or link with a short label, the text of its card — the closest
// ancestor (at most 3 levels up) that says more than the control itself, when that is short
// (≤ 160 chars). A result row's "Book for $558" then carries the row's "Duration: 16h 52m".
// Bounded like nearby_text: a few ancestors, a small node budget each; absent when the
// closest wordier ancestor is a whole section rather than a card.
import { shortText } from "./text.js";

const MAX = 160;
const OWN_MAX = 40;
/** Only lower-case words, underscores and symbols, short: the ligature text of icon fonts, glyphs. */
const ICONISH = /^[\p{Ll}_\s\p{S}\p{P}]{0,40}$/u;
const STOP = new Set(["body", "html", "form", "main", "nav", "header", "footer"]);

export function contextText(el: Element, own: string): string | null {
  if (own.length > OWN_MAX) return null;
  let node = el.parentElement;
  for (let level = 0; level < 3 && node && !STOP.has(node.localName); level++, node = node.parentElement) {
    const t = shortText(node, MAX, 80);
    // An ancestor that says no more than the control, or only icon words (a cell of icon buttons: "star_border delete").
    if (t.length <= own.length + 3 || ICONISH.test(t)) continue;
    return t.endsWith("…") ? null : t;
  }
  return null;
}
