// Which of two things paints on top, from CSS's painting order (CSS 2.1 Appendix E) reduced
// to what decides it for a box over text: every positioned box or stacking context on the way
// from the root is a layer item with a z level (auto counts as 0); two chains compared at the
// first item where they part say which is higher; equal levels go by tree order; inside one
// layer, in-flow block backgrounds paint under all inline content, while replaced and
// inline-level boxes paint with it, in tree order. Positioned boxes with z-index auto are taken
// as stacking contexts of level 0 (the spec paints them so, though their positioned children
// join the parent context): close enough to tell an overlay from what it covers.

export interface LayerItem {
  el: Element;
  /** "before" / "after" for a pseudo-element box of `el`. */
  pseudo: "before" | "after" | null;
  z: number;
  /** A real stacking context (z-index set, transform, opacity < 1…), not a positioned z-auto box. */
  context: boolean;
}

/** What a computed style makes of an element in the painting order; null: in flow. */
export function layerItem(el: Element, cs: CSSStyleDeclaration, parentDisplay: string, pseudo: "before" | "after" | null = null): LayerItem | null {
  const pos = cs.position;
  const zRaw = cs.zIndex;
  const z = zRaw === "auto" ? 0 : Number(zRaw) || 0;
  if (pos !== "static") return { el, pseudo, z, context: zRaw !== "auto" || pos === "fixed" || pos === "sticky" };
  // A flex or grid item with a z-index is a stacking context without being positioned.
  if (zRaw !== "auto" && /(?:^|-)(?:flex|grid)$/.test(parentDisplay)) return { el, pseudo, z, context: true };
  if (createsContext(cs)) return { el, pseudo, z: 0, context: true };
  return null;
}

/** A non-positioned box that still makes a stacking context (and so paints above in-flow content). */
export function createsContext(cs: CSSStyleDeclaration): boolean {
  return (
    Number(cs.opacity) < 1 ||
    cs.transform !== "none" ||
    (cs.translate !== "none" && cs.translate !== "") ||
    (cs.rotate !== "none" && cs.rotate !== "") ||
    (cs.scale !== "none" && cs.scale !== "") ||
    cs.filter !== "none" ||
    (cs.backdropFilter !== "none" && cs.backdropFilter !== "") ||
    cs.mixBlendMode !== "normal" ||
    cs.isolation === "isolate" ||
    cs.clipPath !== "none" ||
    (cs.maskImage !== "none" && cs.maskImage !== "") ||
    cs.perspective !== "none" ||
    /paint|strict|content/.test(cs.contain) ||
    /transform|opacity|filter|perspective|isolation/.test(cs.willChange)
  );
}

function composedContains(outer: Node, inner: Node): boolean {
  for (let n: Node | null = inner; n; ) {
    if (n === outer) return true;
    const p: Node | null = n.parentNode;
    n = p && p.nodeType === 11 ? (p as ShadowRoot).host ?? null : p;
  }
  return false;
}

/** `a` comes after `b` in tree order (document order; a pseudo-element at its place in its element). */
export function after(a: { node: Node; pseudo: "before" | "after" | null }, b: { node: Node; pseudo: "before" | "after" | null }): boolean {
  if (a.node === b.node) {
    const rank = (p: "before" | "after" | null) => (p === "before" ? 1 : p === "after" ? 3 : 0);
    return rank(a.pseudo) > rank(b.pseudo);
  }
  if (a.pseudo && composedContains(a.node, b.node)) return a.pseudo === "after";
  if (b.pseudo && composedContains(b.node, a.node)) return b.pseudo === "before";
  const pos = b.node.compareDocumentPosition(a.node);
  if (pos & Node.DOCUMENT_POSITION_DISCONNECTED) return true; // other tree scopes: undecidable, take "after"
  return (pos & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

const same = (a: LayerItem, b: LayerItem) => a.el === b.el && a.pseudo === b.pseudo;

/**
 * Whether a box (`over`, with its chain) paints above the content of `under` (text or a box, with
 * its chain). `overInline`: the box paints with inline content (replaced or inline-level) when
 * it is in flow.
 */
export function paintsAbove(
  over: { node: Node; pseudo: "before" | "after" | null; chain: LayerItem[]; inline: boolean },
  under: { node: Node; chain: LayerItem[] },
): boolean {
  const a = under.chain;
  const b = over.chain;
  let i = 0;
  while (i < a.length && i < b.length && same(a[i], b[i])) i++;
  const A = a[i];
  const B = b[i];
  if (!A && !B) return over.inline && after(over, { node: under.node, pseudo: null });
  if (!A) return B.z >= 0; // a positioned box inside the text's own layer
  if (!B) return A.z < 0; // the text's branch is positioned; the box is in flow below it
  if (A.z !== B.z) return B.z > A.z;
  return after({ node: B.el, pseudo: B.pseudo }, { node: A.el, pseudo: A.pseudo });
}
