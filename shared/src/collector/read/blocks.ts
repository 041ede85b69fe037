// Block segmentation of the cleaned copy, and what the learned read model knows of each block.
// A block is a box of the rendered page that holds text of its own: every text run belongs to
// its nearest ancestor whose computed display is not inline (a paragraph, a heading, a list
// item, a table cell, a card, a button; a <pre> holds everything inside it), so the page's text
// is cut into blocks without overlap. Each block is described by its text (length, links,
// punctuation, stop words), its place in the markup (tag, landmarks and class/id words around
// it, like siblings, the nearest heading), its box in the live page (position against the
// viewport and the main column, font size and weight against the page's body text) and what the
// hand rules made of it (Readability kept it, the main-content candidate kept it, the rules'
// chosen content kept it, furniture marks). The features are read on the live element the
// clone's element was copied from (pairUp: the clone is walked before it is cleaned).

import { squash } from "../text.js";

/** Attribute carrying a block's index on the cleaned copy (travels into every candidate). */
export const BLOCK_ATTR = "data-sl-b";

/** Never content: their text is not shown as text (or not at all). */
export const SKIP = new Set(["script", "style", "noscript", "template", "head", "title", "svg", "math", "select", "option", "datalist", "textarea", "iframe", "object", "canvas", "video", "audio"]);
const INLINE_DISPLAY = /^(?:inline|contents|ruby|ruby-text)$/;

/** Words of class names and ids that say what a block is, looked for on the block and on its ancestors. */
export const CLASS_WORDS = [
  "content", "article", "post", "body", "entry", "text", "story", "main", "comment", "reply", "sidebar", "nav", "menu",
  "footer", "header", "related", "share", "social", "ad", "promo", "widget", "breadcrumb", "tag", "meta", "author",
  "date", "caption", "copyright", "subscribe", "newsletter", "cookie", "modal", "card", "item", "product", "price",
  "review", "rating", "description", "title", "summary", "toc", "pagination", "thread", "message", "list", "grid",
  "teaser", "recommend", "more", "link", "button", "btn", "icon", "hidden", "faq", "question", "answer", "doc",
  "section", "detail", "info", "spec", "feature", "user", "profile", "signature", "quote", "code", "footnote", "hero",
] as const;
const WORD_INDEX = new Map<string, number>(CLASS_WORDS.map((w, i) => [w, i]));
/** Class/id parts, camelCase split, mapped onto CLASS_WORDS (plurals and a few synonyms). */
const ALIASES: Record<string, string> = {
  posts: "post", comments: "comment", replies: "reply", tags: "tag", authors: "author", cards: "card", items: "item",
  products: "product", prices: "price", reviews: "review", ratings: "rating", menus: "menu", widgets: "widget",
  ads: "ad", advert: "ad", advertisement: "ad", sponsored: "ad", navigation: "nav", navbar: "nav", breadcrumbs: "breadcrumb",
  related: "related", recommended: "recommend", recommendations: "recommend", byline: "author", dateline: "date",
  timestamp: "date", time: "date", published: "date", sharing: "share", comments_: "comment", masthead: "header",
  aside: "sidebar", rail: "sidebar", lede: "summary", excerpt: "summary", headline: "title", heading: "title",
  messages: "message", questions: "question", answers: "answer", docs: "doc", documentation: "doc", sections: "section",
  details: "detail", specs: "spec", specifications: "spec", features: "feature", buttons: "button", icons: "icon",
  footnotes: "footnote", links: "link", lists: "list", banner: "hero", jumbotron: "hero", sr: "hidden", visually: "hidden",
};

function classWords(el: Element): number[] {
  const raw = `${el.id} ${typeof el.className === "string" ? el.className : ""}`;
  if (raw.length < 2) return [];
  const out: number[] = [];
  for (const part of raw.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/)) {
    if (part.length < 2) continue;
    const w = WORD_INDEX.get(ALIASES[part] ?? part);
    if (w !== undefined && !out.includes(w)) out.push(w);
  }
  return out;
}

/** Landmarks and containers a block can sit in (bit positions of Block.inside). */
const INSIDE_TAGS: Record<string, number> = {
  article: 0, main: 1, aside: 2, nav: 3, header: 4, footer: 5, form: 6, li: 7, table: 8, figure: 9, blockquote: 10,
  a: 11, h1: 12, h2: 12, h3: 12, h4: 12, h5: 12, h6: 12, button: 13, label: 14, dl: 15, section: 16, details: 17,
};
const INSIDE_ROLES: Record<string, number> = { navigation: 3, banner: 4, contentinfo: 5, complementary: 2, main: 1, article: 0, button: 13 };
export const INSIDE_NAMES = ["article", "main", "aside", "nav", "header", "footer", "form", "li", "table", "figure", "blockquote", "a", "heading", "button", "label", "dl", "section", "details"];
const INSIDE_BITS = INSIDE_NAMES.length;

/** Furniture kinds (furniture.ts) a block can carry. */
export const FURNITURE_KINDS = ["caption", "byline", "author", "post-chrome", "menu", "other-products", "reviews"];

export interface Block {
  /** The block's element in the cleaned copy. */
  el: Element;
  live: Element | null;
  /** The live element's computed style (null for an element the cleaning made). */
  style: CSSStyleDeclaration | null;
  /** Its parent and grandparent in the copy before any candidate took it apart (Readability's scores sit there). */
  parent: Element | null;
  grand: Element | null;
  /** Its own text, squashed (not the text of blocks inside it). */
  text: string;
  chars: number;
  linkChars: number;
  /** Bits of INSIDE_NAMES the block or an ancestor is. */
  inside: number;
  /** CLASS_WORDS on the block's own element, and on any ancestor. */
  ownWords: number[];
  ancWords: Set<number>;
  depth: number;
  /** Characters of the page's text before this block. */
  before: number;
  /** Holds an image (an image-only block has no text). */
  image: boolean;
  hidden: boolean;
  furniture: number;
}

export interface Segmentation {
  blocks: Block[];
  totalChars: number;
  /** Per element of the copy: text and link text of its whole subtree (the ancestors' shares). */
  sub: Map<Element, { chars: number; links: number; blocks: number }>;
}

/**
 * Pairs each element of `copy` (a fresh deep clone of `live`, not yet changed) with the element
 * it was cloned from: the trees have the same shape.
 */
export function pairUp(live: Element, copy: Element): Map<Element, Element> {
  const map = new Map<Element, Element>();
  const walk = (l: Element, c: Element): void => {
    map.set(c, l);
    let cc = c.firstElementChild;
    for (let le = l.firstElementChild; le && cc; le = le.nextElementSibling, cc = cc.nextElementSibling) walk(le, cc);
  };
  walk(live, copy);
  return map;
}

/**
 * Cuts the cleaned copy `root` into blocks, in document order, and marks each block's element
 * with BLOCK_ATTR. `liveOf` maps the copy's elements to the live page's (pairUp).
 */
export function segment(root: Element, liveOf: Map<Element, Element>, view: Window | null): Segmentation {
  const blocks: Block[] = [];
  const sub = new Map<Element, { chars: number; links: number; blocks: number }>();
  let total = 0;
  const styleOf = (el: Element): CSSStyleDeclaration | null => {
    const l = liveOf.get(el);
    return l && view ? view.getComputedStyle(l) : null;
  };
  const furnitureBit = (el: Element): number => {
    const k = el.getAttribute("data-sl-furniture");
    const i = k ? FURNITURE_KINDS.indexOf(k) : -1;
    return i >= 0 ? 1 << i : 0;
  };
  const walk = (el: Element, block: Block | null, inside: number, anc: Set<number>, inLink: boolean, depth: number, pre: boolean, hidden: boolean, furn: number): { chars: number; links: number; blocks: number } => {
    const agg = { chars: 0, links: 0, blocks: 0 };
    let cur = block;
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        const v = n.nodeValue ?? "";
        if (!/\S/.test(v)) continue;
        if (!cur) continue;
        const t = pre ? v : squash(v);
        cur.text = cur.text ? `${cur.text} ${t}` : t;
        const len = t.length;
        cur.chars += len;
        if (inLink) cur.linkChars += len;
        agg.chars += len;
        if (inLink) agg.links += len;
        total += len;
        continue;
      }
      if (n.nodeType !== 1) continue;
      const c = n as Element;
      const tag = c.localName;
      if (SKIP.has(tag)) continue;
      if (tag === "img" || tag === "picture") {
        if (cur) cur.image = true;
        continue;
      }
      let childBlock = cur;
      let childInside = inside;
      let childAnc = anc;
      const words = classWords(c);
      const bit = INSIDE_TAGS[tag] ?? INSIDE_ROLES[c.getAttribute("role") ?? ""];
      if (bit !== undefined) childInside |= 1 << bit;
      let childHidden = hidden;
      const childFurn = furn | furnitureBit(c);
      if (!pre) {
        const style = tag === "br" || tag === "wbr" ? null : styleOf(c);
        const display = style?.display ?? "inline";
        if (display === "none") childHidden = true;
        if (!INLINE_DISPLAY.test(display) || !cur) {
          childBlock = {
            el: c, live: liveOf.get(c) ?? null, style, parent: c.parentElement, grand: c.parentElement?.parentElement ?? null,
            text: "", chars: 0, linkChars: 0, inside: childInside, ownWords: words,
            ancWords: anc, depth, before: total, image: false, hidden: childHidden, furniture: childFurn,
          };
        }
      }
      if (words.length) {
        childAnc = new Set(anc);
        for (const w of words) childAnc.add(w);
      }
      const isNew = childBlock !== cur && childBlock !== null;
      const s = walk(c, childBlock, childInside, childAnc, inLink || tag === "a", depth + 1, pre || tag === "pre", childHidden, childFurn);
      if (isNew && childBlock && (childBlock.chars > 0 || childBlock.image)) {
        blocks.push(childBlock);
        s.blocks++;
      }
      // A furniture mark on an inline run (a byline's <span>) marks the block it is in.
      if (!isNew && cur && s.chars) cur.furniture |= childFurn;
      sub.set(c, s);
      agg.chars += s.chars;
      agg.links += s.links;
      agg.blocks += s.blocks;
    }
    return agg;
  };
  const top: Block = {
    el: root, live: liveOf.get(root) ?? null, style: styleOf(root), parent: null, grand: null, text: "", chars: 0, linkChars: 0, inside: 0, ownWords: classWords(root),
    ancWords: new Set(), depth: 0, before: 0, image: false, hidden: false, furniture: 0,
  };
  const s = walk(root, top, 0, new Set(classWords(root)), false, 1, false, false, 0);
  sub.set(root, s);
  if (top.chars > 0) blocks.push(top);
  // Document order: a block opened before the blocks inside it, and `before` is where it opened.
  blocks.sort((a, b) => a.before - b.before || a.depth - b.depth);
  blocks.forEach((b, i) => b.el.setAttribute(BLOCK_ATTR, String(i)));
  return { blocks, totalChars: total, sub };
}

/** The block indexes whose elements are inside `node` (a candidate's output). */
export function blockIds(node: Element | null): Set<number> {
  const out = new Set<number>();
  if (!node) return out;
  const add = (el: Element): void => {
    const v = el.getAttribute(BLOCK_ATTR);
    if (v) out.add(Number(v));
  };
  add(node);
  node.querySelectorAll(`[${BLOCK_ATTR}]`).forEach(add);
  return out;
}
