// One getComputedStyle per element per collect(): the walk, the candidate test and the
// accessible-name computation all read styles, and nothing writes to the DOM in between.
export type StyleOf = (el: Element, pseudo?: string | null) => CSSStyleDeclaration;

export function styleCache(): StyleOf {
  const cache = new Map<Element, CSSStyleDeclaration>();
  return (el, pseudo) => {
    const view = el.ownerDocument.defaultView ?? window;
    if (pseudo) return view.getComputedStyle(el, pseudo);
    let cs = cache.get(el);
    if (!cs) {
      cs = view.getComputedStyle(el);
      cache.set(el, cs);
    }
    return cs;
  };
}
