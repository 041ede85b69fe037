// Corrections to dom-accessibility-api's computeAccessibleName() where it departs from the
// accname / html-aam expectations (WPT) that browsers follow:
//  - aria-labeledby (the misspelling browsers accept) and which of the two spellings wins;
//  - aria-labelledby pointing at hidden nodes includes their hidden subtree;
//  - a <label for> that is itself hidden still names its control; labels beat a button's value;
//  - aria-label keeps non-ASCII spaces (only ASCII whitespace is trimmed);
//  - dialogs and articles without a name take it from their first heading (ARIA 1.3);
//  - CSS generated content: alternative text after "/" and no spaces around inline pseudos;
//  - where the accname text leaves a choice, what Chromium's accessibility tree gives (measured
//    on real pages by bench/quality/names-vs-chromium.mjs): a text field's placeholder as the name
//    of last resort (HTML-AAM), an embedded control's value, spaces around a child laid out in its
//    own box (block, replaced, named by an attribute) and for <br>/<wbr>, none around a child that
//    gives no text, whitespace-only children kept, and no title from descendants but an <img>.
import type { StyleOf } from "./style-cache.js";
import { SVG_NS } from "./namespaces.js";

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

/**
 * Text of a CSS `content` value: its quoted strings and attr() values, or the alternative text
 * after " / ". Counters (counter(), counters()) give nothing, nor do the strings among their
 * arguments (a table of contents' `counters(item, ".") ". "` reads "." in Chromium's tree),
 * images and quote keywords.
 */
export function pseudoText(content: string, el?: Element): string {
  if (!content || content === "none" || content === "normal") return "";
  const slash = content.lastIndexOf(" / ");
  const part = slash >= 0 ? content.slice(slash + 3) : content;
  let out = "";
  let depth = 0;
  let fn = "";
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      let str = "";
      for (; j < part.length && part[j] !== c; j++) {
        if (part[j] === "\\" && j + 1 < part.length) j++;
        str += part[j];
      }
      if (depth === 0) out += str;
      i = j;
    } else if (c === "(") {
      const name = fn.trim().toLowerCase();
      if (depth === 0 && name === "attr" && el) {
        const close = part.indexOf(")", i);
        const attr = part.slice(i + 1, close < 0 ? part.length : close).trim().split(/[\s,]/)[0];
        out += (attr && el.getAttribute(attr)) ?? "";
        i = close < 0 ? part.length : close;
        fn = "";
        continue;
      }
      depth++;
      fn = "";
    } else if (c === ")") {
      depth = Math.max(0, depth - 1);
      fn = "";
    } else if (/[\w-]/.test(c)) fn += c;
    else fn = "";
  }
  return out;
}

const NO_PSEUDO = Object.freeze({ text: "", inline: true });

function pseudo(el: Element, which: "::before" | "::after", ctx: NameCtx): { text: string; inline: boolean } {
  if (!ctx.generated.has(el)) return NO_PSEUDO;
  const cs = ctx.style(el, which);
  const text = pseudoText(cs.getPropertyValue("content"), el);
  // Display only matters around some text (the callers test text first), and each property
  // read of a pseudo-element's style costs as much as resolving it (5-10 µs): not read for "".
  return text ? { text, inline: cs.getPropertyValue("display") === "inline" } : NO_PSEUDO;
}

/**
 * Set by refText(): the text it returned came from an attribute (aria-label, alt, title, a
 * control's value, aria-labelledby), not from content. Chromium separates such a child's text
 * from its neighbours' with spaces.
 */
let fromAttr = false;

/** Elements laid out in a box of their own inside a line (replaced or embedded): their text is set apart by spaces. */
const OWN_BOX = new Set(["img", "svg", "input", "select", "textarea", "button", "video", "audio", "object", "embed", "iframe", "meter", "progress"]);
/** Input types whose embedded text is their value (buttons and toggles are not read for it). */
const NO_VALUE_INPUTS = new Set(["checkbox", "radio", "hidden", "file", "image"]);
/** Roles of controls that, embedded in another element's label or content, give their value. */
const VALUE_ROLES = new Set(["textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "scrollbar"]);

function embeddedControl(el: Element, tag: string): boolean {
  if (tag === "input" || tag === "textarea" || tag === "select") return true;
  const r = el.getAttribute("role");
  return r !== null && VALUE_ROLES.has(r.trim().toLowerCase());
}

/**
 * What an embedded control says (accname 2E): a range its aria-valuetext or aria-valuenow, a
 * listbox its selected options; null for the rest (native fields and selects are read below, a
 * textbox or combobox of other markup by its content).
 */
function embeddedValue(el: Element, tag: string, ctx: NameCtx): string | null {
  if (tag === "input" || tag === "textarea" || tag === "select") return null;
  const role = (el.getAttribute("role") ?? "").trim().toLowerCase();
  if (role === "slider" || role === "spinbutton" || role === "scrollbar") return el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow") ?? "";
  if (role === "listbox") {
    const chosen = el.querySelectorAll('[role=option][aria-selected="true"]');
    return Array.from(chosen, (o) => asciiNorm(refText(o, false, ctx, null, 1))).join(" ");
  }
  return null;
}

/**
 * Accname text of a node reached through aria-labelledby or a <label>, or of a name-from-content
 * element's subtree (simplified 2B–2G). `shown`: the node is an element known to be displayed
 * with visibility: visible (isHiddenEl).
 */
function refText(node: Node, includeHidden: boolean, ctx: NameCtx, skip: Element | null, depth = 0, viaRef = false, shown = false): string {
  fromAttr = false;
  if (node.nodeType === 3) return node.nodeValue ?? "";
  if (node.nodeType !== 1 || depth > 30) return "";
  const el = node as Element;
  if (el === skip) return "";
  const tag = el.localName;
  if (tag === "script" || tag === "style" || tag === "template") return "";
  // An SVG's <title> and <desc> name or describe it; they are never its text.
  if ((tag === "title" || tag === "desc") && el.namespaceURI === SVG_NS) return "";
  if (!includeHidden && isHiddenEl(el, ctx, shown)) return "";
  // A line break is a space between words (Chromium reads <br> and <wbr> as one).
  if (tag === "br" || tag === "wbr") return " ";
  // A descendant's own aria-labelledby is followed once (not from inside a reference: no loops).
  if (depth > 0 && !viaRef && el.hasAttribute("aria-labelledby")) {
    // Each referenced node is read as a name's root (depth 0: its own aria-label and title count).
    const t = idRefs(el, "aria-labelledby")
      .map((ref) => refText(ref, isHiddenEl(ref, ctx), ctx, null, 0, true))
      .join(" ");
    if (asciiNorm(t)) {
      fromAttr = true;
      return t;
    }
  }
  // A control embedded in the text being named gives its value, not its own label (accname 2C/2E).
  const embedded = depth > 0 && embeddedControl(el, tag);
  if (embedded) {
    const value = embeddedValue(el, tag, ctx);
    if (value !== null) {
      fromAttr = true;
      return value;
    }
  }
  const label = embedded ? null : el.getAttribute("aria-label");
  if (label && label.trim()) {
    fromAttr = true;
    return label;
  }
  if (depth > 0 && el.namespaceURI === SVG_NS) {
    // A drawing (or a part of one) inside the text: its <title> names it unless it is
    // presentational (Chromium leaves a role=presentation icon's title out); <text> is read below.
    const r = (el.getAttribute("role") ?? "").trim().toLowerCase();
    if (r === "presentation" || r === "none") return "";
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === "title" && c.namespaceURI === SVG_NS) {
        const t = c.textContent ?? "";
        fromAttr = t.trim() !== "";
        return t;
      }
    }
  }
  if (tag === "img" || tag === "area") {
    // alt="" makes an image presentational; without alt, an image is named by its title.
    const alt = el.getAttribute("alt") ?? (tag === "img" ? el.getAttribute("title") : null);
    fromAttr = alt !== null && alt.trim() !== "";
    return alt ?? "";
  }
  if (tag === "input") {
    const t = (el as HTMLInputElement).type;
    fromAttr = !NO_VALUE_INPUTS.has(t);
    return fromAttr ? (el as HTMLInputElement).value : "";
  }
  if (tag === "textarea") {
    fromAttr = true;
    return (el as HTMLTextAreaElement).value;
  }
  if (tag === "select") {
    const s = el as HTMLSelectElement;
    fromAttr = true;
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
    if (c.nodeType !== 1) {
      out += t;
      continue;
    }
    // A child that gives no text adds no space either (a display:none span between two words).
    if (!asciiNorm(t)) {
      out += t;
      continue;
    }
    const ce = c as Element;
    const apart = fromAttr || OWN_BOX.has(ce.localName) || ctx.display(ce) !== "inline";
    out += apart ? ` ${t} ` : t;
  }
  out += (after.text && !after.inline ? " " : "") + after.text;
  fromAttr = false;
  if (!asciiNorm(out)) {
    // The tooltip is the element's own name of last resort (2I), not a descendant's.
    const title = depth === 0 ? el.getAttribute("title") : null;
    if (title !== null) {
      fromAttr = title.trim() !== "";
      return title;
    }
  }
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
  // Labels of a form control, hidden ones included (read whole then), before a button input's
  // own value; read by refText whatever the library made of them, for Chromium's spacing (a
  // hidden child adds no space, a child element's inner spaces stay).
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length && !el.hasAttribute("aria-labelledby") && !(ariaLabel && ariaLabel.trim())) {
    const t = asciiNorm(Array.from(labels, (l) => refText(l, isHiddenEl(l, ctx), ctx, el)).join(" "));
    if (t) return t;
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
  const named = asciiNorm(base);
  if (el.localName === "input") {
    const type = (el as HTMLInputElement).type;
    // Chromium's words for an image button without alt, title or value, and an unlabelled file input.
    if (type === "image" && named === "Submit Query" && !el.getAttribute("value")?.trim()) return "Submit";
    if (type === "file" && !named) return "Choose File";
  }
  if (named) return named;
  // A text field nothing else names (no label, aria, title) is named by its placeholder, then
  // its aria-placeholder (HTML-AAM; Chromium does, the library does not). A <label> that is
  // there but says nothing still takes the place (Chromium gives "").
  if (placeholderField(el) && !(labels && labels.length)) {
    const t = asciiNorm(el.getAttribute("placeholder") ?? "") || asciiNorm(el.getAttribute("aria-placeholder") ?? "");
    if (t) return t;
  }
  return named;
}

/** Input types that take typed text, and so a placeholder. */
const TEXT_INPUTS = new Set(["text", "search", "email", "tel", "url", "number", "password"]);
function placeholderField(el: Element): boolean {
  const tag = el.localName;
  if (tag === "textarea") return true;
  return tag === "input" && TEXT_INPUTS.has((el as HTMLInputElement).type);
}
