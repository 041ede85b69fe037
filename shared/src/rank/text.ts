// Text normalisation shared by the goal parser and the element matcher: tokens, Porter stems
// (`stemmer`) and WordNet synonyms (`synonyms`), plus a short table of web-UI equivalences
// WordNet does not know (a "From" field is the origin, "x" closes a dialog).
import { stemmer } from "stemmer";
import dictionary from "synonyms/dictionary.js";

/** NFKC, lower case, curly quotes straightened. */
export function normalize(s: string): string {
  // NFKC and the quote mapping leave ASCII unchanged.
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  return s.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
}

/** Word tokens: letters/digits runs; camelCase and snake/dot names split ("travelDate" → travel, date). */
const ASCII = /^[\x00-\x7f]*$/;
const UPPER_AFTER_LOWER = /[a-z][A-Z]/;
const NO_TOKENS: readonly string[] = Object.freeze([]);
/**
 * `fn` memoized: the same labels, hrefs, nearby texts and words come back in every candidate
 * list of a page and in every snapshot an agent takes of it. At most 50,000 entries (then the
 * cache starts over), and only strings of up to 512 characters: labels and words are short, and
 * a long text kept would hold a piece of some request body in memory after its request.
 */
const MEMO_MAX_LENGTH = 512;
const MEMO_MAX_ENTRIES = 50_000;
export function memoize<T>(fn: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      v = fn(s);
      if (s.length <= MEMO_MAX_LENGTH) {
        if (cache.size > MEMO_MAX_ENTRIES) cache.clear();
        cache.set(s, v);
      }
    }
    return v;
  };
}

// The arrays are shared between callers, hence frozen (read-only).
const memoTokens = memoize((s) => Object.freeze(tokenize(s)) as readonly string[]);
export function tokens(s: string | null | undefined): readonly string[] {
  return s ? memoTokens(s) : NO_TOKENS;
}
function tokenize(s: string): string[] {
  const split = UPPER_AFTER_LOWER.test(s) ? s.replace(/([a-z])([A-Z])/g, "$1 $2") : s;
  // Plain ASCII needs no NFKC (the common case, and the costly step).
  if (ASCII.test(split)) return split.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return normalize(split).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Words that carry no object meaning in a goal. Verbs and role nouns are parsed separately. */
export const STOPWORDS = new Set(
  (
    "a an the this that these those it its to of in on at by with for from into onto as and or " +
    "is are be been was were i i'm im me my we our you your please then now just only want need " +
    "would like let lets s t do does so there here which what who whose whom where when how all any some " +
    "one's up out about via using use page site"
  ).split(" "),
);

/** Goal words that are field labels on forms, so they are kept although they look like stopwords. */
export const LABEL_WORDS = new Set(["from", "to"]);

/** Porter stem; numbers stay as they are. */
export const stem: (word: string) => string = memoize((word) => (/^\p{N}+$/u.test(word) ? word : stemmer(word)));

/**
 * Web-UI equivalences (generic vocabulary of forms and dialogs, not of any one site): each group
 * is a set of words a page and a goal use for the same thing.
 */
const UI_GROUPS: string[][] = [
  ["from", "origin", "departure", "depart", "departing", "leaving", "leave", "source", "outbound"],
  ["to", "destination", "arrival", "arrive", "arriving", "going"],
  ["return", "returning", "back", "inbound", "home"],
  ["close", "x", "dismiss", "cancel", "×", "✕"],
  ["ok", "okay", "confirm", "accept", "yes"],
  ["search", "find", "look", "lookup", "go"],
  ["submit", "send", "continue", "next", "proceed"],
  ["login", "log", "signin", "sign"],
  ["buy", "purchase", "book", "order", "checkout"],
  ["passenger", "passengers", "traveler", "travelers", "traveller", "travellers", "people", "person", "adult", "adults", "guests"],
  ["date", "day", "when"],
  ["class", "cabin"],
  ["trip", "flight", "journey"],
  ["price", "cost", "fare"],
  ["email", "mail", "e-mail"],
  ["username", "user", "login"],
  ["previous", "prev", "back"],
  // What icon-only controls stand for (their inferred names carry one of these).
  ["delete", "remove", "trash", "discard", "bin"],
  ["edit", "modify", "rename", "pencil"],
];
const uiSyn = new Map<string, Set<string>>();
for (const group of UI_GROUPS) {
  const stems = group.map(stem);
  for (const s of stems) {
    let set = uiSyn.get(s);
    if (!set) uiSyn.set(s, (set = new Set()));
    for (const t of stems) if (t !== s) set.add(t);
  }
}

/** Stems of the word's synonyms (WordNet nouns/verbs/adjectives, plus the UI table), without its own stem. */
export const synonymStems: (word: string) => string[] = memoize((word) => {
  const own = stem(word);
  const out = new Set<string>(uiSyn.get(own) ?? []);
  const entry = Object.prototype.hasOwnProperty.call(dictionary, word) ? dictionary[word] : undefined;
  if (entry) {
    for (const pos of ["v", "n", "a", "s"]) {
      const list = entry[pos];
      if (!Array.isArray(list)) continue;
      // The first few synonyms per sense are the close ones; the tail of the list drifts.
      for (const w of list.slice(0, 5)) {
        if (w.length < 2 || /[^a-z]/.test(w)) continue;
        out.add(stem(w));
      }
    }
  }
  out.delete(own);
  return [...out];
});

const memoSquash = memoize((s) => normalize(s).replace(/\s+/g, " ").trim().replace(/^[\s"'“”.,:;!?()]+|[\s"'“”.,:;!?()]+$/g, ""));
/**
 * Lower-cased text with runs of whitespace collapsed and surrounding punctuation trimmed.
 * Memoized: every candidate's label and nearby text pass here on every goal request (four
 * regular expressions per call were 4% of a goal request).
 */
export function squash(s: string | null | undefined): string {
  return s ? memoSquash(s) : "";
}
