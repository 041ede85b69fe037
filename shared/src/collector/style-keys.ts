// Which elements a style rule could give a `cursor` or `position`: the walk reads both for
// every element (the first computed-style read of an element costs about a µs, the second a
// third of that), yet on most pages few rules set them. An element that no rule can reach keeps
// `position: static` (its initial value) and inherits its parent's cursor, so neither is read.
// The same for visibility, opacity and content-visibility (a second key set): an element none
// of them is set on is visible when its parent is and it has a box, without checkVisibility()
// (which costs several µs: it updates display locks and walks the ancestors).
//
// A rule reaches an element only if the element carries the id, a class or the tag of the
// rule's rightmost compound selector (a necessary condition, like the browser's own rule
// buckets): those keys are collected from every rule that declares either property (`all`
// included: it sets them too). Anything that cannot be keyed that way (a compound without id,
// class or tag, nesting, an unreadable sheet, ::part / ::slotted, a fullscreen element) makes
// every element read, as before. Inline styles that set them, popovers, shadow hosts, non-HTML
// elements, tags the UA sheet styles, and animation targets are read too (settle()); so are the children
// of shadow hosts and of elements with a UA shadow tree, whose flat-tree parent is a slot (the
// walk's callers pass no parent cursor for them).
import { Attr } from "./candidates.js";

/** Keys of the rules that set cursor or position (collected per collect(), over every tree scope). */
export interface StyleKeys {
  /** Some rule could not be keyed: settle nothing. */
  all: boolean;
  tags: Set<string>;
  ids: Set<string>;
  classes: Set<string>;
  /** Attribute names of compounds keyed by an attribute alone (`[role=button]`). */
  attrs: Set<string>;
  /** Elements an animation or transition runs on. */
  elements: Set<Element>;
  /** A quirks-mode document was scanned: ids and classes match ASCII case-insensitively. */
  foldCase: boolean;
}

/** `elements`: the animation targets, shared between key sets. */
export function emptyStyleKeys(elements: Set<Element> = new Set()): StyleKeys {
  return { all: false, tags: new Set(), ids: new Set(), classes: new Set(), attrs: new Set(), elements, foldCase: false };
}

/** A quirks-mode document: ids and classes match case-insensitively from now on (keys so far folded too). */
export function foldCase(keys: StyleKeys): void {
  if (keys.foldCase) return;
  keys.foldCase = true;
  keys.ids = new Set([...keys.ids].map((s) => s.toLowerCase()));
  keys.classes = new Set([...keys.classes].map((s) => s.toLowerCase()));
}

/**
 * Elements that animations or transitions of a tree scope run on (any property: not worth
 * telling apart), into the set the key sets share.
 */
export function addAnimationTargets(root: Document | ShadowRoot, ...sets: StyleKeys[]): void {
  let anims: Animation[];
  try {
    anims = typeof root.getAnimations === "function" ? root.getAnimations() : [];
  } catch {
    for (const k of sets) k.all = true;
    return;
  }
  for (const a of anims) {
    const target = (a.effect as KeyframeEffect | null)?.target;
    if (target) for (const k of sets) k.elements.add(target);
  }
}

/** Past this many attribute keys, the per-element hasAttribute() tests cost more than reading. */
const MAX_ATTR_KEYS = 6;

/**
 * Pseudo-elements that are not elements: a rule ending in one styles no element's own cursor
 * or position. (::slotted and ::part style real elements in another tree: not keyable.)
 */
const NOT_ELEMENTS = new Set([
  "before", "after", "marker", "placeholder", "selection", "first-line", "first-letter", "backdrop",
  "file-selector-button", "target-text", "spelling-error", "grammar-error", "highlight", "cue", "cue-region",
  "search-text", "checkmark", "picker-icon", "scroll-marker", "scroll-marker-group", "scroll-button", "column",
  "view-transition", "view-transition-group", "view-transition-image-pair", "view-transition-old", "view-transition-new",
  "details-content", "picker",
]);
/** The legacy one-colon spellings of pseudo-elements. */
const LEGACY_PSEUDO_ELEMENTS = new Set(["before", "after", "first-line", "first-letter"]);

const enum Key {
  /** Keyed: added to the sets. */
  Done,
  /** Styles no element (a pseudo-element): nothing to add. */
  None,
  /** Cannot be keyed. */
  Unkeyable,
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
/** A character that can continue a CSS identifier (escapes are handled apart). */
const isNameChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c >= 128;

/** Index just past the escape starting with the backslash at `i`. */
function skipEscape(s: string, i: number): number {
  let j = i + 1;
  if (j < s.length && isHex(s.charCodeAt(j))) {
    const end = Math.min(s.length, j + 6);
    while (j < end && isHex(s.charCodeAt(j))) j++;
    if (j < s.length && isSpace(s.charCodeAt(j))) j++;
    return j;
  }
  return Math.min(s.length, j + 1);
}

/** Reads the identifier at `i`: [its unescaped text, index after it]. */
function readIdent(s: string, i: number): [string, number] {
  let out = "";
  let j = i;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === 92) {
      const end = skipEscape(s, j);
      const body = s.slice(j + 1, end);
      const hex = body.trim();
      if (hex && isHex(hex.charCodeAt(0))) {
        const cp = parseInt(hex, 16);
        out += cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? "\ufffd" : String.fromCodePoint(cp);
      } else out += body;
      j = end;
    } else if (isNameChar(c)) {
      out += s[j];
      j++;
    } else break;
  }
  return [out, j];
}

/** Index just past the bracketed or parenthesised group opening at `i` (quotes and escapes respected). */
function skipGroup(s: string, i: number): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) j = skipEscape(s, j) - 1;
    else if (c === 34 || c === 39) {
      const q = c;
      for (j++; j < s.length && s.charCodeAt(j) !== q; j++) if (s.charCodeAt(j) === 92) j++;
    } else if (c === 40 || c === 91) depth++;
    else if (c === 41 || c === 93) {
      if (--depth === 0) return j + 1;
    }
  }
  return s.length;
}

/** The complex selectors of a selector list (split at top-level commas). */
function splitList(s: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) j = skipEscape(s, j) - 1;
    else if (c === 40 || c === 91 || c === 34 || c === 39) j = (c === 34 || c === 39 ? skipQuoted(s, j) : skipGroup(s, j)) - 1;
    else if (c === 44) {
      parts.push(s.slice(start, j));
      start = j + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function skipQuoted(s: string, i: number): number {
  const q = s.charCodeAt(i);
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) j++;
    else if (c === q) return j + 1;
  }
  return s.length;
}

/** The rightmost compound of a complex selector (after its last top-level combinator). */
function lastCompound(s: string): string {
  let start = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) j = skipEscape(s, j) - 1;
    else if (c === 40 || c === 91) j = skipGroup(s, j) - 1;
    else if (c === 34 || c === 39) j = skipQuoted(s, j) - 1;
    else if (isSpace(c) || c === 62 || c === 43 || c === 126) start = j + 1;
  }
  return s.slice(start);
}

/** Adds the key of one compound selector. */
function keyCompound(comp: string, keys: StyleKeys): Key {
  let tag = "";
  let id = "";
  let cls = "";
  let attr = "";
  let j = 0;
  const n = comp.length;
  if (n === 0) return Key.Unkeyable;
  const c0 = comp.charCodeAt(0);
  if (c0 === 92 || (isNameChar(c0) && !(c0 >= 48 && c0 <= 57))) {
    [tag, j] = readIdent(comp, 0);
    if (comp.charCodeAt(j) === 124) return Key.Unkeyable; // a namespace prefix
  } else if (c0 === 42) {
    j = 1;
    if (comp.charCodeAt(j) === 124) return Key.Unkeyable;
  } else if (c0 === 124) return Key.Unkeyable;
  while (j < n) {
    const c = comp.charCodeAt(j);
    if (c === 46 || c === 35) {
      const [name, end] = readIdent(comp, j + 1);
      if (!name) return Key.Unkeyable;
      if (c === 46) cls = name;
      else id = name;
      j = end;
    } else if (c === 91) {
      const end = skipGroup(comp, j);
      if (!attr) {
        const m = /^\[\s*(?:[-\w]*\|)?([-\w]+)/.exec(comp.slice(j, end));
        if (m && !m[0].includes("|")) attr = m[1].toLowerCase();
      }
      j = end;
    } else if (c === 58) {
      const element = comp.charCodeAt(j + 1) === 58;
      const [name, end] = readIdent(comp, j + (element ? 2 : 1));
      const lower = name.toLowerCase();
      if (element || LEGACY_PSEUDO_ELEMENTS.has(lower)) {
        // A rule for a pseudo-element styles that pseudo-element only.
        return NOT_ELEMENTS.has(lower) || lower.startsWith("-webkit-") || lower.startsWith("-internal-") ? Key.None : Key.Unkeyable;
      }
      // :host / :host-context style the shadow host, which the walk always reads.
      if (lower === "host" || lower === "host-context") return Key.None;
      j = comp.charCodeAt(end) === 40 ? skipGroup(comp, end) : end;
    } else return Key.Unkeyable; // `&`, a stray character: not worth understanding
  }
  if (id) keys.ids.add(keys.foldCase ? id.toLowerCase() : id);
  else if (cls) keys.classes.add(keys.foldCase ? cls.toLowerCase() : cls);
  else if (tag) keys.tags.add(tag.toLowerCase());
  else if (attr && keys.attrs.size < MAX_ATTR_KEYS) keys.attrs.add(attr);
  else return Key.Unkeyable;
  return Key.Done;
}

/** Adds the keys of a rule's selector text (undefined for rules without one: not keyable). */
export function addSelectorKeys(selectorText: string | undefined, keys: StyleKeys): void {
  if (keys.all) return;
  if (!selectorText) {
    keys.all = true;
    return;
  }
  for (const complex of splitList(selectorText)) {
    if (keyCompound(lastCompound(complex.trim()), keys) === Key.Unkeyable) {
      keys.all = true;
      return;
    }
  }
}

/**
 * Tags no UA rule gives a cursor or a position, nor a visibility, opacity or content-visibility
 * other than the initial one (Chromium's html.css; the popover and hidden attributes aside).
 */
const UA_FREE = new Set(
  (
    "abbr acronym address article aside b bdi bdo big blockquote body br canvas caption center cite code col colgroup " +
    "data dd del dfn dir div dl dt em figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hgroup hr i ins kbd " +
    "li main mark menu nav nobr ol p picture pre q rb rp rt rtc ruby s samp search section small span strike strong " +
    "sub sup table tbody td tfoot th thead time tr tt u ul var wbr"
  ).split(" "),
);
/**
 * Tags whose UA cursor depends on state (links, editable and disabled controls): cursor read,
 * position settled, and visibility settled but for <select> (disabled: opacity 0.7).
 */
const UA_CURSOR = new Set(["a", "area", "button", "input", "label", "select", "textarea", "option", "optgroup"]);

/** Bits of settle(): what of an element's styles follows without reading them. */
export const enum Settle {
  /** position is static. */
  Position = 1,
  /** The cursor is the parent's (implies Position). */
  Cursor = 2,
  /**
   * Visibility, opacity and content-visibility are not set on it: visibility is the parent's,
   * opacity 1, content-visibility visible.
   */
  Visibility = 4,
}

const HTML_NS = "http://www.w3.org/1999/xhtml";
const CLASS_SPLIT = /[\t\n\f\r ]+/;

/** Tags with a UA shadow tree (or fallback content): their children's flat-tree parent is not the tag. */
export const UA_HOSTS = new Set([
  "details", "summary", "select", "datalist", "option", "optgroup", "video", "audio", "meter", "progress", "input",
  "textarea", "marquee", "object", "embed", "iframe", "frame", "img", "canvas", "fieldset", "legend", "button",
]);

/** A rule keyed in `keys` may reach the element (`classes`: its class tokens, folded as `keys` needs them). */
function reached(el: Element, tag: string, has: number, classes: string[] | null, keys: StyleKeys): boolean {
  if (keys.all || keys.tags.has(tag)) return true;
  if (has & Attr.Id && keys.ids.size !== 0) {
    const id = el.id;
    if (keys.ids.has(keys.foldCase ? id.toLowerCase() : id)) return true;
  }
  if (classes !== null && keys.classes.size !== 0) for (const c of classes) if (c && keys.classes.has(c)) return true;
  if (keys.attrs.size !== 0) for (const a of keys.attrs) if (el.hasAttribute(a)) return true;
  return keys.elements.size !== 0 && keys.elements.has(el);
}

/**
 * Settle bits for an element. `has`: its Attr bits; `host`: it hosts a shadow root (whose
 * :host rules the walk has not read yet). `cursorKeys`: rules setting cursor or position;
 * `visKeys`: rules setting visibility, opacity or content-visibility.
 */
export function settle(el: Element, tag: string, has: number, host: boolean, cursorKeys: StyleKeys, visKeys: StyleKeys): number {
  if ((cursorKeys.all && visKeys.all) || host || has & Attr.Popover) return 0;
  let bits = UA_FREE.has(tag)
    ? Settle.Position | Settle.Cursor | Settle.Visibility
    : UA_CURSOR.has(tag)
      ? tag === "select" ? Settle.Position : Settle.Position | Settle.Visibility
      : 0;
  if (bits === 0 || el.namespaceURI !== HTML_NS) return 0;
  if (has & Attr.Style) {
    // The inline declarations as written (no style computed): only what they set counts.
    const inline = (el as HTMLElement).style as CSSStyleDeclaration | undefined;
    if (!inline) return 0;
    if (inline.cursor || inline.position) bits &= ~(Settle.Position | Settle.Cursor);
    if (inline.opacity || inline.visibility || inline.contentVisibility) bits &= ~Settle.Visibility;
    if (bits === 0) return 0;
  }
  // hidden="until-found" is content-visibility: hidden.
  if (has & Attr.Hidden) bits &= ~Settle.Visibility;
  let classes: string[] | null = null;
  if (has & Attr.Class && ((!cursorKeys.all && cursorKeys.classes.size !== 0) || (!visKeys.all && visKeys.classes.size !== 0))) {
    const cls = el.getAttribute("class") ?? "";
    // Both key sets fold alike (foldCase() is applied to both).
    classes = (cursorKeys.foldCase ? cls.toLowerCase() : cls).split(CLASS_SPLIT);
  }
  if (reached(el, tag, has, classes, cursorKeys)) bits &= ~(Settle.Position | Settle.Cursor);
  if (bits & Settle.Visibility && reached(el, tag, has, classes, visKeys)) bits &= ~Settle.Visibility;
  return bits;
}
