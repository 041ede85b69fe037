// Plain text of an extracted content node, block-aware: paragraphs, headings, list items and
// table rows end with line breaks (textContent would glue "end.Next" together), cells with tabs.
const BLOCKS = new Set([
  "address", "article", "aside", "blockquote", "dd", "details", "dialog", "div", "dl", "dt", "fieldset",
  "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
  "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "caption",
]);
const SKIP = new Set(["script", "style", "noscript", "template", "head", "title"]);

export function toText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node, pre: boolean): void => {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) {
        const v = c.nodeValue ?? "";
        parts.push(pre ? v : v.replace(/[ \t\r\n\f]+/g, " "));
      } else if (c.nodeType === 1) {
        const el = c as Element;
        const tag = el.localName;
        if (SKIP.has(tag)) continue;
        if (tag === "br") {
          parts.push("\n");
          continue;
        }
        if (tag === "img") {
          continue;
        }
        const block = BLOCKS.has(tag);
        if (block) parts.push("\n");
        walk(el, pre || tag === "pre");
        if (tag === "td" || tag === "th") parts.push("\t");
        else if (block) parts.push(tag === "p" || tag[0] === "h" ? "\n\n" : "\n");
      }
    }
  };
  walk(root, false);
  return parts
    .join("")
    .split("\n")
    .map((l) => l.replace(/[ \t]+/g, (m) => (m.includes("\t") ? "\t" : " ")).trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
