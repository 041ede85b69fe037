// Features only the learned reranker reads (the hand-set heuristic gives them no weight): the
// element's card text (collector `context_text`), its place among the candidates that match the
// goal (area, uniqueness), page-chrome cues (header band, site-wide search) and form cues
// (submit buttons, fields with nothing to type). Each is generic page structure, never a site.
import type { Intent } from "./intent.js";
import type { Candidate } from "./features.js";
import { isEntry, parseDuration, parseNumber, parsePrice } from "./features.js";
import { GoalLexicon, VERB_WORD } from "./lexicon.js";
import { memoize, normalize, stem, tokens } from "./text.js";
import { centresOf, holds, type Centres } from "./boxes.js";

export const CONTEXT_FEATURES = [
  // The card features count only for look-alikes (another candidate of the same role has the same
  // label, digits aside: a list's "Book" buttons): there the card is what tells them apart.
  "ctx_cov", // share of goal words found (by stem) in the card text but not in the element's own words
  "ctx_number", // a number from the goal occurs in the card text
  "ctx_superlative", // the element is the extreme the goal asks for, values read from its card text
  "is_submit", // a form's submit button
  "area_share", // area / largest area among the candidates that carry some of the goal's words
  "lex_unique", // 1 / number of candidates that share this element's (non-zero) best lexical evidence
  "header_band", // small element in the page's top band (site chrome: logo, nav, site search)
  "site_scope", // its label names a site ("Search example.com", "Search this site")
  "entry_no_value", // a field, but the goal carries nothing to type into it
  "text_in_goal", // a clickable control's whole label occurs in the goal as a phrase
  "verb_label", // the goal's verb (or a UI synonym: find ~ search) is a word of the element's label
  "container", // a static element whose box holds other candidates (a landmark, card or list that repeats their text)
] as const;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const DOMAIN = /\b[a-z0-9-]+\.(com|org|net|io|co|gov|edu|info|biz|[a-z]{2})\b/;
const SITE_WORDS = /\b(site|website)\b/;
const MAYBE_SITE = /[.．]|site/i;
const CLICKISH = new Set(["button", "link", "tab", "menuitem", "option", "checkbox", "radio", "switch", "combobox"]);

const clickable = (e: Candidate["element"]): boolean => !!e.visual_cues?.is_clickable || e.role === "button" || e.role === "link";

const ASCII = /^[\x00-\x7f]*$/;
/** Lower-cased letters/digits runs joined by single spaces. Memoized: labels repeat across candidates and requests. */
const words = memoize((s: string): string => {
  const t = normalize(s);
  return (ASCII.test(t) ? t.replace(/[^a-z0-9]+/g, " ") : t.replace(/[^\p{L}\p{N}]+/gu, " ")).trim();
});
/** A label with its digits, prices and separators masked: "Book 2" and "Book 3" look alike. */
const maskDigits = memoize((s: string): string => normalize(s).replace(/[\d.,$€£¥]+/g, "#"));

function containsPhrase(hay: string, needle: string): boolean {
  if (!needle) return false;
  let i = hay.indexOf(needle);
  while (i >= 0) {
    const before = i === 0 ? " " : hay[i - 1];
    const after = hay[i + needle.length] ?? " ";
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    i = hay.indexOf(needle, i + 1);
  }
  return false;
}

/**
 * Fills CONTEXT_FEATURES into `rows` from column `col0` on. `lex` is each candidate's lexical
 * evidence (goal.ts); `lexicon` the request's word table (built from this intent), when shared
 * with computeFeatures.
 */
export function computeContextFeatures(intent: Intent, cands: Candidate[], rows: Float64Array[], col0: number, lex: readonly number[], lexicon: GoalLexicon = new GoalLexicon(intent)): void {
  if (lexicon.intent !== intent) throw new Error("computeContextFeatures: the lexicon was built for another intent");
  const n = cands.length;
  const [COV, NUM, SUP, SUBMIT, AREA, UNIQUE, HEADER, SITE, NOVAL, INGOAL, VERB, CONTAINER] = CONTEXT_FEATURES.map((_, i) => col0 + i);
  // A value to enter: a date, number or quoted text, or a capitalised name after the first word
  // ("I'm leaving from Paris").
  const valueLike = intent.hasValue || /\s(?!I\b|I')\p{Lu}\p{Ll}/u.test(intent.raw);
  // Page chrome: the top band of the page, at most 80 px and a tenth of the page's extent (a
  // small widget's content also starts near the top).
  let extent = 1;
  for (const c of cands) extent = Math.max(extent, (c.element.doc_y ?? c.element.bbox.y) + c.element.bbox.height / 2);
  const band = Math.min(80, extent / 10);
  // Look-alikes: same role and the same label once digits are dropped. Only controls one clicks
  // can be look-alikes (the card features below are for them alone).
  // Counted per role, then per masked label (no key string built per candidate).
  const shape: (string | null)[] = cands.map((c) => (clickable(c.element) ? maskDigits(c.element.text || c.element.name || "") : null));
  const shapeCount = new Map<string, Map<string, number>>();
  for (let i = 0; i < n; i++) {
    const label = shape[i];
    if (label === null) continue;
    const role = cands[i].element.role;
    let byLabel = shapeCount.get(role);
    if (!byLabel) shapeCount.set(role, (byLabel = new Map()));
    byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
  }
  const goalStems = intent.words.map((w) => w.stem);
  const goalNorm = ` ${words(intent.raw)} `;
  let bestLex = 0;
  for (const v of lex) bestLex = Math.max(bestLex, v);
  let tied = 0;
  let maxArea = 0;
  for (let i = 0; i < n; i++) {
    if (bestLex > 0 && lex[i] >= bestLex - 1e-9) tied++;
    if (lex[i] > 0) maxArea = Math.max(maxArea, cands[i].element.bbox.width * cands[i].element.bbox.height);
  }
  const sup = intent.superlative;
  const parse = sup ? (sup.of === "price" ? parsePrice : sup.of === "duration" ? parseDuration : parseNumber) : null;
  const supValues: [number, number][] = [];
  let centres: Centres | null = null;

  for (let i = 0; i < n; i++) {
    const { element: e, raw } = cands[i];
    const a = raw.attributes ?? {};
    const r = rows[i];
    // The row or card text refine kept (look-alikes only, where it tells them apart: lookalike.ts).
    const ctx = e.context_text ?? "";
    const entry = isEntry(e);
    const own = e.text || e.name || str(a.aria_label) || str(a.placeholder) || str(a.title);
    const label = shape[i];
    const lookalike = label !== null && (shapeCount.get(e.role)?.get(label) ?? 0) > 1;
    if (ctx && lookalike) {
      const ctxToks = tokens(ctx);
      if (goalStems.length) {
        const ownStems = tokens(own).map(stem);
        let hit = 0;
        for (const g of goalStems) if (!ownStems.includes(g) && ctxToks.some((t) => stem(t) === g)) hit++;
        r[COV] = hit / goalStems.length;
      }
      for (const num of intent.numbers) if (ctxToks.includes(num)) r[NUM] = 1;
    }
    if (parse && lookalike && !entry) {
      const v = parse(`${e.text} ${e.nearby_text ?? ""}`) ?? (ctx ? parse(ctx) : null);
      if (v !== null && Number.isFinite(v)) supValues.push([i, v]);
    }
    const type = str(a.type_);
    // (The length test only skips toLowerCase: nothing but a 6-letter string lowercases to "submit".)
    r[SUBMIT] = type.length === 6 && type.toLowerCase() === "submit" && !entry ? 1 : 0;
    const area = e.bbox.width * e.bbox.height;
    r[AREA] = lex[i] > 0 && maxArea > 0 ? area / maxArea : 0;
    r[UNIQUE] = bestLex > 0 && lex[i] >= bestLex - 1e-9 ? 1 / tied : 0;
    const top = e.doc_y !== null && e.doc_y !== undefined ? e.doc_y - e.bbox.height / 2 : e.bbox.y;
    r[HEADER] = top < band && e.bbox.height < 60 ? 1 : 0;
    const placeholder = str(a.placeholder), nearby = e.nearby_text ?? "";
    // Cheap substring checks first: most labels have neither a dot nor "site".
    if (MAYBE_SITE.test(own) || MAYBE_SITE.test(placeholder) || MAYBE_SITE.test(nearby)) {
      const label = normalize(`${own} ${placeholder} ${nearby}`);
      r[SITE] = DOMAIN.test(label) || SITE_WORDS.test(label) ? 1 : 0;
    }
    // "Make it a return flight": a field, but nothing to type and no typing verb.
    r[NOVAL] = entry && !valueLike && intent.verb !== "type" ? 1 : 0;
    // Only for controls one clicks: a static label repeating the goal's words is not the target,
    // and a field's label in the goal is already weighed (nearby_control).
    if (own && !entry && (e.visual_cues?.is_clickable || CLICKISH.has(e.role))) {
      const ownNorm = words(own);
      r[INGOAL] = ownNorm && containsPhrase(goalNorm, ownNorm) ? 1 : 0;
    }
    if (intent.verbStem && (lexicon.flags(tokens(own)) & VERB_WORD) !== 0) r[VERB] = 1;
    // Only static elements that carry some of the goal's words are checked (few per page).
    if (lex[i] > 0 && !entry && !clickable(e)) r[CONTAINER] = holds(i, cands, (centres ??= centresOf(cands)), 3) / 3;
  }
  if (sup && supValues.length >= 2) {
    let best = supValues[0][1];
    for (const [, v] of supValues) best = sup.kind === "min" ? Math.min(best, v) : Math.max(best, v);
    for (const [i, v] of supValues) if (v === best) rows[i][SUP] = 1;
  }
}
