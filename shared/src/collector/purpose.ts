// What a control is for: the form (or search region, fieldset) an input, select, textarea or
// button belongs to, and the words its markup says about that purpose. Two email fields look
// the same; one is in a form under "Newsletter" whose class says newsletter-subscription, the
// other in a log-in form with a password field. Read once per form and per control:
//  - `purpose`: the form's label for people: its accessible name (aria-label, aria-labelledby,
//    title), the <legend> of the control's fieldset, the first heading inside the form, or the
//    heading just before it (the section heading: <h4>Newsletter</h4><form>); "Search" for a
//    search region. Absent when none says anything.
//  - `purpose_words`: words of that label, of the control's own and its form's id / class /
//    name / action / autocomplete (camelCase and separators split, utility and hash-like
//    tokens dropped), the kinds of the form's other fields (email, password, search) and its
//    submit button's label. Without a form, the control's own markup and its three nearest
//    ancestors' (forms submitted by script have none).
// Bounded: a few ancestor and sibling steps, one query per form; a page of a thousand buttons
// outside forms pays only their own attributes.
import { Attr } from "./candidates.js";
import { shortText } from "./text.js";

/** Without the walk's attribute scan: every attribute purposeOf reads may be there. */
const OWN_ATTRS = Attr.Id | Attr.Name | Attr.Autocomplete | Attr.Class;

export interface Purpose {
  label: string | null;
  words: string | null;
}

const LABEL_MAX = 40;
const WORDS_MAX = 14;
const HEADINGS = "h1, h2, h3, h4, h5, h6, [role=heading]";
/** Tokens of markup that say nothing of purpose: layout, utility classes, generic control words. */
const NOISE = new Set(
  (
    "form forms field fields input inputs control controls group wrapper wrap container inner outer block element " +
    "elements widget module item items row col cols column grid flex box main content section div span btn button " +
    "buttons text type label labels default primary secondary required optional active disabled hidden visible show " +
    "hide js jsx css wp wpcf ui ux lg md sm xs xl xxl mb mt ml mr pb pt pl pr px py mx my full half auto left right " +
    "center top bottom small large medium big round rounded border shadow bg color dark light white black gray grey " +
    "blue red green style styles outline placeholder focus hover is has no not the and for with of to in on at by " +
    "mobile desktop tablet header footer html php aspx asp index www http https com org net submit value name id " +
    "action method post get true false none relative absolute fixed static inline clear clearfix float icon icons " +
    "svg img image fa fas far fab material ng data react vue aria role new old alt old main"
  ).split(" "),
);
/** Field kinds worth saying about a form (what its other fields are). */
const KIND_WORDS: Record<string, string> = { email: "email", password: "password", search: "search", tel: "phone" };

/**
 * The words of one markup token string, memoised: the same class strings ("form-control",
 * "btn btn-primary") repeat on every control of a page and across collects, and the split is
 * most of what a control's purpose costs. Bounded: cleared when it holds too many strings.
 */
const WORDS_MEMO = new Map<string, readonly string[]>();
const WORDS_MEMO_MAX = 4000;
const NO_WORDS: readonly string[] = Object.freeze([]);

function wordsOfString(s: string): readonly string[] {
  let w = WORDS_MEMO.get(s);
  if (w) return w;
  const out: string[] = [];
  const spaced = s.replace(/([a-z])([A-Z])/g, "$1 $2");
  for (const raw of spaced.toLowerCase().split(/[^a-z\u00c0-\u024f]+/)) {
    if (raw.length < 3 || raw.length > 20 || NOISE.has(raw)) continue;
    // Hash-like (no vowel) or a build suffix: says nothing.
    if (!/[aeiouy\u00c0-\u024f]/.test(raw)) continue;
    if (!out.includes(raw)) out.push(raw);
  }
  w = out.length ? out : NO_WORDS;
  if (WORDS_MEMO.size >= WORDS_MEMO_MAX) WORDS_MEMO.clear();
  WORDS_MEMO.set(s, w);
  return w;
}

/** The words of a markup token string: camelCase and separators split, lower case, noise and hashes dropped. */
export function markupWords(s: string | null | undefined, into: Set<string>): void {
  if (typeof s !== "string" || !s) return;
  const w = wordsOfString(s);
  for (let i = 0; i < w.length; i++) into.add(w[i]);
}

/** Path words of a form's action (the host left out: it names the site, not the purpose). */
function actionWords(action: string | null, into: Set<string>): void {
  if (!action) return;
  const path = action.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[?#].*$/, "");
  markupWords(path, into);
}

/** A form-like container: a form, a search region, a fieldset, an ARIA form or search. */
function isContainer(el: Element): boolean {
  const tag = el.localName;
  if (tag === "form" || tag === "search" || tag === "fieldset") return true;
  const role = el.getAttribute("role");
  return role === "search" || role === "form";
}

/**
 * The form-like container of a control: its form, else the nearest ancestor-or-self that is a
 * form-like container. Each ancestor is tested once per collect() (the cache): the controls of
 * a page share most of their ancestors.
 */
export function purposeContainer(el: Element, cache: PurposeCache): Element | null {
  const form = (el as HTMLInputElement).form ?? null;
  if (form) return form;
  if (isContainer(el)) return el;
  const walked: Element[] = [];
  let found: Element | null = null;
  for (let a = el.parentElement; a; a = a.parentElement) {
    const known = cache.boxes.get(a);
    if (known !== undefined) {
      found = known;
      break;
    }
    if (isContainer(a)) {
      found = a;
      cache.boxes.set(a, a);
      break;
    }
    walked.push(a);
  }
  for (let i = 0; i < walked.length; i++) cache.boxes.set(walked[i], found);
  return found;
}

function textOf(el: Element): string {
  return shortText(el, LABEL_MAX + 20, 40);
}

/** The heading right before `el` (previous siblings, then its ancestors' up to three levels). */
function headingBefore(el: Element): Element | null {
  let node: Element | null = el;
  for (let level = 0; level < 3 && node; level++) {
    let sib = node.previousElementSibling;
    for (let steps = 0; sib && steps < 4; steps++, sib = sib.previousElementSibling) {
      if (sib.matches(HEADINGS)) return sib;
      const inner = sib.querySelectorAll(HEADINGS);
      if (inner.length) return inner[inner.length - 1];
      // A block of text between the heading and the form (an intro line) is skipped; a control is not.
      if (sib.matches("input, select, textarea, button, form")) return null;
    }
    const p: Element | null = node.parentElement;
    if (!p || p.localName === "body" || p.localName === "main") break;
    node = p;
  }
  return null;
}

/** The container's label for people, or null. */
function containerLabel(box: Element, control: Element): string | null {
  const own = box.getAttribute("aria-label") ?? box.getAttribute("title");
  if (own && own.trim()) return own.trim();
  const ids = box.getAttribute("aria-labelledby");
  if (ids) {
    const root = box.getRootNode() as Document | ShadowRoot;
    const t = ids.split(/\s+/).map((id) => (id && root.getElementById ? root.getElementById(id) : null)).filter((x): x is HTMLElement => x !== null).map(textOf).join(" ").trim();
    if (t) return t;
  }
  const fieldset = control.closest("fieldset");
  if (fieldset && box.contains(fieldset)) {
    const legend = fieldset.querySelector(":scope > legend");
    const t = legend ? textOf(legend) : "";
    if (t) return t;
  }
  const inner = box.querySelector(HEADINGS);
  if (inner) {
    const t = textOf(inner);
    if (t) return t;
  }
  const before = headingBefore(box);
  if (before) {
    const t = textOf(before);
    if (t) return t;
  }
  if (box.localName === "search" || box.getAttribute("role") === "search") return "Search";
  return null;
}

/** The submit button's label of a form (its first submit control), or "". */
function submitLabel(form: Element): string {
  const b = form.querySelector("button:not([type=button]):not([type=reset]), input[type=submit], input[type=image]");
  if (!b) return "";
  if (b.localName === "input") return (b as HTMLInputElement).value || b.getAttribute("alt") || "";
  return textOf(b) || b.getAttribute("aria-label") || "";
}

interface FormFacts {
  label: string | null;
  words: Set<string>;
}

/** Per collect(): each container's facts and each bare ancestor's markup words, read once. */
export interface PurposeCache {
  forms: Map<Element, FormFacts>;
  /** id and class words of the ancestors read for controls outside any form (shared by siblings). */
  marks: Map<Element, readonly string[]>;
  /** Each ancestor's nearest form-like container (itself when it is one), or null. */
  boxes: Map<Element, Element | null>;
}

export function newPurposeCache(): PurposeCache {
  return { forms: new Map(), marks: new Map(), boxes: new Map() };
}

/** The id and class words of an ancestor, read once per collect(). */
function ancestorMarks(a: Element, cache: PurposeCache): readonly string[] {
  // Most wrappers carry no attribute at all: nothing to read or remember.
  if (!a.hasAttributes()) return NO_WORDS;
  let w = cache.marks.get(a);
  if (w) return w;
  const id = a.getAttribute("id");
  const cls = a.getAttribute("class");
  if (!id && !cls) w = NO_WORDS;
  else if (!id) w = wordsOfString(cls as string);
  else if (!cls) w = wordsOfString(id);
  else {
    const set = new Set<string>();
    markupWords(id, set);
    markupWords(cls, set);
    w = [...set];
  }
  cache.marks.set(a, w);
  return w;
}

function formFacts(box: Element, control: Element, cache: PurposeCache): FormFacts {
  let f = cache.forms.get(box);
  if (f) return f;
  const label = containerLabel(box, control);
  const words = new Set<string>();
  if (label) markupWords(label, words);
  // Attributes, not properties: a form's `id` or `name` property is its field of that name when
  // it has one (<input name="id">).
  markupWords(box.getAttribute("id"), words);
  markupWords(box.getAttribute("class"), words);
  markupWords(box.getAttribute("name"), words);
  if (box.localName === "form") actionWords(box.getAttribute("action"), words);
  if (box.localName === "search" || box.getAttribute("role") === "search") words.add("search");
  // What its fields are (a password field makes it a log-in or sign-up form) and what it submits.
  const fields = box.querySelectorAll("input");
  for (let i = 0; i < fields.length && i < 30; i++) {
    const k = KIND_WORDS[(fields[i] as HTMLInputElement).type];
    if (k) words.add(k);
  }
  markupWords(submitLabel(box), words);
  f = { label: label ? (label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX - 1).trimEnd()}…` : label) : null, words };
  cache.forms.set(box, f);
  return f;
}

/**
 * The purpose of a control (an input, select, textarea or button; callers pass only those), or
 * null when nothing says one. Buttons outside any form-like container get none (their own
 * label is their purpose).
 */
export function purposeOf(el: Element, cache: PurposeCache, has: number = OWN_ATTRS): Purpose | null {
  const tag = el.localName;
  const box = purposeContainer(el, cache);
  if (!box && tag === "button") return null;
  const words = new Set<string>();
  // `has`: the attributes the walk's scan saw on the element (candidates.ts), so absent ones are not read.
  if (has & Attr.Id) markupWords(el.getAttribute("id"), words);
  if (has & Attr.Name) markupWords(el.getAttribute("name"), words);
  if (has & Attr.Autocomplete) markupWords(el.getAttribute("autocomplete"), words);
  if (has & Attr.Class) markupWords(el.getAttribute("class"), words);
  let label: string | null = null;
  if (box) {
    const f = formFacts(box, el, cache);
    label = f.label;
    for (const w of f.words) words.add(w);
  } else {
    // No form: the markup of the three nearest ancestors (a newsletter box submitted by script).
    let a = el.parentElement;
    for (let i = 0; i < 3 && a && a.localName !== "body"; i++, a = a.parentElement) {
      const w = ancestorMarks(a, cache);
      for (let j = 0; j < w.length; j++) words.add(w[j]);
    }
  }
  if (!words.size && !label) return null;
  let joined: string | null = null;
  let n = 0;
  for (const w of words) {
    if (n++ === WORDS_MAX) break;
    joined = joined === null ? w : `${joined} ${w}`;
  }
  return { label, words: joined };
}
