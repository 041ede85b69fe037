// Per-(goal, element) features. The heuristic is a hand-weighted sum of them; the learned
// reranker reads the same vector plus the heuristic's own score and rank.
import type { RawElement, RefinedElement } from "../contract/index.js";
import type { Intent } from "./intent.js";
import { normalize, squash, stem, tokens } from "./text.js";

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
] as const;
export type BaseFeature = (typeof BASE_FEATURES)[number];

const ENTRY_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"]);
const CLICK_ROLES = new Set(["button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch", "listitem", "img", "treeitem", "gridcell", "cell"]);
const CHECK_ROLES = new Set(["checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"]);
const SELECT_ROLES = new Set(["combobox", "listbox", "option", "radio", "menuitem", "tab", "menuitemradio"]);
const DATE_STEMS = new Set(["date", "day", "depart", "return", "arriv", "checkin", "checkout", "birth", "dob", "when", "calendar", "travel", "start", "end"].map(stem));
const CLOSE_GLYPHS = /^[×✕✖✗xX]$/;

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

interface Fields {
  primaryText: string; // squashed text/name
  primaryToks: string[];
  primaryStems: string[];
  nearby: string;
  nearbyToks: readonly string[];
  nearbyStems: string[];
  attrToks: string[];
  attrStems: string[];
  idRaw: string;
  ownWords: readonly string[];
}

function pushAll(to: string[], from: readonly string[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]);
}

function fieldsOf(c: Candidate): Fields {
  const e = c.element;
  const a = c.raw.attributes ?? {};
  const value = e.value_redacted ? "" : str(e.value ?? a.value);
  const parts = [e.text, e.name, str(a.aria_label), str(a.placeholder), value, str(a.title), str(a.alt)];
  const primaryText = squash(e.text || e.name || str(a.aria_label) || str(a.title) || value);
  // text, name and aria-label are often the same string: tokenize each distinct one once.
  // (Plain loops: a Set, a spread and flatMap per candidate were a quarter of this function.)
  const primaryList: string[] = [];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (p && parts.indexOf(p) === k) pushAll(primaryList, tokens(p));
  }
  if (CLOSE_GLYPHS.test(primaryText)) primaryList.push("close", "x");
  const ownWords = tokens(e.text || e.name || str(a.aria_label) || str(a.placeholder) || str(a.title) || str(a.alt));
  const nearby = squash(e.nearby_text ?? str(a.nearby_text));
  const nearbyList = tokens(nearby);
  const idRaw = str(a.id);
  const attrList: string[] = [];
  pushAll(attrList, tokens(e.href ?? str(a.href)));
  pushAll(attrList, tokens(str(a.name)));
  pushAll(attrList, tokens(idRaw));
  return {
    primaryText,
    // Arrays, not Sets: a handful of tokens per field, and building Sets was the main cost.
    primaryToks: primaryList,
    primaryStems: primaryList.map(stem),
    nearby,
    nearbyToks: nearbyList,
    nearbyStems: nearbyList.map(stem),
    attrToks: attrList,
    attrStems: attrList.map(stem),
    idRaw: idRaw.replace(/\s+/g, "").toLowerCase(),
    ownWords,
  };
}

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
export function computeFeatures(intent: Intent, cands: Candidate[], width: number = BASE_FEATURES.length): Float64Array[] {
  const n = cands.length;
  const F = Math.max(width, BASE_FEATURES.length);
  const idx = IDX;
  const goalStems = new Set(intent.words.flatMap((w) => [w.stem, ...w.syn]));
  const fields = cands.map(fieldsOf);
  // One buffer, one view per row: a Float64Array of its own per candidate is a separate
  // off-heap allocation (8 ms for 10,000 rows, and more for the GC to sweep), a view is not.
  const all = new Float64Array(n * F);
  const rows = cands.map((_, i) => all.subarray(i * F, (i + 1) * F));
  const nWords = intent.words.length;
  let maxBottom = 1;
  for (const c of cands) maxBottom = Math.max(maxBottom, c.element.bbox.y + c.element.bbox.height);

  // Quoted strings: does anything on the page carry them?
  let quoteFound = false;
  const entries = cands.map((c) => isEntry(c.element));

  for (let i = 0; i < n; i++) {
    const e = cands[i].element;
    const f = fields[i];
    const r = rows[i];
    for (const q of intent.quoted) {
      if (f.primaryText === q || (f.primaryToks.length > 0 && squash(cands[i].raw.attributes?.aria_label as string) === q)) r[idx.quoted_exact] = 1;
      else if (containsWords(f.primaryText, q)) r[idx.quoted_contains] = Math.max(r[idx.quoted_contains], 1);
      else if (containsWords(f.nearby, q)) r[idx.quoted_nearby] = 1;
      if ((r[idx.quoted_exact] || r[idx.quoted_contains]) && (e.visual_cues?.is_clickable || isEntry(e))) quoteFound = true;
    }
    if (intent.quotedRaw.length && r[idx.quoted_exact]) {
      const own = (e.text || e.name || "").replace(/\s+/g, " ").trim();
      if (intent.quotedRaw.includes(own)) r[idx.quoted_verbatim] = 1;
    }
    if (intent.labelWords.length) {
      let hit = 0;
      for (const w of intent.labelWords) if (f.primaryToks.includes(w) || f.nearbyToks.includes(w)) hit++;
      r[idx.label_word] = hit / intent.labelWords.length;
    }
    if (nWords > 0) {
      let ex = 0, st = 0, sy = 0, nb = 0, at = 0;
      for (const w of intent.words) {
        let inPrimary = true;
        if (f.primaryToks.includes(w.word)) ex++;
        else if (f.primaryStems.includes(w.stem)) st++;
        else if (w.syn.some((s) => f.primaryStems.includes(s))) sy++;
        else inPrimary = false;
        if (f.nearbyToks.includes(w.word) || f.nearbyStems.includes(w.stem)) nb++;
        else if (w.syn.some((s) => f.nearbyStems.includes(s))) nb += 0.5;
        // Attributes (href, name, id) only count for words the visible text does not already carry.
        if (inPrimary) continue;
        if (f.attrToks.includes(w.word) || f.attrStems.includes(w.stem)) at++;
        else if (w.syn.some((s) => f.attrStems.includes(s))) at += 0.5;
      }
      r[idx.cov_exact] = ex / nWords;
      r[idx.cov_stem] = st / nWords;
      r[idx.cov_syn] = sy / nWords;
      r[idx.cov_nearby] = nb / nWords;
      r[idx.cov_attr] = at / nWords;
      if (f.ownWords.length > 0) {
        let hit = 0;
        for (const w of f.ownWords) if (goalStems.has(stem(w))) hit++;
        r[idx.precision] = hit / f.ownWords.length;
      }
    }
    for (const num of intent.numbers) {
      if (f.primaryToks.includes(num) || f.primaryText === num || containsWords(f.primaryText, num)) r[idx.number_match] = 1;
      else if (containsWords(f.nearby, num) && r[idx.number_match] < 0.5) r[idx.number_match] = 0.5;
    }
    if (intent.tuples.length) {
      const a = cands[i].raw.attributes ?? {};
      const hay = [f.idRaw, e.text, e.name ?? "", str(a.aria_label), str(a.title)].map((h) => normalize(h).replace(/\s+/g, ""));
      const near = f.nearby.replace(/\s+/g, "");
      for (const t of intent.tuples) {
        if (hay.includes(t)) r[idx.tuple_match] = 1;
        else if (hay.some((h) => h.includes(t))) r[idx.tuple_match] = Math.max(r[idx.tuple_match], 0.8);
        else if (near.includes(t)) r[idx.tuple_match] = Math.max(r[idx.tuple_match], 0.3);
      }
    }
    const entry = entries[i];
    r[idx.verb_agree] = verbAgreement(intent, e, entry);
    r[idx.role_hint] = intent.roleHints.has(e.role) ? 1 : 0;
    if (intent.hasDate && entry) {
      let dateish = e.input_type === "date";
      for (const set of [f.nearbyStems, f.attrStems, f.primaryStems]) for (const s of set) if (DATE_STEMS.has(s)) dateish = true;
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
