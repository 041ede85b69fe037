// Acting on the located element where trusted input is not the way: DOM click fallback, focus,
// <select> options, form submission and scrolling.
import type { SelectResult } from "../perform/page-calls.js";
import { located } from "./locate.js";
import { deepActive, isHTMLElement, isInput, isSelect, isTextArea } from "./dom.js";

export function domClick(): boolean {
  const t = located();
  if (!t || !("click" in t)) return false;
  (t as HTMLElement).click();
  return true;
}

export function focus(args: { select: boolean }): boolean {
  const t = located() as HTMLElement | null;
  if (!t) return false;
  const doc = t.ownerDocument;
  // Inside an open shadow root the document's activeElement is the host: look through it.
  const has = () => {
    const a = deepActive(doc);
    return a === t || t.contains(a);
  };
  if (!has()) t.focus();
  if (args.select) {
    if (isInput(t) || isTextArea(t)) t.select();
    else if (t.isContentEditable) {
      const range = doc.createRange();
      range.selectNodeContents(t);
      const sel = doc.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
  }
  return has();
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

export function selectOption(args: { value: string }): SelectResult {
  const t = located();
  const select = isSelect(t) ? t : t?.querySelector("select") ?? null;
  if (!select) return { ok: false, options: [], chosen: null };
  const want = norm(args.value);
  const options = Array.from(select.options);
  // Exact value, then exact text, then a text that starts with what was asked.
  const pick =
    options.find((o) => o.value === args.value) ??
    options.find((o) => norm(o.text) === want) ??
    options.find((o) => norm(o.value) === want) ??
    options.find((o) => want !== "" && norm(o.text).startsWith(want));
  if (!pick || pick.disabled) return { ok: false, options: options.map((o) => o.text.trim() || o.value), chosen: null };
  if (select.value !== pick.value) {
    select.focus();
    select.value = pick.value;
    // What a person's choice fires, so frameworks see it.
    select.dispatchEvent(new Event("input", { bubbles: true }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return { ok: true, options: [], chosen: pick.text.trim() || pick.value };
}

export function submitForm(): boolean {
  const t = located();
  const form = isHTMLElement(t) ? (t as HTMLInputElement).form ?? t.closest("form") : null;
  if (!form) return false;
  form.requestSubmit();
  return true;
}

/** Scrolls the nearest scrollable ancestor of the located element, or the page. */
export function scrollBy(args: { direction: "up" | "down" | "left" | "right" }): { moved: boolean } {
  const dy = args.direction === "down" ? 1 : args.direction === "up" ? -1 : 0;
  const dx = args.direction === "right" ? 1 : args.direction === "left" ? -1 : 0;
  const el = document.scrollingElement ?? document.documentElement;
  const beforeX = el.scrollLeft;
  const beforeY = el.scrollTop;
  window.scrollBy({ left: dx * innerWidth * 0.8, top: dy * innerHeight * 0.8, behavior: "instant" as ScrollBehavior });
  return { moved: el.scrollLeft !== beforeX || el.scrollTop !== beforeY };
}
