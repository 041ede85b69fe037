// Role derivation (explicit ARIA role, tag, input type) and the role tiers of spec 2.5.
// Tables are built once at module load; per element the work is a few Map lookups.
import type { Attrs } from "./fields.js";
import { boolOf, str, toNumber } from "./text.js";

/** Every role name WAI-ARIA 1.2 / Graphics ARIA define (abstract roles excluded), plus "generic". */
const ARIA_ROLES = new Set(
  (
    "alert alertdialog application article banner blockquote button caption cell checkbox code " +
    "columnheader combobox comment complementary contentinfo definition deletion dialog directory " +
    "document emphasis feed figure form generic grid gridcell group heading img image insertion link " +
    "list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox " +
    "menuitemradio meter navigation none note option paragraph presentation progressbar radio " +
    "radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider " +
    "spinbutton status strong subscript suggestion superscript switch tab table tablist tabpanel " +
    "term textbox time timer toolbar tooltip tree treegrid treeitem " +
    "sectionheader sectionfooter label legend associationlist associationlistitemkey associationlistitemvalue"
  ).split(" "),
);
/** DPUB-ARIA and Graphics-ARIA families: accepted by prefix rather than listed one by one. */
const ROLE_PREFIX = /^(doc|graphics)-[a-z]+$/;
const isRole = (t: string) => ARIA_ROLES.has(t) || ROLE_PREFIX.test(t);

/** Implicit roles of HTML tags (HTML-AAM, simplified to what an agent needs). */
const TAG_ROLES: Record<string, string> = {
  a: "link", // only with href; see deriveRole
  area: "link",
  button: "button",
  summary: "button",
  textarea: "textbox",
  select: "combobox",
  option: "option",
  optgroup: "group",
  datalist: "listbox",
  h1: "heading", h2: "heading", h3: "heading", h4: "heading", h5: "heading", h6: "heading",
  ul: "list", ol: "list", menu: "list", dl: "list",
  li: "listitem", dt: "term", dd: "definition",
  img: "img", svg: "img", picture: "img",
  figure: "figure", figcaption: "caption",
  dialog: "dialog",
  nav: "navigation", main: "main", header: "banner", footer: "contentinfo", aside: "complementary",
  article: "article", section: "region", form: "form", search: "search",
  table: "table", thead: "rowgroup", tbody: "rowgroup", tfoot: "rowgroup", tr: "row",
  td: "cell", th: "columnheader", caption: "caption",
  p: "paragraph", blockquote: "blockquote", hr: "separator", fieldset: "group", details: "group",
  progress: "progressbar", meter: "meter", output: "status",
  iframe: "iframe", frame: "iframe",
  code: "code", em: "emphasis", strong: "strong", del: "deletion", ins: "insertion",
  mark: "mark", time: "time", sub: "subscript", sup: "superscript", math: "math",
};

/** Roles of `<input type=…>`. Unknown/absent types are text fields, like browsers do. */
const INPUT_ROLES: Record<string, string> = {
  text: "textbox", email: "textbox", password: "textbox", tel: "textbox", url: "textbox",
  date: "textbox", "datetime-local": "textbox", month: "textbox", week: "textbox", time: "textbox",
  search: "searchbox",
  number: "spinbutton",
  range: "slider",
  checkbox: "checkbox",
  radio: "radio",
  submit: "button", button: "button", reset: "button", image: "button", file: "button", color: "button",
  hidden: "none",
};

/** SVG shape tags: candidates only when clickable (cursor, handler). */
const SVG_SHAPES = new Set([
  "circle", "rect", "path", "polygon", "polyline", "ellipse", "line", "g", "use", "text", "tspan", "image",
]);

/** Tags that are rendered pictures rather than text or controls (requires_vision). */
export const VISUAL_TAGS = new Set(["canvas", "img", "svg", "picture", "video", "object", "embed"]);

/** Tier points of spec 2.5. Unlisted roles score like the informational tier (0). */
export const TIER_HIGH = 1000;
export const TIER_MEDIUM = 500;
export const TIER_LOW = 100;
const TIER_POINTS = new Map<string, number>();
for (const r of ["textbox", "input", "searchbox", "combobox", "spinbutton", "slider"]) TIER_POINTS.set(r, TIER_HIGH);
for (const r of ["button", "submit", "link", "checkbox", "radio", "switch", "tab", "menuitem",
  "menuitemcheckbox", "menuitemradio", "option", "treeitem"]) TIER_POINTS.set(r, TIER_MEDIUM);
for (const r of ["heading", "list", "listitem", "article", "section", "region", "navigation", "menu",
  "menubar", "tablist", "listbox", "tree", "grid", "form", "search"]) TIER_POINTS.set(r, TIER_LOW);

export function tierPoints(role: string): number {
  return TIER_POINTS.get(role) ?? 0;
}

/** Roles an agent operates (click, type, toggle): counted as interactive. */
export const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
  "option", "treeitem", "textbox", "searchbox", "combobox", "spinbutton", "slider", "listbox", "gridcell",
]);

/** Roles an agent clicks (is_clickable by role); form fields too, since focusing is a click. */
const CLICKABLE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio",
  "option", "treeitem", "combobox", "gridcell", "textbox", "searchbox", "spinbutton", "slider", "listbox",
]);

/** Roles with a checked state (checked defaults to false when nothing is sent). */
export const CHECKABLE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);

/** Explicit roles that carry no semantics: a flagged-clickable element with one becomes a button. */
const EMPTY_ROLES = new Set(["generic", "none", "presentation"]);

/** Implicit (tag) roles that carry little: a clickable element with one of these becomes a button. */
const WEAK_ROLES = new Set(["generic", "none", "presentation", "group", "img", "image", "graphics-symbol",
  "graphics-object", "paragraph", "strong", "emphasis", "listitem", "cell", "time", "mark", "code"]);

export interface RoleInfo {
  role: string;
  tag: string;
  /** Clickable by role, cursor:pointer, href or a click-handler flag. */
  clickable: boolean;
  /** Interactive (operable) control: counted in interactive_count. */
  interactive: boolean;
  /** Lower-cased input type (input: default "text"; button: its explicit type), else null. */
  inputType: string | null;
}

/** First valid token of an ARIA role attribute ("switch checkbox" → "switch"), lower-cased. */
export function explicitRole(value: string | null): string | null {
  if (!value) return null;
  const s = value.trim().toLowerCase();
  if (s === "") return null;
  if (isRole(s)) return s;
  for (const tok of s.split(/\s+/)) if (isRole(tok)) return tok;
  return null;
}

/**
 * The element's role and clickability.
 * - An explicit role (`attributes.role`, the page's or the collector's computed one) wins,
 *   normalised to its first valid token; "none"/"presentation" on a focusable control is
 *   ignored (ARIA conflict resolution).
 * - Otherwise the tag and input type decide (table above); `<a>` without href is generic.
 * - A clickable element without a meaningful role (a coloured div, an SVG shape with
 *   cursor:pointer or a click handler) becomes "button", so goal ranking can find it. When the
 *   collector sent a computed role, only generic/none/presentation are promoted, and only on a
 *   click flag (`has_click_handler`, `is_clickable`, `onclick`...): a cursor alone may be
 *   inherited, and the collector flags the cursors it judged the element's own.
 */
export function deriveRole(tag: string, a: Attrs, flag: boolean, cursorPointer: boolean, inheritedCursor: boolean): RoleInfo {
  const href = str(a.href);
  let inputType: string | null = null;
  if (tag === "input") inputType = (str(a.input_type) ?? str(a.type_) ?? "text").trim().toLowerCase() || "text";
  else if (tag === "button") {
    // Only an explicit type: most buttons without one are not the form's main action.
    const t = str(a.type_) ?? str(a.input_type);
    if (t) inputType = t.trim().toLowerCase();
  } else {
    const t = str(a.input_type);
    if (t) inputType = t.trim().toLowerCase();
  }

  let implicit: string;
  if (tag === "input") implicit = Object.hasOwn(INPUT_ROLES, inputType ?? "text") ? INPUT_ROLES[inputType ?? "text"] : "textbox";
  else if (tag === "a" || tag === "area") implicit = href !== null ? "link" : "generic";
  else if (tag === "img" && a.alt === "") implicit = "none";
  else if (tag === "select" && (boolOf(a.multiple) === true || (toNumber(a.size) ?? 0) > 1)) implicit = "listbox";
  else implicit = Object.hasOwn(TAG_ROLES, tag) ? TAG_ROLES[tag] : "generic";
  if (tag === "input" && implicit === "textbox" && a.list != null && a.list !== "") implicit = "combobox";

  const nativeControl = tag === "input" || tag === "button" || tag === "select" || tag === "textarea" ||
    (tag === "a" && href !== null);
  const explicit = explicitRole(str(a.role));
  let role = explicit;
  if (role === "presentation" || role === "none") {
    if (nativeControl || (toNumber(a.tabindex) ?? -1) >= 0) role = implicit;
  }
  if (role === null) role = implicit;
  if (role === "image") role = "img";
  // A form control is never generic in Chromium's tree: a collector that computed "generic" for
  // an input its library gives no role (a file input, listed as generic[file]) is overruled by
  // the input type (a file input is a button, named by its label).
  if (role === "generic" && tag === "input" && inputType !== "hidden") role = implicit;

  const clickableByRole = CLICKABLE_ROLES.has(role) || (tag === "input" && inputType !== "hidden" && CLICKABLE_ROLES.has(implicit));
  const clickable = clickableByRole || href !== null || flag || cursorPointer;

  // Promote only when the page itself signals the click (handler flag, own cursor, tabindex),
  // not when the pointer cursor was merely inherited from a clickable ancestor.
  if (!clickableByRole) {
    const ownSignal = flag || (cursorPointer && !inheritedCursor) || (toNumber(a.tabindex) ?? -1) >= 0;
    const promote = SVG_SHAPES.has(tag)
      ? ownSignal
      : explicit !== null
        ? flag && EMPTY_ROLES.has(role)
        : ownSignal && WEAK_ROLES.has(role);
    if (promote) role = "button";
  }

  const interactive = INTERACTIVE_ROLES.has(role) || flag || (nativeControl && role !== "none");
  return { role, tag, clickable: clickable && role !== "none", interactive, inputType };
}
