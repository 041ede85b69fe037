// Which elements become raw elements, decided from the tag, one pass over the attributes and
// the computed style the walk already has (O(1) per element).

/** Kinds of candidate: interactive controls, or structural elements of the ranking table. */
export const enum Kind {
  None = 0,
  Interactive = 1,
  Structural = 2,
}

export const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
  "option", "textbox", "searchbox", "combobox", "spinbutton", "slider", "scrollbar", "treeitem", "gridcell",
  "listbox", "tree", "grid", "treegrid", "menubar", "tablist", "radiogroup", "toolbar", "columnheader", "rowheader",
]);

/** Roles worth reporting even though nobody clicks them (the ranking table's lower tiers and landmarks). */
export const STRUCTURAL_ROLES = new Set([
  "heading", "list", "listitem", "article", "region", "section", "navigation", "menu", "img", "image", "figure",
  "status", "alert", "alertdialog", "dialog", "banner", "contentinfo", "main", "complementary", "form", "search",
  "table", "row", "cell", "tabpanel", "group", "log", "marquee", "timer", "progressbar", "meter", "tooltip",
  "note", "definition", "term", "math", "feed", "document", "application", "separator", "caption", "blockquote",
  "code", "deletion", "insertion", "emphasis", "strong", "subscript", "superscript", "paragraph", "time",
  "rowgroup", "directory", "doc-subtitle", "graphics-document", "graphics-object", "graphics-symbol",
  "comment", "mark", "suggestion", "associationlist", "associationlistitemkey", "associationlistitemvalue",
  "sectionheader", "sectionfooter", "label", "legend", "figcaption", "emphasis",
]);

const INTERACTIVE_TAGS = new Set(["button", "select", "textarea", "summary", "iframe"]);
const STRUCTURAL_TAGS = new Set([
  "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "menu", "li", "article", "section", "nav", "img", "figure",
  "dialog", "header", "footer", "main", "aside", "form", "table", "output", "progress", "meter", "fieldset",
  "blockquote", "hr", "address", "details", "hgroup", "search", "dir", "math",
]);

/** Handler attributes that make an element clickable or keyboard-operable. */
export const HANDLER_ATTRS = new Set([
  "onclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup", "ondblclick", "ontouchstart",
  "ontouchend", "onkeydown", "onkeyup", "onkeypress", "onchange", "oninput",
]);

/** Bits of AttrScan.has: which of the attributes collect() reads the element carries. */
export const enum Attr {
  Type = 1,
  Href = 1 << 1,
  Name = 1 << 2,
  AriaChecked = 1 << 3,
  AriaDisabled = 1 << 4,
  AriaExpanded = 1 << 5,
  Placeholder = 1 << 6,
  Title = 1 << 7,
  Alt = 1 << 8,
  Id = 1 << 9,
  Class = 1 << 10,
  Autocomplete = 1 << 11,
  AriaLabel = 1 << 12,
  AriaLabelledby = 1 << 13,
  AriaLabeledby = 1 << 14,
  Role = 1 << 15,
  Hidden = 1 << 16,
  AriaHidden = 1 << 17,
}

const ATTR_BITS = new Map<string, number>([
  ["type", Attr.Type], ["href", Attr.Href], ["name", Attr.Name], ["aria-checked", Attr.AriaChecked],
  ["aria-disabled", Attr.AriaDisabled], ["aria-expanded", Attr.AriaExpanded], ["placeholder", Attr.Placeholder],
  ["title", Attr.Title], ["alt", Attr.Alt], ["id", Attr.Id], ["class", Attr.Class], ["autocomplete", Attr.Autocomplete],
  ["aria-label", Attr.AriaLabel], ["aria-labelledby", Attr.AriaLabelledby], ["aria-labeledby", Attr.AriaLabeledby],
  ["hidden", Attr.Hidden], ["aria-hidden", Attr.AriaHidden],
]);

/** aria-labelledby in either spelling (browsers accept the misspelt aria-labeledby). */
export const ARIA_LABELLEDBY = Attr.AriaLabelledby | Attr.AriaLabeledby;
/** The ARIA naming attributes: aria-label, aria-labelledby (either spelling). */
export const ARIA_NAMING = Attr.AriaLabel | ARIA_LABELLEDBY;
/** Any naming attribute: the ARIA ones or title. */
export const NAMING_ATTRS = ARIA_NAMING | Attr.Title;

export interface AttrScan {
  roleAttr: string | null;
  handler: boolean;
  tabindex: number | null;
  editable: boolean;
  /** Attr bits of the attributes present (one pass over the names: absent ones are never read). */
  has: number;
}

export function scanAttributes(el: Element): AttrScan {
  const out: AttrScan = { roleAttr: null, handler: false, tabindex: null, editable: false, has: 0 };
  // Attribute names as strings: cheaper than materialising Attr nodes for every element.
  if (el.hasAttributes()) {
    for (const n of el.getAttributeNames()) {
      const bit = ATTR_BITS.get(n);
      if (bit !== undefined) out.has |= bit;
      else if (n === "role") {
        out.has |= Attr.Role;
        out.roleAttr = (el.getAttribute(n) ?? "").trim().toLowerCase().split(/\s+/)[0] || null;
      } else if (n === "tabindex") {
        const t = parseInt(el.getAttribute(n) ?? "", 10);
        out.tabindex = Number.isNaN(t) ? null : t;
      } else if (n === "contenteditable") out.editable = el.getAttribute(n) !== "false";
      else if (n.charCodeAt(0) === 111 && n.charCodeAt(1) === 110 && HANDLER_ATTRS.has(n)) out.handler = true;
    }
  }
  // A handler assigned from script (el.onclick = fn) has no attribute.
  if (!out.handler && (el as HTMLElement).onclick) out.handler = true;
  return out;
}

export function kindOf(el: Element, tag: string, scan: AttrScan, allRoles = false): Kind {
  if (INTERACTIVE_TAGS.has(tag)) return Kind.Interactive;
  if (tag === "a") {
    if (scan.has & Attr.Href || scan.handler || scan.tabindex !== null) return Kind.Interactive;
    // An anchor without href is no link, but an ARIA role makes it the control it says (the
    // `<a role="button">` of cookie banners and script-driven buttons; Chromium's tree has it).
    const r = scan.roleAttr;
    return r !== null && INTERACTIVE_ROLES.has(r) ? Kind.Interactive : Kind.None;
  }
  if (tag === "input") return (el as HTMLInputElement).type === "hidden" ? Kind.None : Kind.Interactive;
  if (tag === "option") {
    const sel = el.closest("select");
    return sel && (sel.multiple || sel.size > 1) ? Kind.Interactive : Kind.None;
  }
  if ((tag === "video" || tag === "audio") && el.hasAttribute("controls")) return Kind.Interactive;
  if (scan.handler || scan.editable) return Kind.Interactive;
  if (scan.tabindex !== null && scan.tabindex >= 0) return Kind.Interactive;
  const r = scan.roleAttr;
  if (r && r !== "none" && r !== "presentation" && r !== "generic") {
    return INTERACTIVE_ROLES.has(r) ? Kind.Interactive : Kind.Structural;
  }
  if (STRUCTURAL_TAGS.has(tag)) return Kind.Structural;
  // Named elements (labelled icons, tooltips) carry words an agent can use.
  if (scan.has & NAMING_ATTRS) return Kind.Structural;
  if (allRoles && SEMANTIC_TAGS.has(tag)) return Kind.Structural;
  return Kind.None;
}

/** Tags with a semantic role reported only with collect({ allRoles: true }) (accessibility audits). */
const SEMANTIC_TAGS = new Set([
  "p", "em", "strong", "code", "del", "ins", "s", "mark", "sub", "sup", "time", "dfn", "dt", "dd", "dl", "thead",
  "tbody", "tfoot", "tr", "th", "td", "caption", "figcaption", "legend", "optgroup", "option", "area", "abbr",
  "cite", "kbd", "label", "span", "div",
]);

/** Container elements that define a `group_key` bucket for their descendants. */
export const GROUP_TAGS = new Set(["ul", "ol", "menu", "table", "nav", "form", "fieldset", "section", "main", "aside", "dl", "dialog"]);
export const GROUP_ROLES = new Set([
  "list", "listbox", "grid", "menu", "menubar", "tablist", "radiogroup", "toolbar", "tree", "table", "navigation",
  "group", "rowgroup", "dialog", "form", "region", "main", "tabpanel", "treegrid", "feed",
]);
/** Containers whose items run horizontally as often as vertically: no x column in the key. */
export const SEQUENCE_TAGS = new Set(["ul", "ol", "menu", "nav", "dl"]);
export const SEQUENCE_ROLES = new Set(["list", "listbox", "menu", "menubar", "tablist", "toolbar", "navigation", "radiogroup", "tree", "feed"]);
