// The name of a form field from its one <label>, as the correction layer computes it (html-aam:
// the label's text alternative, embedded in a label; spacing as Chromium's tree has it), without
// running the library, when the label's subtree is plain phrasing content. Navigation trees and filter lists carry hundreds of
// labelled checkboxes, and the library pays a role computation, several attribute reads and a
// pseudo-element style read per node of each label.
//
// What the name computation does on such a subtree (name-fixes.ts refText, which follows
// Chromium where the library's computeMiscTextAlternative differs), reproduced here:
//  - the field itself, met inside its own label, gives "" (already consulted);
//  - a hidden element (hidden, aria-hidden="true", display:none, visibility:hidden|collapse)
//    gives "" without its children;
//  - <br> and <wbr> give a space;
//  - an element's text is its children's text, each child element that gives some text wrapped
//    in one space on either side when its display is not `inline` (inner spaces kept: the
//    whole is trimmed and flattened once, at the end);
//  - a text node gives its data, a comment nothing.
// Anything else (roles, aria attributes, generated content, embedded controls, images, svg,
// shadow roots, slots, more than one label, big labels) returns null: the library runs.
import { asFlatString, isHiddenEl, type NameCtx } from "./name-fixes.js";
import { HTML_NS } from "./namespaces.js";

/** Tags whose library role and text alternative are those of plain text (no alt, value, labels, role). */
const PHRASING = new Set([
  "a", "abbr", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "div", "em", "font", "i",
  "ins", "kbd", "mark", "nobr", "p", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time",
  "tt", "u", "var", "wbr",
]);

/** Input types whose name the library takes from labels before anything else (not value, alt or title). */
const LABELLED_INPUTS = new Set([
  "checkbox", "radio", "text", "search", "email", "url", "tel", "password", "number", "range", "date",
  "datetime-local", "month", "week", "time", "color", "file",
]);

/** Nodes of one label walked at most; past it the library answers. */
const MAX_NODES = 64;

let budget = 0;

/** An attribute that could change the library's answer for a descendant (role, aria-*, slot, …). */
function hasNamingAttribute(el: Element): boolean {
  if (!el.hasAttributes()) return false;
  // Names as strings: `attributes` would materialise an Attr node for each (as scanAttributes).
  for (const n of el.getAttributeNames()) {
    if (n === "role" || n === "slot" || n === "contenteditable" || (n.startsWith("aria-") && n !== "aria-hidden")) return true;
  }
  return false;
}

/** The library's text of a plain element (see the header), or null when it is not plain. */
function plainText(el: Element, field: Element, ctx: NameCtx): string | null {
  if (el === field) return "";
  if (--budget < 0 || el.namespaceURI !== HTML_NS) return null;
  if (!PHRASING.has(el.localName) && el.localName !== "label") return null;
  if (el.shadowRoot || ctx.generated.has(el) || hasNamingAttribute(el)) return null;
  if (isHiddenEl(el, ctx)) return "";
  if (el.localName === "br" || el.localName === "wbr") return " ";
  let out = "";
  for (let c = el.firstChild; c; c = c.nextSibling) {
    const type = c.nodeType;
    if (type === 3) {
      if (--budget < 0) return null;
      out += (c as Text).data;
    } else if (type === 1) {
      const t = plainText(c as Element, field, ctx);
      if (t === null) return null;
      // A child that gives no text adds no space either; one in a box of its own is set apart.
      out += !ASCII_BLANK.test(t) && ctx.display(c as Element) !== "inline" ? ` ${t} ` : t;
    } else if (type !== 8) return null;
  }
  return out;
}

/** Only ASCII whitespace, or nothing (what asciiNorm() makes ""). */
const ASCII_BLANK = /^[\t\n\f\r ]*$/;

/**
 * The library's base name of `field` (its one label's text, trimmed with whitespace runs
 * collapsed), or null when the library must run. The caller has checked that nothing else
 * names the field (aria-label, aria-labelledby, role) and that it is displayed and visible.
 */
export function labelName(field: Element, labels: ArrayLike<HTMLLabelElement>, ctx: NameCtx): string | null {
  if (labels.length !== 1) return null;
  const tag = field.localName;
  if (tag === "input") {
    if (!LABELLED_INPUTS.has((field as HTMLInputElement).type)) return null;
  } else if (tag !== "select" && tag !== "textarea") return null;
  const label = labels[0];
  if (label.localName !== "label") return null;
  budget = MAX_NODES;
  // A hidden label reads "" here (plainText checks it) and so returns null: the library gives
  // "" too, and the correction layer then reads the hidden label anyway.
  const t = plainText(label, field, ctx);
  return t ? asFlatString(t) : null;
}
