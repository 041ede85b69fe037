// Text that is in the page but that the person cannot see: hidden by style, off-screen, zero
// size, transparent, clipped away, or aria-hidden. Agents read such text like any other, which
// is how prompt injection hides in pages; the agent layer marks it as untrusted
// (shared/src/agent/provenance.ts).
const MAX_SNIPPET = 300;

function invisibleBy(el: Element, view: Window): string | null {
  if (el.closest("[aria-hidden='true']")) return "aria-hidden";
  const st = view.getComputedStyle(el);
  if (st.display === "none" || st.visibility === "hidden" || st.visibility === "collapse") return "hidden";
  if (Number(st.opacity) === 0) return "transparent";
  if (/rgba\(\d+, \d+, \d+, 0\)|transparent/.test(st.color) && st.webkitTextFillColor !== "" && /rgba\(\d+, \d+, \d+, 0\)|transparent/.test(st.webkitTextFillColor || st.color)) return "transparent";
  if (parseFloat(st.fontSize) < 2) return "zero-size";
  const r = el.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return st.overflow === "hidden" || st.position === "absolute" ? "zero-size" : null;
  const docW = Math.max(document.documentElement.scrollWidth, view.innerWidth);
  const docH = Math.max(document.documentElement.scrollHeight, view.innerHeight);
  const left = r.left + view.scrollX;
  const top = r.top + view.scrollY;
  if (left + r.width <= 0 || top + r.height <= 0 || left >= docW || top >= docH) return "off-screen";
  if (/rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)|inset\(50%\)/.test(st.clip + " " + st.clipPath)) return "clipped";
  return null;
}

/** Up to `max` snippets of hidden text (whitespace collapsed), longest first. */
export function hiddenText(args: { max?: number }): string[] {
  const view = window;
  const found = new Map<Element, string>();
  const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.nodeValue ?? "").trim();
    if (text.length < 12) continue; // icons, counters, single words: not instructions
    const parent = n.parentElement;
    if (!parent || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TITLE|OPTION)$/.test(parent.tagName)) continue;
    // The outermost hidden ancestor gives the whole passage once.
    let hiddenAt: Element | null = null;
    for (let el: Element | null = parent; el && el !== document.body; el = el.parentElement) {
      if (invisibleBy(el, view)) hiddenAt = el;
    }
    if (hiddenAt && !found.has(hiddenAt)) {
      const passage = ((hiddenAt as HTMLElement).textContent ?? "").replace(/\s+/g, " ").trim();
      if (passage.length >= 12) found.set(hiddenAt, passage.slice(0, MAX_SNIPPET));
    }
  }
  return [...new Set(found.values())].sort((a, b) => b.length - a.length).slice(0, args.max ?? 20);
}
