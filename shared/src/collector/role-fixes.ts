// Corrections to dom-accessibility-api's getRole() where it departs from the html-aam /
// wai-aria / core-aam rules that WPT checks (and Chromium mostly follows):
//  - the role attribute is a token list: the first VALID role wins, case-insensitively;
//  - none/presentation are ignored on focusable elements or ones with global ARIA attributes;
//  - roles that need a name (region, form) or a context (listitem, cell, row, menuitem,
//    treeitem, …) fall back when they lack it;
//  - sectioning-scoped header/footer/aside are not landmarks; synonyms map to one role.

const ARIA_ROLES = new Set(
  (
    "alert alertdialog application article banner blockquote button caption cell checkbox code columnheader " +
    "combobox comment complementary contentinfo definition deletion dialog directory document emphasis feed " +
    "figure form generic grid gridcell group heading image img insertion link list listbox listitem log main " +
    "mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option " +
    "paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search " +
    "searchbox sectionfooter sectionheader separator slider spinbutton status strong subscript suggestion " +
    "superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid " +
    "treeitem graphics-document graphics-object graphics-symbol doc-abstract doc-acknowledgments doc-afterword " +
    "doc-appendix doc-backlink doc-biblioentry doc-bibliography doc-biblioref doc-chapter doc-colophon " +
    "doc-conclusion doc-cover doc-credit doc-credits doc-dedication doc-endnote doc-endnotes doc-epigraph " +
    "doc-epilogue doc-errata doc-example doc-footnote doc-foreword doc-glossary doc-glossref doc-index " +
    "doc-introduction doc-noteref doc-notice doc-pagebreak doc-pagelist doc-part doc-preface doc-prologue " +
    "doc-pullquote doc-qna doc-subtitle doc-tip doc-toc"
  ).split(" "),
);

/** Implicit roles the library leaves out or gets wrong (html-aam). */
const TAG_ROLES: Record<string, string> = {
  address: "group", blockquote: "blockquote", code: "code", dd: "definition", del: "deletion", dfn: "term",
  dt: "term", em: "emphasis", hgroup: "group", hr: "separator", ins: "insertion", mark: "mark", p: "paragraph",
  s: "deletion", search: "search", strong: "strong", sub: "subscript", sup: "superscript", time: "time",
  meter: "meter", details: "group", caption: "caption", dir: "list", figcaption: "caption", math: "math",
  b: "generic", i: "generic", u: "generic", span: "generic", div: "generic", cite: "generic", abbr: "generic",
  kbd: "generic", samp: "generic", small: "generic", var: "generic", q: "generic", bdi: "generic", bdo: "generic",
  data: "generic",
};

/** Global ARIA attributes: their presence makes role="none" a conflict that is ignored. */
const GLOBAL_ARIA = [
  "aria-label", "aria-labelledby", "aria-describedby", "aria-details", "aria-controls", "aria-owns",
  "aria-live", "aria-keyshortcuts", "aria-roledescription", "aria-flowto", "aria-haspopup",
];

/** Roles that need a required context (an ancestor with one of these roles), else generic/implicit. */
const REQUIRED_CONTEXT: Record<string, string[]> = {
  listitem: ["list", "directory"],
  cell: ["row", "table", "grid", "treegrid", "rowgroup"],
  gridcell: ["row", "grid", "treegrid", "rowgroup"],
  columnheader: ["row", "table", "grid", "treegrid", "rowgroup"],
  rowheader: ["row", "table", "grid", "treegrid", "rowgroup"],
  row: ["table", "grid", "treegrid", "rowgroup"],
  rowgroup: ["table", "grid", "treegrid"],
  menuitem: ["menu", "menubar", "group"],
  menuitemcheckbox: ["menu", "menubar", "group"],
  menuitemradio: ["menu", "menubar", "group"],
  treeitem: ["tree", "group"],
  tab: ["tablist"],
  option: ["listbox", "group", "combobox"],
};

function composedParent(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const p = n.parentNode;
  return p && (p as ShadowRoot).host ? (p as ShadowRoot).host : null;
}

/** First valid token of a role attribute, lower-cased; null when none is valid. */
export function validRoleToken(value: string | null): string | null {
  if (!value) return null;
  for (const tok of value.trim().toLowerCase().split(/[\t\n\f\r ]+/)) if (ARIA_ROLES.has(tok)) return tok;
  return null;
}

function hasGlobalAria(el: Element): boolean {
  for (const a of GLOBAL_ARIA) if (el.hasAttribute(a)) return true;
  return false;
}

function isFocusable(el: Element): boolean {
  if (el.hasAttribute("tabindex")) return true;
  const tag = el.localName;
  if ((tag === "input" || tag === "button" || tag === "select" || tag === "textarea") && !(el as HTMLInputElement).disabled) return true;
  if ((tag === "a" || tag === "area") && el.hasAttribute("href")) return true;
  return el.hasAttribute("contenteditable") && el.getAttribute("contenteditable") !== "false";
}

function hasName(el: Element): boolean {
  const label = el.getAttribute("aria-label");
  if (label && label.trim()) return true;
  const ids = el.getAttribute("aria-labelledby");
  if (ids) {
    const root = el.getRootNode() as Document | ShadowRoot;
    for (const id of ids.trim().split(/\s+/)) {
      const ref = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
      if (ref && (ref.textContent ?? "").trim()) return true;
    }
  }
  const title = el.getAttribute("title");
  return !!(title && title.trim());
}

/**
 * Tags without a role attribute whose role fixRole() decides from more than the tag and the
 * library's implicit role: their place (header, footer, aside), their name (aside, section,
 * form), their parent (summary) or attributes (input switch).
 */
const PLACE_OR_NAME_TAGS = new Set(["header", "footer", "aside", "section", "form", "summary", "input"]);

/**
 * fixRole() of an element without a role attribute depends only on its tag and the library's
 * implicit role when the tag is none of the above and the role needs no context: a required
 * context can only keep its role (then it is in REQUIRED_CONTEXT) or make it "generic".
 */
export function roleFromTagAlone(tag: string, role: string): boolean {
  return role !== "generic" && !REQUIRED_CONTEXT[role] && !PLACE_OR_NAME_TAGS.has(tag);
}

/**
 * Input types the library gives no role that Chromium's tree makes a control of: a password
 * field is a textbox, a file input a button ("Choose File"), and date and time fields, which
 * Chromium exposes with roles of its own (no ARIA equivalent), textboxes: what one types into
 * (Playwright's aria snapshot says so too).
 */
const INPUT_ROLES: Record<string, string> = {
  password: "textbox", file: "button", date: "textbox", time: "textbox", "datetime-local": "textbox", month: "textbox", week: "textbox",
};

/** The implicit (native) role, ignoring the role attribute. */
export function implicitRole(el: Element, libRoleWithoutAttr: () => string | null): string {
  const tag = el.localName;
  if (tag === "input") {
    const type = (el as HTMLInputElement).type;
    if (el.hasAttribute("switch") && type === "checkbox") return "switch";
    const byType = INPUT_ROLES[type];
    if (byType && !el.hasAttribute("list")) return byType;
  }
  if (TAG_ROLES[tag]) return TAG_ROLES[tag];
  return libRoleWithoutAttr() ?? "generic";
}

function ancestorRoleIn(el: Element, roles: string[], roleOfAncestor: (a: Element) => string): boolean {
  for (let a = composedParent(el), i = 0; a && i < 12; a = composedParent(a), i++) {
    const r = roleOfAncestor(a);
    if (roles.includes(r)) return true;
    // Structural wrappers (generic, none) are transparent; any other role breaks the context.
    if (r !== "generic" && r !== "none" && r !== "presentation" && !(r === "group" && roles.includes("group"))) return false;
  }
  return false;
}

/** Inside sectioning content (article, aside, nav, section), or main too when `withMain`. */
function isScopedToSection(el: Element, withMain: boolean): boolean {
  for (let a = composedParent(el); a; a = composedParent(a)) {
    const t = a.localName;
    if (t === "article" || t === "aside" || t === "nav" || t === "section" || (withMain && t === "main")) return true;
    const r = a.getAttribute("role");
    if (r === "article" || r === "complementary" || r === "navigation" || r === "region" || (withMain && r === "main")) return true;
  }
  return false;
}

/**
 * `libRole(el)` is getRole() (which honours the role attribute verbatim); `libImplicit(el)` is
 * the library's role for the element without its role attribute.
 */
export function fixRole(
  el: Element,
  base: string | null,
  libImplicit: () => string | null,
  roleOfAncestor: (a: Element) => string,
  /** False when the caller knows the element has no role attribute (saves reading it). */
  mayHaveRole = true,
): string {
  const tag = el.localName;
  const attr = mayHaveRole ? el.getAttribute("role") : null;
  let role: string | null;
  if (attr !== null && attr.trim() !== "") {
    role = validRoleToken(attr);
    if ((role === "none" || role === "presentation") && (isFocusable(el) || hasGlobalAria(el))) role = null;
    if ((role === "region" || role === "form") && !hasName(el)) {
      // A region/form without a name falls back to the next valid token, else the native role.
      const rest = attr.trim().toLowerCase().split(/\s+/).filter((t) => ARIA_ROLES.has(t) && t !== role);
      role = rest[0] ?? null;
    }
    if (role === null) role = implicitRole(el, libImplicit);
  } else {
    role = tag in TAG_ROLES || tag === "input" ? implicitRole(el, libImplicit) : (base ?? "generic");
  }

  if (role === "presentation") role = "none";
  else if (role === "directory") role = "list";
  else if (role === "image") role = "img";

  // Native landmarks that depend on their place or name.
  if (attr === null || attr.trim() === "") {
    if ((tag === "header" || tag === "footer") && isScopedToSection(el, true)) role = tag === "header" ? "sectionheader" : "sectionfooter";
    else if (tag === "aside" && isScopedToSection(el, false) && !hasName(el)) role = "generic";
    else if ((tag === "section" || tag === "form") && !hasName(el)) role = "generic";
    else if (tag === "summary") {
      const p = el.parentElement;
      if (!p || p.localName !== "details" || p.querySelector(":scope > summary") !== el) role = "generic";
    }
  }

  const ctx = REQUIRED_CONTEXT[role];
  if (ctx && !ancestorRoleIn(el, ctx, roleOfAncestor)) {
    // An orphaned owned role: the native role when the role was authored, else generic.
    role = attr !== null && attr.trim() !== "" ? implicitRole(el, libImplicit) : "generic";
    if (role === "listitem" || REQUIRED_CONTEXT[role]) role = "generic";
  }
  return role;
}
