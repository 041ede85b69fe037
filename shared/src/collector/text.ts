// Bounded text helpers: every read stops after a character and node budget, so text for a
// big container costs O(budget), not O(subtree) (keeps collect() linear on large pages).

// <select> options are read apart (the selected one only); a label or form wrapping a select
// should not read out every option.
const SKIP_TEXT_TAGS = new Set(["script", "style", "noscript", "template", "head", "title", "select", "datalist"]);

/**
 * A <noscript> holding elements is shown content: the document runs no scripts (the service's
 * static capture). Where scripts run, the parser leaves its content one text node: not shown.
 */
export const shownNoscript = (el: Element): boolean => el.localName === "noscript" && el.firstElementChild !== null;
const WS_RUN = /\s+/g;
/** Whitespace squash() would change: a run of 2+, or any whitespace other than a plain space. */
const NEEDS_SQUASH = /\s\s|[^\S ]/;

/** Collapses runs of whitespace and trims. */
export function squash(s: string): string {
  // Most short texts are already squashed; testing is cheaper than rebuilding the string.
  return NEEDS_SQUASH.test(s) ? s.replace(WS_RUN, " ").trim() : s.trim();
}

/**
 * The same string, flat. V8 keeps a concatenation as a rope and a trim or slice as a view of
 * its source (for 13+ characters); JSON.stringify's fast path takes only flat strings, and a
 * single rope or view anywhere in a snapshot sends the whole body down the slow path (about
 * 3x slower on a 5,000-element page). A join of two or more parts always builds a flat copy.
 */
export function flat(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join("");
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * A node's text read to the end within a budget: `raw` (unsquashed), how many nodes the read
 * visited, and its squashed form. Any later read of the same node whose budget covers `nodes`
 * and whose character cap covers `raw` would visit the same nodes and stop at the same place,
 * so it can reuse the entry (nothing writes to the DOM during a collect()).
 */
interface TextEntry {
  raw: string;
  nodes: number;
  /** squash(raw), computed on first use (entries stored for sub-elements may never be read). */
  squashed: string | null;
}

let cache: Map<Node, TextEntry> | null = null;
/**
 * Reads that stopped early (budget or character cap), by root: the same read again (same root,
 * cap and budget) stops at the same place. A link's card text walks its list or section for
 * every link in it, and a read that stops early is not an entry of `cache`.
 */
interface PartialEntry {
  max: number;
  nodeBudget: number;
  text: string;
}
let partial: Map<Node, PartialEntry> | null = null;
/** Per tree scope (document, shadow root) during a cached read: its hidden elements. */
let hiddenByScope: Map<Node, Set<Element> | null> | null = null;
/**
 * Elements whose hidden state the reads of this collect() checked attribute by attribute. The
 * query costs the whole tree scope (5.6 ms on a 15,800-element page where reads met a few
 * hundred elements), the attribute reads cost per element met: query only once reads have met
 * more elements than that.
 */
let checkedByAttr = 0;
const QUERY_AFTER = 2_000;

const HIDDEN = '[hidden], [aria-hidden="true"]';

/**
 * The elements of a tree scope that carry `hidden` or `aria-hidden="true"` (matched
 * case-sensitively, as getAttribute() compares), found by one query instead of two attribute
 * reads for every element a read meets. Null where the scope cannot be queried.
 */
function hiddenIn(scope: Node): Set<Element> | null {
  if (!hiddenByScope) return null;
  let set = hiddenByScope.get(scope);
  if (set === undefined) {
    try {
      set = (scope.nodeType === 9 || scope.nodeType === 11) ? new Set((scope as Document).querySelectorAll(HIDDEN)) : null;
    } catch {
      set = null;
    }
    hiddenByScope.set(scope, set);
  }
  return set;
}


/** Shares text reads across one synchronous collect() (the element, its card, its neighbours). */
export function withTextCache<T>(fn: () => T): T {
  const outer = cache;
  const outerPartial = partial;
  const outerHidden = hiddenByScope;
  const outerChecked = checkedByAttr;
  cache = new Map();
  partial = new Map();
  hiddenByScope = new Map();
  checkedByAttr = 0;
  try {
    return fn();
  } finally {
    cache = outer;
    partial = outerPartial;
    hiddenByScope = outerHidden;
    checkedByAttr = outerChecked;
  }
}

// State of the read in progress (module-level rather than a closure per call: shortText() runs
// for thousands of elements per collect()).
let out = "";
let budget = 0;
let visited = 0;
let cap = 0;
/** The hidden elements of the read's tree scope (a read never leaves it), when known. */
let hidden: Set<Element> | null = null;

function walk(node: Node): boolean {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    visited++;
    if (--budget < 0) return false;
    const type = c.nodeType;
    if (type === 3) {
      const v = c.nodeValue;
      if (v) {
        out += v;
        if (out.length > cap) return false;
      }
    } else if (type === 1) {
      const el = c as Element;
      if (SKIP_TEXT_TAGS.has(el.localName) && !shownNoscript(el)) continue;
      if (hidden) {
        if (hidden.size !== 0 && hidden.has(el)) continue;
      } else {
        checkedByAttr++;
        if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") continue;
      }
      // Block-ish boundaries become spaces so "Foo</div><div>Bar" does not read "FooBar".
      out += " ";
      const known = cache?.get(el);
      // A sub-element already read to its end: walking it again would visit its `nodes` nodes
      // and append its `raw`, and finish when the budget and character cap hold all of it
      // (the cap is only tested after text is appended, so within it nothing stops the read).
      if (known && known.nodes <= budget && out.length + known.raw.length <= cap) {
        out += known.raw;
        visited += known.nodes;
        budget -= known.nodes;
        out += " ";
        continue;
      }
      const start = out.length;
      const seen = visited;
      if (!walk(el)) return false;
      // A sub-element read to its end is exactly what a read of that element alone would
      // give (same nodes, same order, a subset of this read's budget and characters): kept, so
      // the link or button inside a card just read is not walked again.
      if (cache && out.length > start) cache.set(el, { raw: out.slice(start), nodes: visited - seen, squashed: null });
      out += " ";
    }
  }
  return true;
}

/**
 * The element's textContent when a read during this collect() found its only child node to be
 * a text node (a read appends text from those alone, so the text read is that node's data, and
 * so is textContent); null when unknown.
 */
export function knownTextContent(el: Element): string | null {
  const e = cache?.get(el);
  return e && e.nodes === 1 && e.raw !== "" ? e.raw : null;
}

/**
 * Visible-ish text of an element: text nodes in document order, skipping script/style and
 * subtrees marked `hidden`/`aria-hidden`, until `max` characters or `nodeBudget` nodes.
 */
export function shortText(root: Node, max = 200, nodeBudget = 400): string {
  const c = cap;
  const limit = max * 2 + 20;
  const cached = cache?.get(root);
  if (cached && cached.nodes <= nodeBudget && cached.raw.length <= limit) {
    if (cached.squashed === null) cached.squashed = squash(cached.raw);
    return clip(cached.squashed, max);
  }
  const stopped = partial?.get(root);
  if (stopped && stopped.max === max && stopped.nodeBudget === nodeBudget) return stopped.text;
  // Reads do not nest today, but keep the outer read's state safe if one ever does.
  const o = out;
  const b = budget;
  const v = visited;
  const h = hidden;
  out = "";
  budget = nodeBudget;
  visited = 0;
  cap = limit;
  // Until reads have met QUERY_AFTER elements hiddenIn() answers null: skip its getRootNode().
  hidden = hiddenByScope && checkedByAttr >= QUERY_AFTER ? hiddenIn(root.getRootNode()) : null;
  const complete = walk(root);
  const raw = out;
  const nodes = visited;
  out = o;
  budget = b;
  visited = v;
  cap = c;
  hidden = h;
  const squashed = squash(raw);
  if (complete && cache) cache.set(root, { raw, nodes, squashed });
  const text = clip(squashed, max);
  if (!complete && partial) partial.set(root, { max, nodeBudget, text });
  return text;
}
