// What Readability left of an article's own text. Readability keeps its best-scoring subtree and
// the siblings that score well; an article written as a run of like blocks (a listicle's items,
// an AsciiDoc page's sections, a grid of cards with a paragraph each, rows of text beside ad
// rails) can come out as one or two of those blocks, or as the intro and the outro without
// the cards between them. The main-content candidate still holds the whole region: where
// Readability's text sits in it says which part of it is the article, and that part is taken:
//   - everything between the first and the last block Readability kept (it is sandwiched
//     between the article's paragraphs: the grid between an intro and an outro);
//   - the like siblings of the blocks it kept (same tag and class): the other sections, items
//     or rows of the run it took one of.
// Comments and "more stories" after the article are neither, and stay out.
import { squash } from "../text.js";
import { likeKey, linkTextLen, proseLength, textLen } from "./main-content.js";

/** Readability keeps at most this share of the main-content candidate's text for a completion to be tried… */
const MAX_SHARE = 0.5;
/** …and the completion must add at least this much prose, and this share of Readability's text. */
const MIN_ADDED_CHARS = 300;
const MIN_ADDED_SHARE = 0.3;
/** How far above the blocks Readability kept a run of like siblings is looked for. */
const MAX_LEVELS = 4;
/** Marks the like siblings taken while the copy is cut (removed before the content is returned). */
const RUN_MARK = "data-sl-run";
/** Share of Readability's prose the completion must hold. */
const MIN_KEPT_FOUND = 0.9;
/** A block added between Readability's blocks with this share of its text in links is a box of links. */
const LINKS_MAX_SHARE = 0.5;

const BLOCKS = "p, pre, blockquote, li, h2, h3, h4, h5, h6, td, dd";
const KEY_CHARS = 80;
const MIN_KEY_CHARS = 25;

function key(el: Element): string {
  return squash(el.textContent ?? "").slice(0, KEY_CHARS);
}

const PROSE_BLOCKS = new Set(["p", "pre", "blockquote"]);

/** Prose held in the outermost paragraphs, quotes and code blocks of `el`. */
function proseIn(el: Element): number {
  if (PROSE_BLOCKS.has(el.localName)) return proseLength(el);
  let n = 0;
  for (const b of Array.from(el.querySelectorAll("p, pre, blockquote"))) {
    const outer = b.parentElement?.closest("p, pre, blockquote");
    if (!outer || !el.contains(outer)) n += proseLength(b);
  }
  return n;
}

/** Tag and class: what makes blocks "like" each other. A bare <div> or <p> says nothing. */
function signature(el: Element): string | null {
  if (!(el.getAttribute("class") ?? "").trim() && el.localName !== "li" && el.localName !== "section" && el.localName !== "article") return null;
  return likeKey(el);
}

function commonAncestor(a: Element, b: Element): Element {
  let x: Element | null = a;
  while (x && !x.contains(b)) x = x.parentElement;
  return x ?? a;
}

function before(a: Node, b: Node): boolean {
  return (a.compareDocumentPosition(b) & 4) !== 0;
}

/** Like siblings of `x` that hold prose and are not articles of their own (an <h1> each: the next story). */
function likeSiblings(x: Element): Element[] {
  const sig = signature(x);
  const parent = x.parentElement;
  if (!sig || !parent) return [];
  return Array.from(parent.children).filter((s) => s !== x && signature(s) === sig && !s.querySelector("h1") && proseIn(s) > 0);
}

/** Keys of the blocks Readability kept (their text's first characters). */
function keysOf(kept: Element): Set<string> {
  const keys = new Set<string>();
  for (const b of Array.from(kept.querySelectorAll(BLOCKS))) {
    const k = key(b);
    if (k.length >= MIN_KEY_CHARS) keys.add(k);
  }
  return keys;
}

/**
 * The span of the article in `full`: from the first to the last block Readability kept, widened
 * to the run of like blocks it took part of (like children of the blocks' common ancestor, then
 * like siblings of it and of its ancestors). The like siblings taken are marked with RUN_MARK.
 */
function articleSpan(covered: Element[], full: Element): [Element, Element] {
  let first = covered[0]!;
  let last = covered[covered.length - 1]!;
  const top = covered.reduce(commonAncestor, first);
  const holders = new Set<Element>();
  for (const b of covered) {
    let c: Element = b;
    while (c.parentElement && c.parentElement !== top) c = c.parentElement;
    if (c !== top) holders.add(c);
  }
  const extend = (els: Element[]): void => {
    for (const s of els) {
      s.setAttribute(RUN_MARK, "");
      if (before(s, first)) first = s;
      if (before(last, s) && !last.contains(s) && !s.contains(last)) last = s;
    }
  };
  for (const h of holders) extend(likeSiblings(h));
  // Not past an <article> or <main>: the like siblings of a story are other stories.
  for (let x: Element | null = top, i = 0; x && x !== full && i < MAX_LEVELS; x = x.parentElement, i++) {
    if (x.localName === "article" || x.localName === "main" || x.getAttribute("role") === "main") break;
    extend(likeSiblings(x));
  }
  return [first, last];
}

/** A copy of the common ancestor of `first` and `last` without what lies wholly before `first` or after `last`. */
function copySpan(first: Element, last: Element): Element {
  const top = commonAncestor(first, last);
  const path = (target: Element): number[] => {
    const idx: number[] = [];
    for (let x: Element = target; x !== top; x = x.parentElement!) idx.unshift(Array.prototype.indexOf.call(x.parentNode!.childNodes, x));
    return idx;
  };
  const trim = (root: Node, idx: number[], side: "before" | "after"): void => {
    let node: Node = root;
    for (const i of idx) {
      const kids = Array.from(node.childNodes);
      for (const k of side === "before" ? kids.slice(0, i) : kids.slice(i + 1)) node.removeChild(k);
      node = node.childNodes[side === "before" ? 0 : node.childNodes.length - 1]!;
    }
  };
  const firstPath = path(first);
  const lastPath = path(last);
  const out = top.cloneNode(true) as Element;
  trim(out, lastPath, "after");
  trim(out, firstPath, "before");
  return out;
}

/**
 * Between the blocks Readability kept, what it left besides prose it was right to leave: a box
 * of links set between the paragraphs ("Trending", "More on this") goes. The blocks of the run
 * it never looked at (RUN_MARK) keep their lists of links (a changelog's list of patches).
 */
function dropLinkBoxes(out: Element, keys: Set<string>): void {
  for (const el of Array.from(out.querySelectorAll("div, section, figure, aside, ul, ol, table, p"))) {
    if (!out.contains(el) || el.closest(`[${RUN_MARK}]`)) continue;
    const len = textLen(el);
    if (!len || linkTextLen(el) < len * LINKS_MAX_SHARE) continue;
    // A box around blocks Readability kept stays; a paragraph of links goes even when it kept
    // one ("Read more: …"), as in prune.ts.
    if (Array.from(el.querySelectorAll(BLOCKS)).some((b) => keys.has(key(b)))) continue;
    el.remove();
  }
}

/**
 * The completion holds Readability's prose: a paragraph of Readability's that the candidate
 * left out as boilerplate (or that lies outside the span) means the two disagree, and
 * Readability's content stands. Short blocks may go (a promo line, a caption, a byline).
 */
function holdsKeptProse(out: Element, kept: Element): boolean {
  const outKeys = new Set(Array.from(out.querySelectorAll(BLOCKS), key));
  let prose = 0;
  let found = 0;
  for (const b of Array.from(kept.querySelectorAll("p, pre, blockquote"))) {
    const len = proseLength(b);
    prose += len;
    if (len && outKeys.has(key(b))) found += len;
  }
  return found >= prose * MIN_KEPT_FOUND;
}

/**
 * The main-content candidate `full` cut to the article Readability found part of, or null when
 * Readability's `kept` content is the article (it holds most of the candidate, or completing it
 * would add little prose). `keptLen` and `fullLen` are their text lengths, which the caller has
 * measured to compare them (the whole candidate's text is not read again on every article).
 */
export function completeArticle(kept: Element, full: Element, keptLen: number, fullLen: number): Element | null {
  if (!keptLen || keptLen >= fullLen * MAX_SHARE) return null;
  const keys = keysOf(kept);
  // The blocks of the candidate Readability kept, in document order.
  const covered = Array.from(full.querySelectorAll(BLOCKS)).filter((b) => keys.has(key(b)));
  if (!covered.length) return null;
  const [first, last] = articleSpan(covered, full);
  const out = copySpan(first, last);
  for (const el of Array.from(full.querySelectorAll(`[${RUN_MARK}]`))) el.removeAttribute(RUN_MARK);
  dropLinkBoxes(out, keys);
  for (const el of Array.from(out.querySelectorAll(`[${RUN_MARK}]`))) el.removeAttribute(RUN_MARK);
  if (!holdsKeptProse(out, kept)) return null;
  const added = proseIn(out) - proseIn(kept);
  if (added < MIN_ADDED_CHARS || added < keptLen * MIN_ADDED_SHARE) return null;
  return out;
}
