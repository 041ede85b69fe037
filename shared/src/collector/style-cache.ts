// One getComputedStyle per element per collect(): the walk, the candidate test and the
// accessible-name computation all read styles, and nothing writes to the DOM in between.
export type StyleOf = (el: Element, pseudo?: string | null) => CSSStyleDeclaration;

/** What a pseudo-element without generated content looks like to the name computation. */
const NO_CONTENT = { getPropertyValue: () => "none", content: "none" } as unknown as CSSStyleDeclaration;

/**
 * `generated` holds the elements that some style rule gives ::before/::after content; only
 * those pay for a pseudo-element style read.
 */
export function styleCache(generated?: Set<Element>): StyleOf {
  const cache = new Map<Element, CSSStyleDeclaration>();
  return (el, pseudo) => {
    const view = el.ownerDocument.defaultView ?? window;
    if (pseudo) return generated && !generated.has(el) ? NO_CONTENT : view.getComputedStyle(el, pseudo);
    let cs = cache.get(el);
    if (!cs) {
      cs = view.getComputedStyle(el);
      cache.set(el, cs);
    }
    return cs;
  };
}

/**
 * Computed `display` per element for one collect(). The name computation reads it twice for
 * most elements it meets (is the child hidden? does it break the line?), and a read costs about
 * a µs where a lookup costs a few dozen ns.
 */
export function displayCache(style: StyleOf): (el: Element) => string {
  const cache = new Map<Element, string>();
  return (el) => {
    let d = cache.get(el);
    if (d === undefined) {
      d = style(el).display;
      cache.set(el, d);
    }
    return d;
  };
}
