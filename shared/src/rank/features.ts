// Per-(goal, element) features. The heuristic is a hand-weighted sum of them; the learned
// reranker reads the same vector plus the heuristic's own score and rank.
import type { RawElement, RefinedElement } from "../contract/index.js";
import type { Intent } from "./intent.js";
import { DATE_WORD, EXACT, GoalLexicon, STEM, SYNONYM } from "./lexicon.js";
import { normalize, squash, tokens } from "./text.js";
import { centresOf, holds, type Centres } from "./boxes.js";
import { conceptBit, conceptsOf, optionsOf, otherOption } from "./concepts.js";

const SEARCH = conceptBit("search");
const COMMENT = conceptBit("comment");
const NEWSLETTER = conceptBit("newsletter");
const SIGN = conceptBit("login") | conceptBit("signup");

export interface Candidate {
  element: RefinedElement;
  raw: RawElement;
}

/** Order matters: the committed model's weights are keyed by these names. */
export const BASE_FEATURES = [
  "quoted_exact", // a quoted goal string equals the element's text/name
  "quoted_verbatim", // ... even in case and punctuation
  "quoted_contains", // ... or occurs in it as whole words
  "quoted_nearby", // ... or in its label/nearby text
  "quoted_absent_tab", // nothing on the page matches the quote and this is an unselected tab
  "cov_exact", // share of goal words found verbatim in text/name/aria-label/placeholder/value/title/alt
  "cov_stem", // ... found by stem
  "cov_syn", // ... found by synonym
  "cov_nearby", // share of goal words found in nearby_text (the label next to an input)
  "nearby_control", // cov_nearby for form controls only: a label next to an input/checkbox names it
  "label_word", // share of the goal's field-label words ("from", "to") in the element's text or label
  "cov_attr", // share of goal words found only in href, name and id attributes
  "precision", // share of the element's own words that the goal mentions
  "number_match", // a number from the goal occurs in the element
  "tuple_match", // a tuple like (0,1) occurs in the element (text, label or id)
  "ordinal_match", // the element is the n-th of its kind the goal names
  "superlative_match", // the element carries the extreme price/duration/number the goal asks for
  "verb_agree", // the goal's verb fits the element's role (+1), is neutral (0) or contradicts it (-1)
  "role_hint", // the goal names the element's kind ("button", "link", "field")
  "date_field", // the goal carries a date and this is a date-like field
  "value_entry", // the goal carries a value and this element accepts typing
  "is_entry", // textbox-like
  "is_clickable",
  "importance", // the engine's goal-free importance / 1000
  "in_viewport",
  "is_occluded",
  "disabled",
  "in_dominant_group",
  "log_area",
  "rel_y", // vertical position relative to the lowest candidate (0 top .. 1 bottom)
  "log_words", // log(1 + number of the element's own words)
  "empty_text", // the element has no text/name at all
  "row_ctx", // look-alike controls only: share of goal words found in its row/card text (context_text), not in its own words
  "static_container", // a static element carrying goal words whose box holds other candidates (share of 3): it repeats their text
  "concept_match", // the element names the web intent the goal names (concepts.ts: "Log in" for "sign in"): 1 in its label, 0.6 in its href/id/class or its form's purpose
  "concept_near", // its label names an intent the goal's must not be mistaken for ("Sign up" for "sign in"), and not the goal's
  "purpose_cov", // share of goal words found in its form's purpose (label and markup words: "Newsletter") and not in its own words
  "off_page", // its box lies wholly left of or above the page (x + width <= 0: the visually-hidden pattern)
] as const;
export type BaseFeature = (typeof BASE_FEATURES)[number];

const ENTRY_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"]);
const CLICK_ROLES = new Set(["button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch", "listitem", "img", "treeitem", "gridcell", "cell"]);
const CHECK_ROLES = new Set(["checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"]);
const SELECT_ROLES = new Set(["combobox", "listbox", "option", "radio", "menuitem", "tab", "menuitemradio"]);
const CLOSE_GLYPHS = /^[×✕✖✗xX]$/;
/** Roles of controls proper (not list items, cells or images, which often just hold controls). */
const CONTROL_ROLES = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox", "radio", "switch", "treeitem", "gridcell", "combobox", "listbox", "slider", "spinbutton"]);

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/**
 * One candidate's words, read once: its own text and labels (primary), the label next to it
 * (nearby) and its href/name/id (attr), each folded through the request's lexicon into the best
 * match level per goal word and the OR of the words' flags. One Fields serves a whole request
 * (`read` refills every field), so no token or stem arrays are built per candidate.
 */
class Fields {
  primaryText = ""; // squashed text/name
  /** Token lists of the distinct primary parts (text, name, aria-label, placeholder, value, title, alt). */
  readonly partToks: (readonly string[])[] = [];
  primaryCount = 0;
  readonly primary: Int32Array;
  primaryFlags = 0;
  nearby = "";
  readonly near: Int32Array;
  nearbyFlags = 0;
  readonly attr: Int32Array;
  attrFlags = 0;
  /** Match levels of the goal's words in the row/card text (look-alike controls only), or null. */
  readonly row: Int32Array;
  hasRow = false;
  rowText = "";
  /** Match levels of the goal's words in the form's purpose (label and markup words). */
  readonly purpose: Int32Array;
  hasPurpose = false;
  /** Concept bits of the label, of href/id/class/name, and of the form's purpose. */
  ownConcepts = 0;
  attrConcepts = 0;
  purposeConcepts = 0;
  /** The element has a label of its own (an icon-only control has none but its markup). */
  ownLabel = false;
  /** Named options (networks, languages) its label or markup names, for a share or language goal. */
  options: readonly string[] = [];
  ownWords: readonly string[] = [];
  private readonly parts: (string | null | undefined)[] = ["", "", "", "", "", "", "", ""];

  constructor(private readonly lexicon: GoalLexicon) {
    this.primary = new Int32Array(lexicon.width);
    this.near = new Int32Array(lexicon.width);
    this.attr = new Int32Array(lexicon.width);
    this.row = new Int32Array(lexicon.width);
    this.purpose = new Int32Array(lexicon.width);
  }

  read(c: Candidate): void {
    const e = c.element;
    const a = c.raw.attributes ?? {};
    const lex = this.lexicon;
    const value = e.value_redacted ? "" : str(e.value ?? a.value);
    const ariaLabel = str(a.aria_label), placeholder = str(a.placeholder), title = str(a.title), alt = str(a.alt);
    const parts = this.parts;
    parts[0] = e.text;
    parts[1] = e.name;
    parts[2] = ariaLabel;
    parts[3] = placeholder;
    parts[4] = value;
    parts[5] = title;
    parts[6] = alt;
    // An icon-only control's inferred name ("trash (delete)"): its only words.
    parts[7] = e.inferred_name;
    this.primaryText = squash(e.text || e.name || ariaLabel || title || value || e.inferred_name || "");
    // text, name and aria-label are often the same string: each distinct one is read once.
    this.primary.fill(0);
    this.partToks.length = 0;
    this.primaryCount = 0;
    let flags = 0;
    for (let k = 0; k < 8; k++) {
      const p = parts[k];
      if (!p || parts.indexOf(p) !== k) continue;
      const toks = tokens(p);
      this.partToks.push(toks);
      this.primaryCount += toks.length;
      flags |= lex.fold(toks, this.primary);
    }
    if (this.primaryText.length === 1 && CLOSE_GLYPHS.test(this.primaryText)) {
      this.partToks.push(CLOSE_WORDS);
      this.primaryCount += CLOSE_WORDS.length;
      flags |= lex.fold(CLOSE_WORDS, this.primary);
    }
    this.primaryFlags = flags;
    this.ownWords = tokens(e.text || e.name || ariaLabel || placeholder || title || alt || e.inferred_name || "");
    this.nearby = squash(e.nearby_text ?? str(a.nearby_text));
    this.near.fill(0);
    this.nearbyFlags = lex.fold(tokens(this.nearby), this.near);
    this.attr.fill(0);
    this.attrFlags = lex.fold(tokens(e.href ?? str(a.href)), this.attr) | lex.fold(tokens(str(a.name)), this.attr) | lex.fold(tokens(str(a.id)), this.attr);
    // Concepts are read only when the goal names one (most goals of the synthetic sets do not).
    if (lex.intent.concepts !== 0 || lex.intent.near !== 0) {
      const label = e.name || e.text || ariaLabel || "";
      this.ownLabel = label !== "" || !!e.inferred_name;
      this.ownConcepts = (label.length <= 60 ? conceptsOf(label) : 0) | (placeholder ? conceptsOf(placeholder) : 0) | (title && title.length <= 60 ? conceptsOf(title) : 0) | (e.inferred_name ? conceptsOf(e.inferred_name) : 0);
      // What a control is by kind: a search box searches; a text area is where a comment is written.
      if (e.role === "searchbox") this.ownConcepts |= SEARCH;
      const href = e.href ?? str(a.href);
      // The host names a network (twitter.com/intent/tweet): its first label is kept with the path.
      const path = href ? href.replace(/^[a-z]+:\/\/(?:www\.)?([^/.]+)[^/]*/i, "$1 ").replace(/[?#].*$/, "") : "";
      const marks = `${path} ${str(a.id)} ${str(a.name)} ${str(a.class_name)}`;
      this.attrConcepts = (marks.trim() ? conceptsOf(marks) : 0) | (e.tag === "textarea" ? COMMENT : 0);
      this.options = lex.intent.options.length ? [...optionsOf(`${label} ${e.inferred_name ?? ""} ${title}`), ...optionsOf(marks)] : [];
    } else {
      this.ownConcepts = this.attrConcepts = 0;
      this.options = [];
    }
    const purposeText = `${str(a.purpose)} ${str(a.purpose_words)}`.trim();
    this.hasPurpose = purposeText !== "";
    if (this.hasPurpose) {
      this.purpose.fill(0);
      lex.fold(tokens(purposeText), this.purpose);
      this.purposeConcepts = lex.intent.concepts !== 0 ? conceptsOf(purposeText) : 0;
    } else this.purposeConcepts = 0;
    this.hasRow = !!e.context_text;
    this.rowText = this.hasRow ? squash(e.context_text as string) : "";
    if (this.hasRow) {
      this.row.fill(0);
      lex.fold(tokens(e.context_text as string), this.row);
    }
  }

  /** Whether one of the primary words is `word`. */
  primaryHas(word: string): boolean {
    for (const toks of this.partToks) if (toks.includes(word)) return true;
    return false;
  }
}
const CLOSE_WORDS: readonly string[] = Object.freeze(["close", "x"]);

const placeholderOf = (c: Candidate): string => str(c.raw.attributes?.placeholder);

function containsWords(hay: string, needle: string): boolean {
  if (!needle || !hay) return false;
  const i = hay.indexOf(needle);
  if (i < 0) return false;
  // Whole-word occurrence: letters/digits must not continue on either side.
  const before = i === 0 ? "" : hay[i - 1];
  const after = hay[i + needle.length] ?? "";
  return !/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after);
}

export function isEntry(e: RefinedElement): boolean {
  if (ENTRY_ROLES.has(e.role)) return true;
  const t = (e.input_type ?? "").toLowerCase();
  return e.tag === "textarea" || (e.tag === "input" && ["", "text", "search", "email", "tel", "url", "number", "date", "password", "datetime-local", "month", "week", "time"].includes(t));
}

function verbAgreement(intent: Intent, e: RefinedElement, entry: boolean): number {
  const role = e.role;
  // Static content (headings, sections, paragraphs) is never what an action verb acts on.
  if (intent.verb !== "none" && !entry && !e.visual_cues?.is_clickable && !CLICK_ROLES.has(role) && !SELECT_ROLES.has(role)) return -0.5;
  switch (intent.verb) {
    case "type":
      return entry ? 1 : CLICK_ROLES.has(role) ? -0.5 : 0;
    case "click":
      return entry ? -1 : CLICK_ROLES.has(role) || e.visual_cues?.is_clickable ? 1 : 0;
    case "select":
      return SELECT_ROLES.has(role) ? 1 : entry ? 0.5 : CLICK_ROLES.has(role) ? 0.5 : 0;
    case "check":
      return CHECK_ROLES.has(role) ? 1 : entry ? -1 : 0;
    default:
      return 0;
  }
}

export function parseNumber(s: string): number | null {
  const m = /-?\d+(?:[.,]\d+)?/.exec(s.replace(/,(?=\d{3}\b)/g, ""));
  return m ? Number(m[0].replace(",", ".")) : null;
}
export function parsePrice(s: string): number | null {
  const m = /[$€£¥]\s*(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)\s*(?:usd|eur|gbp|dollars?|euros?)/i.exec(s);
  return m ? Number((m[1] ?? m[2]).replace(/,/g, "")) : null;
}
export function parseDuration(s: string): number | null {
  const m = /(?:(\d+)\s*d(?:ays?)?\s*)?(?:(\d+)\s*h(?:ours?|rs?)?)\s*(?:(\d+)\s*m(?:in(?:utes?)?)?)?|(\d+)\s*m(?:in(?:utes?)?)?\b/i.exec(s);
  if (!m || m[0].trim() === "") return null;
  if (m[4]) return Number(m[4]);
  return (Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0);
}

/** Text that belongs to the element's row: its own text, its label, and texts of candidates on the same line. */
function rowContext(i: number, cands: Candidate[]): string {
  const e = cands[i].element;
  const cy = e.bbox.y + e.bbox.height / 2;
  const parts = [e.text, e.nearby_text ?? ""];
  for (let j = 0; j < cands.length; j++) {
    if (j === i) continue;
    const o = cands[j].element;
    const oy = o.bbox.y + o.bbox.height / 2;
    // Same row (vertical overlap), or the line right above: a card's facts sit next to its button.
    if (Math.abs(oy - cy) < Math.max(e.bbox.height, o.bbox.height) * 0.75 || (oy < cy && cy - oy < 40 && Math.abs(o.bbox.x - e.bbox.x) < 200)) parts.push(o.text);
  }
  return parts.join(" ");
}

/** Text of the smallest other element whose box holds this one's centre and carries a value (its card). */
function containerText(i: number, cands: Candidate[], parse: (s: string) => number | null): string {
  const e = cands[i].element;
  const cx = e.bbox.x + e.bbox.width / 2, cy = e.bbox.y + e.bbox.height / 2;
  let best = "", bestArea = Number.POSITIVE_INFINITY;
  for (let j = 0; j < cands.length; j++) {
    if (j === i) continue;
    const b = cands[j].element.bbox;
    const area = b.width * b.height;
    if (area >= bestArea || cx < b.x || cx > b.x + b.width || cy < b.y || cy > b.y + b.height) continue;
    if (parse(cands[j].element.text) === null) continue;
    best = cands[j].element.text;
    bestArea = area;
  }
  return best;
}

export interface PageFeatures {
  rows: Float64Array[];
  /** Which candidates each row belongs to (same order as the input). */
  count: number;
}

const IDX = Object.fromEntries(BASE_FEATURES.map((f, i) => [f, i])) as Record<BaseFeature, number>;

/** One row per candidate, BASE_FEATURES in the first columns; `width` leaves room for more. */
/** `lexicon`: the request's (built from this intent), when the caller shares it with the context features. */
export function computeFeatures(intent: Intent, cands: Candidate[], width: number = BASE_FEATURES.length, lexicon: GoalLexicon = new GoalLexicon(intent)): Float64Array[] {
  if (lexicon.intent !== intent) throw new Error("computeFeatures: the lexicon was built for another intent");
  const n = cands.length;
  const F = Math.max(width, BASE_FEATURES.length);
  const idx = IDX;
  const f = new Fields(lexicon);
  // One buffer, one view per row: a Float64Array of its own per candidate is a separate
  // off-heap allocation (8 ms for 10,000 rows, and more for the GC to sweep), a view is not.
  const all = new Float64Array(n * F);
  const rows = cands.map((_, i) => all.subarray(i * F, (i + 1) * F));
  const nWords = intent.words.length;
  let maxBottom = 1;
  for (const c of cands) maxBottom = Math.max(maxBottom, c.element.bbox.y + c.element.bbox.height);

  // Quoted strings: does anything on the page carry them?
  let quoteFound = false;
  let centres: Centres | null = null;
  const entries = cands.map((c) => isEntry(c.element));

  for (let i = 0; i < n; i++) {
    const e = cands[i].element;
    f.read(cands[i]);
    const r = rows[i];
    for (const q of intent.quoted) {
      if (f.primaryText === q || (f.primaryCount > 0 && squash(cands[i].raw.attributes?.aria_label as string) === q)) r[idx.quoted_exact] = 1;
      else if (containsWords(f.primaryText, q)) r[idx.quoted_contains] = Math.max(r[idx.quoted_contains], 1);
      else if (containsWords(f.nearby, q)) r[idx.quoted_nearby] = 1;
      // A look-alike control whose row holds the quoted words (the edit icon of task "Pay rent").
      else if (f.hasRow && containsWords(f.rowText, q)) r[idx.row_ctx] = Math.max(r[idx.row_ctx], 1);
      if ((r[idx.quoted_exact] || r[idx.quoted_contains]) && (e.visual_cues?.is_clickable || entries[i])) quoteFound = true;
    }
    if (intent.quotedRaw.length && r[idx.quoted_exact]) {
      const own = (e.text || e.name || "").replace(/\s+/g, " ").trim();
      if (intent.quotedRaw.includes(own)) r[idx.quoted_verbatim] = 1;
    }
    if (intent.labelWords.length) {
      let hit = 0;
      const either = f.primaryFlags | f.nearbyFlags;
      for (let k = 0; k < intent.labelWords.length; k++) if (either & GoalLexicon.labelFlag(k)) hit++;
      r[idx.label_word] = hit / intent.labelWords.length;
    }
    if (nWords > 0) {
      let ex = 0, st = 0, sy = 0, nb = 0, at = 0;
      for (let k = 0; k < nWords; k++) {
        const p = f.primary[k];
        if (p === EXACT) ex++;
        else if (p === STEM) st++;
        else if (p === SYNONYM) sy++;
        if (f.near[k] >= STEM) nb++;
        else if (f.near[k] === SYNONYM) nb += 0.5;
        // Attributes (href, name, id) only count for words the visible text does not already carry.
        if (p !== 0) continue;
        if (f.attr[k] >= STEM) at++;
        else if (f.attr[k] === SYNONYM) at += 0.5;
      }
      r[idx.cov_exact] = ex / nWords;
      r[idx.cov_stem] = st / nWords;
      r[idx.cov_syn] = sy / nWords;
      r[idx.cov_nearby] = nb / nWords;
      r[idx.cov_attr] = at / nWords;
      if (f.hasRow) {
        // "Delete the email from Dana": the trash icon in Dana's row. Words the control says itself do not count twice.
        let rw = 0;
        for (let k = 0; k < nWords; k++) if (f.primary[k] === 0 && f.row[k] >= STEM) rw++;
        r[idx.row_ctx] = Math.max(r[idx.row_ctx], rw / nWords);
      }
      // A static container that repeats its controls' words (<main>, a list item, a card) is not what to act on.
      if ((ex > 0 || st > 0 || sy > 0) && !entries[i] && !e.visual_cues?.is_clickable && !CONTROL_ROLES.has(e.role)) {
        r[idx.static_container] = holds(i, cands, (centres ??= centresOf(cands)), 3) / 3;
      }
      if (f.ownWords.length > 0) r[idx.precision] = lexicon.countInGoal(f.ownWords) / f.ownWords.length;
      if (f.hasPurpose) {
        let pw = 0;
        for (let k = 0; k < nWords; k++) if (f.primary[k] === 0 && f.purpose[k] >= STEM) pw++;
        r[idx.purpose_cov] = pw / nWords;
      }
    }
    for (const num of intent.numbers) {
      if (f.primaryHas(num) || f.primaryText === num || containsWords(f.primaryText, num)) r[idx.number_match] = 1;
      else if (containsWords(f.nearby, num) && r[idx.number_match] < 0.5) r[idx.number_match] = 0.5;
    }
    if (intent.tuples.length) {
      const a = cands[i].raw.attributes ?? {};
      const hay = [str(a.id).replace(/\s+/g, "").toLowerCase(), e.text, e.name ?? "", str(a.aria_label), str(a.title)].map((h) => normalize(h).replace(/\s+/g, ""));
      const near = f.nearby.replace(/\s+/g, "");
      for (const t of intent.tuples) {
        if (hay.includes(t)) r[idx.tuple_match] = 1;
        else if (hay.some((h) => h.includes(t))) r[idx.tuple_match] = Math.max(r[idx.tuple_match], 0.8);
        else if (near.includes(t)) r[idx.tuple_match] = Math.max(r[idx.tuple_match], 0.3);
      }
    }
    const entry = entries[i];
    // Intents are acted on: only controls and fields carry one (a heading "Cart" does not).
    if (intent.concepts !== 0 && (entry || e.visual_cues?.is_clickable || CONTROL_ROLES.has(e.role))) {
      // An icon-only control says what it is in its markup alone: that counts as its label.
      const markup = f.ownLabel ? 0.6 : 1;
      let m = f.ownConcepts & intent.ownConcepts ? 1 : f.ownConcepts & intent.concepts ? 0.7 : (f.attrConcepts | f.purposeConcepts) & intent.concepts ? markup : 0;
      // A newsletter is signed up to with an email address: an email field not in a log-in or sign-up form.
      if (intent.ownConcepts & NEWSLETTER && entry && (e.input_type === "email" || /e-?mail/i.test(`${placeholderOf(cands[i])} ${e.name ?? ""}`)) && !(f.purposeConcepts & SIGN)) m = Math.max(m, 0.6);
      // The network or language the goal names.
      if (f.options.length && intent.options.some((o) => f.options.includes(o))) m = Math.max(m, f.ownLabel ? 1 : markup);
      r[idx.concept_match] = m;
      const all = f.ownConcepts | f.attrConcepts | f.purposeConcepts;
      if (((f.ownConcepts | f.attrConcepts) & intent.near && !(all & intent.concepts)) || otherOption(intent.options, f.options)) r[idx.concept_near] = 1;
    }
    r[idx.off_page] = e.bbox.x + e.bbox.width <= 0 || (e.doc_y ?? e.bbox.y) + e.bbox.height / 2 < 0 ? 1 : 0;
    r[idx.verb_agree] = verbAgreement(intent, e, entry);
    r[idx.role_hint] = intent.roleHints.has(e.role) ? 1 : 0;
    if (intent.hasDate && entry) {
      const dateish = e.input_type === "date" || ((f.nearbyFlags | f.attrFlags | f.primaryFlags) & DATE_WORD) !== 0;
      r[idx.date_field] = dateish ? 1 : 0;
    }
    r[idx.nearby_control] = entry || CHECK_ROLES.has(e.role) ? r[idx.cov_nearby] : 0;
    r[idx.value_entry] = intent.hasValue && entry ? 1 : 0;
    r[idx.is_entry] = entry ? 1 : 0;
    r[idx.is_clickable] = e.visual_cues?.is_clickable ? 1 : 0;
    r[idx.importance] = e.importance / 1000;
    r[idx.in_viewport] = e.in_viewport ? 1 : 0;
    r[idx.is_occluded] = e.is_occluded ? 1 : 0;
    r[idx.disabled] = e.disabled ? 1 : 0;
    r[idx.in_dominant_group] = e.in_dominant_group ? 1 : 0;
    r[idx.log_area] = Math.log1p(Math.max(0, e.bbox.width * e.bbox.height)) / 10;
    r[idx.rel_y] = Math.min(1, Math.max(0, (e.bbox.y + e.bbox.height / 2) / maxBottom));
    r[idx.log_words] = Math.log1p(f.ownWords.length);
    r[idx.empty_text] = f.ownWords.length === 0 && !f.primaryText ? 1 : 0;
  }

  // "Switch between the tabs to find X": X is not on the page, so the way there is the other tab.
  if (intent.quoted.length > 0 && !quoteFound) {
    for (let i = 0; i < n; i++) {
      const e = cands[i].element;
      const a = cands[i].raw.attributes ?? {};
      // Selected: aria-selected, a tab's aria-expanded, or the usual "active/selected" class.
      const selected = str(a.aria_selected) === "true" || str(a.aria_expanded) === "true" || /(^|[\s_-])(active|selected|current)($|[\s_-])/i.test(str(a.class_name));
      if (e.role === "tab" && !selected) rows[i][idx.quoted_absent_tab] = 1;
    }
  }

  if (intent.ordinal !== null) markOrdinal(intent, cands, rows, idx.ordinal_match, entries);
  if (intent.superlative) markSuperlative(intent, cands, rows, idx.superlative_match, entries);
  return rows;
}

function markOrdinal(intent: Intent, cands: Candidate[], rows: Float64Array[], col: number, entries: boolean[]): void {
  const k = intent.ordinal as number;
  // The pool: elements of the named kind (else anything clickable), in the dominant group when it has any.
  let pool = cands.map((c, i) => i).filter((i) => (intent.roleHints.size ? intent.roleHints.has(cands[i].element.role) : cands[i].element.visual_cues?.is_clickable || entries[i]));
  const dominant = pool.filter((i) => cands[i].element.in_dominant_group);
  if (dominant.length >= Math.abs(k)) pool = dominant;
  // Restrict to elements that also match the goal's words, when some do ("the second result about cats").
  pool.sort((a, b) => {
    const ea = cands[a].element, eb = cands[b].element;
    const ga = ea.group_index ?? Number.POSITIVE_INFINITY, gb = eb.group_index ?? Number.POSITIVE_INFINITY;
    if (ea.group_key && ea.group_key === eb.group_key && ga !== gb) return ga - gb;
    return (ea.doc_y ?? ea.bbox.y) - (eb.doc_y ?? eb.bbox.y) || ea.bbox.x - eb.bbox.x;
  });
  const at = k > 0 ? k - 1 : pool.length + k;
  if (at >= 0 && at < pool.length) rows[pool[at]][col] = 1;
}

function markSuperlative(intent: Intent, cands: Candidate[], rows: Float64Array[], col: number, entries: boolean[]): void {
  const sup = intent.superlative!;
  const parse = sup.of === "price" ? parsePrice : sup.of === "duration" ? parseDuration : parseNumber;
  const pool = cands.map((c, i) => i).filter((i) => !entries[i] && (intent.roleHints.size ? intent.roleHints.has(cands[i].element.role) : cands[i].element.visual_cues?.is_clickable));
  const values: [number, number][] = [];
  for (const i of pool) {
    const own = parse(`${cands[i].element.text} ${cands[i].element.nearby_text ?? ""}`);
    const v = own ?? parse(containerText(i, cands, parse)) ?? parse(rowContext(i, cands));
    if (v !== null && Number.isFinite(v)) values.push([i, v]);
  }
  if (values.length < 2) return;
  const best = sup.kind === "min" ? Math.min(...values.map((x) => x[1])) : Math.max(...values.map((x) => x[1]));
  for (const [i, v] of values) if (v === best) rows[i][col] = 1;
}
