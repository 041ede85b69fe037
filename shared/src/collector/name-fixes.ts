// Corrections to dom-accessibility-api's computeAccessibleName() where it departs from the
// accname / html-aam expectations (WPT) that browsers follow:
//  - aria-labeledby (the misspelling browsers accept) and which of the two spellings wins;
//  - aria-labelledby pointing at hidden nodes includes their hidden subtree;
//  - a <label for> that is itself hidden still names its control; labels beat a button's value;
//  - aria-label keeps non-ASCII spaces (only ASCII whitespace is trimmed);
//  - dialogs and articles without a name take it from their first heading (ARIA 1.3);
//  - CSS generated content: alternative text after "/" and no spaces around inline pseudos.
import type { StyleOf } from "./style-cache.js";

export interface NameCtx {
  style: StyleOf;
  /** Computed display, read once per element per collect() (displayCache). */
  display: (el: Element) => string;
  generated: Set<Element>;
}

const ASCII_WS = /[\t\n\f\r ]+/g;
/** What asciiNorm() would change: ASCII whitespace other than a single inner space. */
const NEEDS_ASCII_NORM = /[\t\n\f\r]| {2}|^ | $/;
export const asciiNorm = (s: string): string => (NEEDS_ASCII_NORM.test(s) ? s.replace(ASCII_WS, " ").replace(/^ | $/g, "") : s);

/** What the library's asFlatString() rewrites: runs of two or more whitespace characters. */
const FLAT_CHANGES = /\s\s/;
const FLAT_RUNS = /\s\s+/g;
/**
 * dom-accessibility-api's asFlatString(): trimmed, runs of whitespace made one space (tested
 * first: most names have no run to collapse, and testing is cheaper than rebuilding).
 */
export function asFlatString(s: string): string {
  const t = s.trim();
  return FLAT_CHANGES.test(t) ? t.replace(FLAT_RUNS, " ") : t;
}

/**
 * Hidden for the name algorithm: hidden / aria-hidden="true", display none, visibility hidden or
 * collapse. `shown`: the caller knows the element is displayed with visibility: visible, so only
 * the attributes are read.
 */
export function isHiddenEl(el: Element, ctx: NameCtx, shown = false): boolean {
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") return true;
  if (shown) return false;
  if (ctx.display(el) === "none") return true;
  const v = ctx.style(el).visibility;
  return v === "hidden" || v === "collapse";
}

/** Text of a CSS `content` value: quoted strings, or the alternative text after " / ". */
export function pseudoText(content: string): string {
  if (!content || content === "none" || content === "normal") return "";
  const slash = content.lastIndexOf(" / ");
  const part = slash >= 0 ? content.slice(slash + 3) : content;
  const strings = part.match(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g);
  if (!strings) return "";
  return strings.map((q) => q.slice(1, -1).replace(/\\(.)/g, "$1")).join("");
}

const NO_PSEUDO = Object.freeze({ text: "", inline: true });

function pseudo(el: Element, which: "::before" | "::after", ctx: NameCtx): { text: string; inline: boolean } {
  if (!ctx.generated.has(el)) return NO_PSEUDO;
  const cs = ctx.style(el, which);
  const text = pseudoText(cs.getPropertyValue("content"));
  // Display only matters around some text (the callers test text first), and each property
  // read of a pseudo-element's style costs as much as resolving it (5-10 µs): not read for "".
  return text ? { text, inline: cs.getPropertyValue("display") === "inline" } : NO_PSEUDO;
}

/**
 * Accname text of a node reached through aria-labelledby or a <label> (simplified 2B–2G).
 * `shown`: the node is an element known to be displayed with visibility: visible (isHiddenEl).
 */
function refText(node: Node, includeHidden: boolean, ctx: NameCtx, skip: Element | null, depth = 0, viaRef = false, shown = false): string {
  if (node.nodeType === 3) return node.nodeValue ?? "";
  if (node.nodeType !== 1 || depth > 30) return "";
  const el = node as Element;
  if (el === skip) return "";
  const tag = el.localName;
  if (tag === "script" || tag === "style" || tag === "template") return "";
  if (!includeHidden && isHiddenEl(el, ctx, shown)) return "";
  // A descendant's own aria-labelledby is followed once (not from inside a reference: no loops).
  if (depth > 0 && !viaRef && el.hasAttribute("aria-labelledby")) {
    const t = idRefs(el, "aria-labelledby")
      .map((ref) => refText(ref, isHiddenEl(ref, ctx), ctx, null, depth + 1, true))
      .join(" ");
    if (asciiNorm(t)) return t;
  }
  const label = el.getAttribute("aria-label");
  if (label && label.trim()) return label;
  if (tag === "img" || tag === "area") return el.getAttribute("alt") ?? "";
  if (tag === "input") {
    const t = (el as HTMLInputElement).type;
    return t === "checkbox" || t === "radio" ? "" : (el as HTMLInputElement).value;
  }
  if (tag === "textarea") return (el as HTMLTextAreaElement).value;
  if (tag === "select") {
    const s = el as HTMLSelectElement;
    return s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : "";
  }
  let children: ArrayLike<Node>;
  if (tag === "slot") {
    const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
    children = assigned.length ? assigned : el.childNodes;
  } else children = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
  const before = pseudo(el, "::before", ctx);
  const after = pseudo(el, "::after", ctx);
  let out = before.text + (before.text && !before.inline ? " " : "");
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    const t = refText(c, includeHidden, ctx, skip, depth + 1, viaRef);
    const block = c.nodeType === 1 && ctx.display(c as Element) !== "inline";
    out += block ? ` ${t} ` : t;
  }
  out += (after.text && !after.inline ? " " : "") + after.text;
  if (!asciiNorm(out)) return el.getAttribute("title") ?? "";
  return out;
}

function idRefs(el: Element, attr: string): Element[] {
  const ids = el.getAttribute(attr);
  if (!ids) return [];
  const root = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const id of ids.trim().split(ASCII_WS)) {
    if (!id) continue;
    const ref = root.getElementById ? root.getElementById(id) : el.ownerDocument.getElementById(id);
    if (ref) out.push(ref);
  }
  return out;
}

function labelledBy(el: Element, attr: string, ctx: NameCtx): string {
  return asciiNorm(
    idRefs(el, attr)
      .map((ref) => refText(ref, isHiddenEl(ref, ctx), ctx, null, 0, true))
      .join(" "),
  );
}

function attrIndex(el: Element, name: string): number {
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) if (attrs[i].name === name) return i;
  return -1;
}

/** Roles whose name comes from their content when nothing else names them. */
export const NAME_FROM_CONTENT = new Set([
  "button", "link", "heading", "cell", "checkbox", "columnheader", "gridcell", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem", "sectionhead",
]);

const HEADING_NAMED = new Set(["alertdialog", "article", "dialog"]);
const BUTTON_INPUTS = new Set(["button", "submit", "reset"]);

/**
 * The name from content that fixName() gives a name-from-content role when nothing else names
 * the element: its own traversal of the subtree, whatever the library returned ("" when the
 * content gives nothing and the library's answer stands).
 */
export const contentText = (el: Element, ctx: NameCtx, shown = false): string => asciiNorm(refText(el, false, ctx, null, 0, false, shown));

/** `contentEmpty`: contentText(el) is already known to be "" (not read again). */
export function fixName(el: Element, role: string, base: string, ctx: NameCtx, contentEmpty = false): string {
  // aria-labeledby: used when it is the only spelling, or written before aria-labelledby.
  const misspelt = attrIndex(el, "aria-labeledby");
  if (misspelt >= 0) {
    const proper = attrIndex(el, "aria-labelledby");
    if (proper < 0 || misspelt < proper) {
      const t = labelledBy(el, "aria-labeledby", ctx);
      if (t) return t;
    }
  }
  if (el.hasAttribute("aria-labelledby")) {
    // Own traversal: hidden referenced nodes, shadow trees and slots are followed as browsers do.
    const t = labelledBy(el, "aria-labelledby", ctx);
    if (t) return t;
  }
  const ariaLabel = el.getAttribute("aria-label");
  if (ariaLabel !== null && !el.hasAttribute("aria-labelledby")) {
    const t = asciiNorm(ariaLabel);
    if (t && base === ariaLabel.trim()) return t;
  }
  // Labels of a form control, hidden ones included; before a button input's own value.
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length && !el.hasAttribute("aria-labelledby") && !(ariaLabel && ariaLabel.trim())) {
    const isButtonInput = el.localName === "input" && BUTTON_INPUTS.has((el as HTMLInputElement).type);
    if (!base || isButtonInput) {
      const t = asciiNorm(Array.from(labels, (l) => refText(l, true, ctx, el)).join(" "));
      if (t) return t;
    }
  }
  if (!base && HEADING_NAMED.has(role)) {
    const h = el.querySelector("h1, h2, h3, h4, h5, h6, [role=heading]");
    if (h) return asciiNorm(refText(h, false, ctx, null));
  }
  if (!contentEmpty && NAME_FROM_CONTENT.has(role) && !el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby")) {
    // The library always puts spaces around ::before/::after text and ignores alt text.
    const t = contentText(el, ctx);
    if (t) return t;
  }
  return asciiNorm(base);
}
