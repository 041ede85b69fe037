// The last, precision-first pass over the chosen content (either candidate): blocks that are
// mostly links ("related" and "customers also bought" lists, tag clouds, pagination, share
// bars; Readability keeps lists of links) and the headings they leave orphaned. Listings keep
// theirs: their items are links.
import { boilerplateLinkLists } from "./main-content.js";

const HEADING = /^h[1-6]$/;
/** A list's own heading ("Related posts", "Tags"): a section heading, short. */
const LIST_HEADING = /^h[2-6]$/;
const LIST_HEADING_MAX_CHARS = 80;

/** Is `el` followed by nothing but other headings (or nothing) inside its parent? */
function orphanHeading(el: Element): boolean {
  for (let n = el.nextElementSibling; n; n = n.nextElementSibling) {
    if (!HEADING.test(n.localName)) return (n.textContent ?? "").trim() === "";
    if (Number(n.localName[1]) <= Number(el.localName[1])) return true;
  }
  return true;
}

export function prune(root: Element, keepLinkLists: boolean): void {
  if (!keepLinkLists) {
    for (const el of boilerplateLinkLists(root)) {
      const prev = el.previousElementSibling;
      el.remove();
      // Not an <h1> nor a long heading: that is the page's own title (a thread's post title
      // followed by its link card), which stays when the card goes.
      if (prev && LIST_HEADING.test(prev.localName) && (prev.textContent ?? "").trim().length <= LIST_HEADING_MAX_CHARS && orphanHeading(prev)) prev.remove();
    }
  }
  for (const h of Array.from(root.querySelectorAll("h2, h3, h4, h5, h6"))) {
    if (!(h.textContent ?? "").trim()) h.remove();
  }
}
