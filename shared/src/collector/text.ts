// Bounded text helpers: every read stops after a character and node budget, so text for a
// big container costs O(budget), not O(subtree) (keeps collect() linear on large pages).

// <select> options are read apart (the selected one only); a label or form wrapping a select
// should not read out every option.
const SKIP_TEXT_TAGS = new Set(["script", "style", "noscript", "template", "head", "title", "select", "datalist"]);

/** Collapses runs of whitespace and trims. */
export function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * Visible-ish text of an element: text nodes in document order, skipping script/style and
 * subtrees marked `hidden`/`aria-hidden`, until `max` characters or `nodeBudget` nodes.
 */
export function shortText(root: Node, max = 200, nodeBudget = 400): string {
  let out = "";
  let budget = nodeBudget;
  const visit = (node: Node): boolean => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (--budget < 0) return false;
      if (c.nodeType === 3) {
        const v = c.nodeValue;
        if (v) {
          out += v;
          if (out.length > max * 2 + 20) return false;
        }
      } else if (c.nodeType === 1) {
        const el = c as Element;
        const tag = el.localName;
        if (SKIP_TEXT_TAGS.has(tag)) continue;
        if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") continue;
        // Block-ish boundaries become spaces so "Foo</div><div>Bar" does not read "FooBar".
        out += " ";
        if (!visit(el)) return false;
        out += " ";
      }
    }
    return true;
  };
  visit(root);
  return clip(squash(out), max);
}
