// Accessible name: dom-accessibility-api's computeAccessibleName() (the W3C accname
// algorithm), the correction layer of name-fixes.ts where it departs from WPT, and fast paths
// that give the library's answer without running it where that answer is known.
import { computeAccessibleName } from "dom-accessibility-api";
import type { StyleOf } from "./style-cache.js";
import { NAME_FROM_CONTENT, asFlatString, asciiNorm, contentText, fixName, type NameCtx } from "./name-fixes.js";
import { ARIA_LABELLEDBY, ARIA_NAMING, Attr, NAMING_ATTRS, scanAttributes } from "./candidates.js";
import { LABELABLE_SELECTOR, type LabelPatch } from "./element-labels.js";
import { knownTextContent } from "./text.js";
import { HTML_NS, SVG_NS } from "./namespaces.js";
import { labelName } from "./label-names.js";

/**
 * The dom-accessibility-api version the fast paths below (and the per-tag role caches of
 * role.ts) were checked against: each one restates what that version answers. It is pinned
 * exactly in shared/package.json, and a unit test (shared/test/collector/library-version.test.ts)
 * fails when the installed version differs, so an upgrade re-checks them first.
 */
export const DOM_ACCESSIBILITY_API_CHECKED = "0.7.1";

/** Attr bits of an element, for callers that have not scanned it already. */
const attributeBits = (el: Element): number => scanAttributes(el).has;

const ASCII_WS = /[\t\n\f\r ]+/g;
/** Text that `.replace(ASCII_WS, " ")` would change: a tab/newline/form feed/CR, or two spaces. */
const NEEDS_ASCII_SQUASH = /[\t\n\f\r]| {2}/;

/** Named by something other than content, or not named at all: ARIA naming, a role attribute, hidden. */
const NOT_LABEL_ONLY = ARIA_NAMING | Attr.Role | Attr.Hidden | Attr.AriaHidden;

/** What `el.labels` gives, through the collect()'s label map when there is one. */
function ownLabels(el: Element, ctx: NameContext): ArrayLike<HTMLLabelElement> | null {
  return ctx.labels ? ctx.labels.labelsFor(el) : (el as HTMLInputElement).labels;
}

/** A <label> names the element. */
function hasLabels(el: Element, ctx: NameContext): boolean {
  const labels = ownLabels(el, ctx);
  return labels !== null && labels !== undefined && labels.length > 0;
}

/**
 * The common case, a control whose only content is text and that nothing else names, gives
 * the same name as the full algorithm for a fraction of its cost.
 */
function textOnlyName(el: Element, role: string, ctx: NameContext, has: number): string | null {
  if (!NAME_FROM_CONTENT.has(role) || el.firstElementChild || el.shadowRoot || ctx.generated.has(el)) return null;
  if (has & ARIA_NAMING) return null;
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea" || tag === "img" || tag === "slot") return null;
  if (hasLabels(el, ctx)) return null;
  // The walk has usually just read this element's text (a DOM string built per call).
  const raw = knownTextContent(el) ?? el.textContent ?? "";
  // Replacing is costlier than testing, and most labels have no whitespace to collapse.
  const t = (NEEDS_ASCII_SQUASH.test(raw) ? raw.replace(ASCII_WS, " ") : raw).trim();
  return t || null;
}

/**
 * A name-from-content role that nothing else names: no aria-label, no aria-labelledby in either
 * spelling, no <label>. For it fixName() returns the content text of its own traversal
 * (contentText: block separators, hidden children, img alt, generated content, descendants'
 * own labels) whenever that is not empty, whatever the library computed, so the library only
 * runs when the content gives nothing (a title, an svg <title>, …). The content text is read
 * first; "" when it is empty but the element qualified (the caller tells fixName() not to read
 * it again), null when the element does not qualify.
 */
function contentName(el: Element, role: string, ctx: NameContext, rendered: boolean, has: number): string | null {
  if (!NAME_FROM_CONTENT.has(role) || has & ARIA_NAMING || hasLabels(el, ctx)) return null;
  return contentText(el, ctx, rendered);
}

/**
 * A field named by its one <label> and nothing else (no aria-label, aria-labelledby, role,
 * hidden or aria-hidden): the library's answer from a plain label (label-names.ts), which
 * fixName() keeps: the labels are read only when the library found nothing, and the content
 * of a checkbox or radio input is "". Null when the library must run.
 */
function fieldLabelName(el: Element, role: string, ctx: NameContext, rendered: boolean, has: number): string | null {
  if (!rendered || has & NOT_LABEL_ONLY) return null;
  const tag = el.localName;
  if (tag !== "input" && tag !== "select" && tag !== "textarea") return null;
  if (NAME_FROM_CONTENT.has(role)) {
    const type = tag === "input" ? (el as HTMLInputElement).type : "";
    if (type !== "checkbox" && type !== "radio") return null;
  }
  const labels = ownLabels(el, ctx);
  if (!labels || !labels.length) return null;
  const t = labelName(el, labels, ctx);
  return t === null ? null : asciiNorm(t);
}

/**
 * An <img> with a non-blank alt and nothing else naming it (no aria-label, aria-labelledby,
 * role, hidden or aria-hidden): the library answers with the alt (html-aam), flattened, and
 * fixName() keeps it.
 */
function imgAltName(el: Element, rendered: boolean, has: number): string | null {
  if (!rendered || !(has & Attr.Alt) || el.localName !== "img") return null;
  if (has & NOT_LABEL_ONLY) return null;
  const alt = el.getAttribute("alt");
  // The library's asFlatString(), then fixName()'s ASCII normalisation.
  const flatAlt = alt ? asFlatString(alt) : "";
  return flatAlt ? asciiNorm(flatAlt) : null;
}

/**
 * The style function handed to the library: `visibility: collapse` hides like `hidden`
 * (the library only knows the latter). Wrappers are cached per element for one collect().
 */
export function libraryStyle(style: StyleOf): StyleOf {
  const cache = new Map<Element, CSSStyleDeclaration>();
  return (el, pseudo) => {
    const cs = style(el, pseudo);
    if (pseudo) return cs;
    let w = cache.get(el);
    if (!w) {
      w = {
        getPropertyValue(p: string) {
          const v = cs.getPropertyValue(p);
          return p === "visibility" && v === "collapse" ? "hidden" : v;
        },
      } as unknown as CSSStyleDeclaration;
      cache.set(el, w);
    }
    return w;
  };
}

export interface NameContext extends NameCtx {
  /** libraryStyle(style), made once per collect(). */
  lib: StyleOf;
  /** The collect()'s label lookup; activated before the library first runs. */
  labels?: LabelPatch | null;
}

/** Elements whose host language names them (label, alt, legend, caption, figcaption, …). */
const NATIVELY_NAMED = new Set([
  "input", "select", "textarea", "button", "img", "area", "fieldset", "figure", "table", "svg", "iframe",
  "output", "meter", "progress", "details", "summary", "optgroup", "option", "a", "object", "embed", "math",
]);

/**
 * Roles that take no name from content (lists, landmarks, list items, …) and elements with
 * no naming attribute and no native naming: accname gives "", without running the algorithm.
 */
function certainlyUnnamed(el: Element, role: string, has: number): boolean {
  if (NAME_FROM_CONTENT.has(role) || role === "article" || role === "dialog" || role === "alertdialog") return false;
  if (NATIVELY_NAMED.has(el.localName)) return false;
  return !(has & NAMING_ATTRS);
}

/**
 * HTML tags for which dom-accessibility-api (DOM_ACCESSIBILITY_API_CHECKED) has no name source
 * but aria-label, aria-labelledby and title: no native text alternative, and an implicit role
 * (its getRole) that takes no name from content, does not prohibit naming (it maps none of these tags to
 * generic, paragraph, emphasis and the like) and is not `menu`, which it special-cases. These
 * reach the library often (an article to be named by its heading afterwards, a span or abbr
 * with a title), and running it costs a subtree query for the labels it might read and a walk
 * (~70 µs an article on a card-heavy page).
 */
const AUTHOR_ONLY_TAGS = new Set([
  "article", "aside", "dialog", "figure", "footer", "header", "main", "nav", "section", "search", "address", "hgroup",
  "div", "span", "p", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "pre", "abbr", "time", "small", "em", "strong",
  "b", "i", "code",
]);

/**
 * The element has no name source the library reads besides the ARIA ones and title: an
 * author-only tag, or one whose native source is missing (an <img> without alt, a <table>
 * without a <caption> child, an <svg> without a <title> child).
 */
function authorOnly(el: Element, has: number): boolean {
  const tag = el.localName;
  const ns = el.namespaceURI;
  if (ns === HTML_NS) {
    if (AUTHOR_ONLY_TAGS.has(tag)) return true;
    // With an alt, even a blank one: an empty alt makes it presentational, which the library
    // names "" whatever the title says.
    if (tag === "img") return !(has & Attr.Alt);
    if (tag === "table") return (el as HTMLTableElement).caption === null;
    return false;
  }
  if (ns === SVG_NS && tag === "svg") {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === "title" && c.namespaceURI === SVG_NS) return false;
    return true;
  }
  return false;
}

/**
 * What the library answers for an element with no name source but title (authorOnly) and no
 * aria-label, aria-labelledby (either spelling) or role attribute: its title (step 2I,
 * flattened) or "". Null when the library must run, also for an element it would call hidden
 * (2A; it answers "" then, but that path is left to it).
 */
function authorOnlyName(el: Element, ctx: NameContext, rendered: boolean, has: number): string | null {
  if (has & (ARIA_NAMING | Attr.Role) || !authorOnly(el, has)) return null;
  if (has & Attr.Hidden || (has & Attr.AriaHidden && el.getAttribute("aria-hidden") === "true")) return null;
  if (!rendered) {
    const cs = ctx.lib(el);
    if (cs.getPropertyValue("display") === "none" || cs.getPropertyValue("visibility") === "hidden") return null;
  }
  const title = has & Attr.Title ? el.getAttribute("title") : null;
  return title && title.trim() ? asFlatString(title) : "";
}

/**
 * An aria-label on an element that nothing else names first (no aria-labelledby in either
 * spelling) and that is not hidden: the library returns the label trimmed with runs of
 * whitespace collapsed (accname 2C) and fixName() keeps it, so the result is known without
 * running either. Null when the full computation is needed.
 */
function ariaLabelName(el: Element, ctx: NameContext, rendered: boolean, has: number): string | null {
  if (!(has & Attr.AriaLabel) || has & ARIA_LABELLEDBY) return null;
  // The library names nothing whose role prohibits naming (generic, none, paragraph, …); its
  // role can only be one of those through a role attribute or an <img alt="">.
  if (has & Attr.Role || el.localName === "img") return null;
  const label = el.getAttribute("aria-label");
  if (label === null) return null;
  const trimmed = label.trim();
  if (!trimmed) return null;
  // The library's hidden test (2A), through the same style function.
  if (has & Attr.Hidden || (has & Attr.AriaHidden && el.getAttribute("aria-hidden") === "true")) return null;
  if (!rendered) {
    const cs = ctx.lib(el);
    if (cs.getPropertyValue("display") === "none" || cs.getPropertyValue("visibility") === "hidden") return null;
  }
  // fixName(): the label with ASCII whitespace normalised when the library gave it verbatim,
  // else the library's flattened string (runs of any whitespace collapsed) normalised.
  const flatLabel = asFlatString(label);
  return flatLabel === trimmed ? asciiNorm(label) : asciiNorm(flatLabel);
}

/** Labelable elements in a subtree, and what leads elsewhere (aria-owns, aria-labelledby, slots). */
const LABEL_REACH = `${LABELABLE_SELECTOR}, slot, [aria-owns], [aria-labelledby]`;
/** Subtrees (el's own, the targets of references, labels met) followed at most. */
const MAX_REACH_ROOTS = 256;

/**
 * The elements an id-reference attribute of `x` points to: every token of the library's split
 * on spaces and of the split on ASCII whitespace, looked up in x's tree scope (a superset of
 * what either reads).
 */
function idTargets(x: Element, attr: string, into: Element[]): void {
  const ids = x.getAttribute(attr);
  if (ids === null) return;
  const scope = x.getRootNode() as Document | ShadowRoot;
  if (typeof scope.getElementById !== "function") return;
  for (const id of new Set([...ids.split(" "), ...ids.split(ASCII_WS)])) {
    const ref = id ? scope.getElementById(id) : null;
    if (ref) into.push(ref);
  }
}

/**
 * The labelable elements whose `labels` the library may read when it names `el`, or null when
 * that is not known (a slot, or too many subtrees): the getter is patched then. What the
 * library (dom-accessibility-api) can visit: `el`, its subtree unless its aria-labelledby
 * resolves (then only the referenced elements are read), the subtrees of what aria-labelledby
 * and aria-owns point to, and the labels of every labelable element met, each followed in
 * turn; it does not enter shadow roots. Everything met is followed (a superset).
 */
function labelReach(el: Element, labels: LabelPatch): Element[] | null {
  try {
    const out: Element[] = [];
    const met = new Set<Element>();
    const roots: Element[] = [];
    // Keeps a labelable `x` and follows its labels and references; false for a slot.
    const meet = (x: Element): boolean => {
      if (x.localName === "slot") return false;
      const own = labels.labelsFor(x);
      if (own && !met.has(x)) {
        met.add(x);
        out.push(x);
        for (let i = 0; i < own.length; i++) roots.push(own[i]);
      }
      if (x.hasAttribute("aria-labelledby")) idTargets(x, "aria-labelledby", roots);
      if (x.hasAttribute("aria-owns")) idTargets(x, "aria-owns", roots);
      return true;
    };
    if (!meet(el)) return null;
    // The library's own reading of el's aria-labelledby (step 2B): when it finds any element,
    // the name is theirs and el's subtree is not visited (el stays in `roots` when it points
    // to itself).
    const ids = el.getAttribute("aria-labelledby");
    const scope = el.getRootNode() as Document | ShadowRoot;
    const resolves =
      ids !== null && typeof scope.getElementById === "function" && ids.split(" ").some((id) => scope.getElementById(id) !== null);
    if (!resolves) roots.push(el);
    const done = new Set<Element>();
    for (let i = 0; i < roots.length; i++) {
      const r = roots[i];
      if (done.has(r)) continue;
      if (done.size >= MAX_REACH_ROOTS) return null;
      done.add(r);
      if (!meet(r)) return null;
      const found = r.querySelectorAll(LABEL_REACH);
      for (let j = 0; j < found.length; j++) if (!meet(found[j])) return null;
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * `has`: the element's Attr bits (scanAttributes), when the caller has them.
 * `rendered`: the caller knows the element is displayed with `visibility: visible` (what the
 * library's hidden test reads from styles), so those style reads are skipped.
 */
export function nameOf(el: Element, role: string, ctx: NameContext, rendered = false, has = attributeBits(el)): string {
  if (certainlyUnnamed(el, role, has)) return "";
  const fast = textOnlyName(el, role, ctx, has) ?? ariaLabelName(el, ctx, rendered, has);
  if (fast !== null) return fast;
  const content = contentName(el, role, ctx, rendered, has);
  if (content) return content;
  const labelled = content === null ? (fieldLabelName(el, role, ctx, rendered, has) ?? imgAltName(el, rendered, has)) : null;
  if (labelled) return labelled;
  // The library's answer known without running it; fixName() goes on from it as from the
  // library's (an article without a title is named by its heading).
  const fromTitle = authorOnlyName(el, ctx, rendered, has);
  if (fromTitle !== null) return fixName(el, role, fromTitle, ctx, content === "");
  // The library (and fixName()) read `labels` through the getter (element-labels.ts): the
  // labelable elements it can reach get theirs lent as own properties; the prototypes are
  // patched only when what it reaches is not known.
  let takeBack: (() => void) | null = null;
  // Once the getter is patched it answers for everyone: no subtree query, nothing to lend.
  if (ctx.labels && !ctx.labels.active) {
    const reach = labelReach(el, ctx.labels);
    if (reach === null) ctx.labels.activate();
    else if (reach.length) takeBack = ctx.labels.lend(reach);
  }
  try {
    let base = "";
    try {
      base = computeAccessibleName(el, {
        getComputedStyle: ctx.lib as unknown as typeof window.getComputedStyle,
        computedStyleSupportsPseudoElements: true,
      });
    } catch {
      base = "";
    }
    return fixName(el, role, base, ctx, content === "");
  } finally {
    takeBack?.();
  }
}
