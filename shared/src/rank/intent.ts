// Goal parsing: what the user wants to do (verb class), to what (object words, quoted strings,
// numbers, role nouns), and which one (ordinals, superlatives, dates as values).
import { LABEL_WORDS, STOPWORDS, normalize, squash, stem, synonymStems, tokens } from "./text.js";
import { CONCEPTS, OPTION_GROUP_OF, SEARCH_BIT, TYPED, conceptBit, goalConcepts, nearOf, optionsOf, widen } from "./concepts.js";

export type VerbClass = "type" | "click" | "select" | "check" | "none";

const VERBS: Record<Exclude<VerbClass, "none">, string[]> = {
  type: ["type", "enter", "fill", "write", "input", "put", "insert", "search", "set", "provide", "specify", "add", "change"],
  click: ["click", "press", "tap", "open", "go", "follow", "navigate", "visit", "hit", "push", "close", "dismiss", "submit", "buy", "book", "switch", "run", "find", "show", "view", "login", "log", "sign"],
  select: ["select", "choose", "pick", "opt"],
  check: ["check", "tick", "toggle", "uncheck", "untick", "enable", "disable", "mark", "unmark"],
};
const VERB_OF = new Map<string, Exclude<VerbClass, "none">>();
// Keyed by stem so "entering", "clicked", "selects" find their class.
for (const [cls, words] of Object.entries(VERBS) as [Exclude<VerbClass, "none">, string[]][]) {
  for (const w of words) if (!VERB_OF.has(stem(w))) VERB_OF.set(stem(w), cls);
}

/** Nouns that name a kind of control, mapped to the roles they mean. */
export const ROLE_NOUNS: Record<string, string[]> = {
  button: ["button"],
  btn: ["button"],
  link: ["link"],
  hyperlink: ["link"],
  tab: ["tab"],
  tabs: ["tab"],
  checkbox: ["checkbox", "switch"],
  box: ["textbox", "searchbox", "combobox", "checkbox"],
  field: ["textbox", "searchbox", "combobox", "spinbutton"],
  input: ["textbox", "searchbox", "combobox", "spinbutton"],
  textbox: ["textbox", "searchbox"],
  searchbox: ["searchbox", "textbox"],
  dropdown: ["combobox", "listbox"],
  menu: ["combobox", "menuitem", "listbox"],
  list: ["combobox", "listbox"],
  option: ["option", "radio", "menuitem", "combobox", "tab"],
  radio: ["radio"],
  toggle: ["switch", "checkbox"],
  switch: ["switch", "checkbox", "tab", "link"],
  slider: ["slider"],
  image: ["img"],
  picture: ["img"],
  icon: ["img", "button"],
  heading: ["heading"],
  title: ["heading"],
  item: ["menuitem", "listitem", "option"],
  result: ["link", "listitem"],
  date: ["textbox", "combobox"],
};

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  last: -1,
};

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_ABBR = MONTHS.map((m) => m.slice(0, 3));

export type Superlative = { kind: "min" | "max"; of: "price" | "duration" | "number" };

export interface Intent {
  raw: string;
  verb: VerbClass;
  /** Stem of the word that set the verb class ("find" in "find the flights"), null without one. */
  verbStem: string | null;
  /** Object words (not stopwords/verbs), with stems and synonym stems. */
  words: { word: string; stem: string; syn: string[] }[];
  /** Quoted strings, squashed. */
  quoted: string[];
  /** Quoted strings as written (case and punctuation kept, whitespace collapsed). */
  quotedRaw: string[];
  /** Field-label words ("from", "to") found in the goal: weak evidence, kept apart from `words`. */
  labelWords: string[];
  /** Numbers and number-like tokens written in the goal (digits only, "(0,1)" kept as written too). */
  numbers: string[];
  /** Coordinate-like tuples written in the goal, squashed without spaces: "(0,1)". */
  tuples: string[];
  /** Roles named by nouns in the goal ("the submit button" → button). */
  roleHints: Set<string>;
  /** 1-based ordinal, -1 for "last", null for none. */
  ordinal: number | null;
  superlative: Superlative | null;
  /** The goal carries a date value (a field should receive it). */
  hasDate: boolean;
  /** The goal carries a value to enter (date, number, quoted string after a type verb, "with X"). */
  hasValue: boolean;
  /** Bits of the web intents the goal names (concepts.ts). */
  ownConcepts: number;
  /** The same widened to their equivalents (sign in ~ my account). */
  concepts: number;
  /** Bits of the intents a goal for those must not be mistaken for (sign up, for "sign in"). */
  near: number;
  /** Named options ("0:twitter", "1:fr") of a share or language goal, which choose among look-alikes. */
  options: readonly string[];
  /** A site search's term ("returns" in "search the site for returns"): what to type, not words to find. */
  searchTerm: string[];
}

const SUPERLATIVES: [RegExp, Superlative][] = [
  [/\b(cheapest|least expensive|lowest (price|cost|fare))\b/, { kind: "min", of: "price" }],
  [/\b(most expensive|priciest|highest (price|cost|fare))\b/, { kind: "max", of: "price" }],
  [/\b(shortest|quickest|fastest)\b/, { kind: "min", of: "duration" }],
  [/\b(longest|slowest)\b/, { kind: "max", of: "duration" }],
  [/\b(smallest|lowest|fewest|least)\b/, { kind: "min", of: "number" }],
  [/\b(largest|biggest|highest|most)\b/, { kind: "max", of: "number" }],
];

/**
 * Only the start of a goal is read, and only its first distinct object words are matched: a
 * goal is a sentence, and an unbounded one (the body limit allows megabytes) would make every
 * candidate's matching, and the per-request word table, grow with it.
 */
export const MAX_GOAL_CHARS = 1000;

/** Verbs that ask for a click whatever the goal is about. */
const EXPLICIT_CLICK = new Set(["click", "press", "tap", "hit", "push"].map(stem));

/** Words of a site search itself (what is left is the term searched for). */
const SEARCH_WORDS = new Set(["search", "find", "look", "site", "website", "box", "field", "bar", "type", "enter", "term", "query", "using"].map(stem));
export const MAX_GOAL_WORDS = 64;

export function parseIntent(fullGoal: string): Intent {
  const goal = fullGoal.length > MAX_GOAL_CHARS ? fullGoal.slice(0, MAX_GOAL_CHARS) : fullGoal;
  const norm = normalize(goal);
  const quoted: string[] = [];
  const quotedRaw: string[] = [];
  const cased = goal.normalize("NFKC").replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'");
  for (const m of cased.matchAll(/"([^"]+)"|«([^»]+)»|(?:^|[\s(])'([^']+)'(?=$|[\s.,;:!?)])/g)) {
    const text = m[1] ?? m[2] ?? m[3] ?? "";
    const q = squash(text);
    if (q) {
      quoted.push(q);
      quotedRaw.push(text.replace(/\s+/g, " ").trim());
    }
  }
  const tuples = [...norm.matchAll(/\(\s*-?\d+(?:\.\d+)?\s*(?:,\s*-?\d+(?:\.\d+)?\s*)+\)/g)].map((m) => m[0].replace(/\s+/g, ""));
  const dateRes = [
    /\b\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b/g,
    new RegExp(`\\b(${MONTHS.join("|")}|${MONTH_ABBR.join("|")})\\b\\.?\\s*\\d{1,2}(st|nd|rd|th)?\\b`, "g"),
    new RegExp(`\\b(the\\s+)?\\d{1,2}(st|nd|rd|th)?\\s+(of\\s+)?(${MONTHS.join("|")})\\b`, "g"),
  ];
  const hasDate = dateRes.some((re) => new RegExp(re.source).test(norm));
  // Numbers that are part of a date are the date's, not a count or a label to match.
  let undated = norm;
  for (const re of dateRes) undated = undated.replace(re, " ");
  const numbers = [...undated.replace(/\([^)]*\)/g, " ").matchAll(/-?\d+(?:[.,:]\d+)*/g)].map((m) => m[0]);

  const toks = tokens(goal);
  let verb: VerbClass = "none";
  let verbStem: string | null = null;
  const roleHints = new Set<string>();
  let ordinal: number | null = null;
  const words: Intent["words"] = [];
  const labelWords: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const v = VERB_OF.get(stem(t));
    // The first verb sets the intent ("search for shoes" is a type intent, "click search" a click).
    if (v && verb === "none") {
      verb = v;
      verbStem = stem(t);
      // "search" is also an object (the search box); keep it as a word too.
      if (t !== "search" && t !== "close" && t !== "dismiss" && t !== "submit" && t !== "buy" && t !== "book" && t !== "login" && t !== "sign") continue;
    }
    if (t in ORDINALS) {
      ordinal = ORDINALS[t];
      continue;
    }
    const ordNum = /^(\d+)(st|nd|rd|th)$/.exec(t);
    if (ordNum && !hasDate) {
      ordinal = Number(ordNum[1]);
      continue;
    }
    if (ROLE_NOUNS[t]) for (const r of ROLE_NOUNS[t]) roleHints.add(r);
    if (LABEL_WORDS.has(t)) {
      if (!labelWords.includes(t)) labelWords.push(t);
      continue;
    }
    if (STOPWORDS.has(t)) continue;
    if (seen.has(t) || words.length >= MAX_GOAL_WORDS) continue;
    seen.add(t);
    words.push({ word: t, stem: stem(t), syn: synonymStems(t) });
  }
  let superlative: Superlative | null = null;
  for (const [re, s] of SUPERLATIVES) {
    if (re.test(norm)) {
      superlative = s;
      break;
    }
  }
  const hasValue =
    hasDate || numbers.length > 0 || (verb === "type" && (quoted.length > 0 || /\b(with|as)\b/.test(norm)));
  const own = goalConcepts(goal);
  const concepts = widen(own);
  let hasValue2 = hasValue;
  // A newsletter is signed up to and a comment written in a field; a site search for a term
  // ("find returns on this site") is typed into the search box, whatever the verb.
  // An explicit click ("click the search button") or a named control keeps its verb.
  const explicit = (verbStem !== null && EXPLICIT_CLICK.has(verbStem)) || roleHints.has("button") || roleHints.has("link");
  const term = (own & SEARCH_BIT) !== 0 && !explicit ? words.filter((w) => !SEARCH_WORDS.has(w.stem) && !ROLE_NOUNS[w.word]) : [];
  let kept = words;
  if (!explicit && ((own & TYPED) !== 0 || term.length > 0) && verb !== "check" && verb !== "select") {
    verb = "type";
    if (term.length > 0) {
      hasValue2 = true;
      // The term is typed, not looked for: a "Privacy policy" link is no answer to "search the
      // site for privacy policy". The search words stay.
      kept = words.filter((w) => !term.includes(w));
      if (!kept.length) kept = words;
    }
  }
  let options: readonly string[] = [];
  for (const c of CONCEPTS) {
    const g = OPTION_GROUP_OF[c];
    if (g !== undefined && own & conceptBit(c)) options = [...options, ...optionsOf(goal).filter((o) => o.startsWith(`${g}:`))];
  }
  return {
    raw: goal, verb, verbStem, words: kept, quoted, quotedRaw, labelWords, numbers, tuples, roleHints, ordinal, superlative, hasDate, hasValue: hasValue2,
    ownConcepts: own, concepts, near: nearOf(own) & ~concepts, options, searchTerm: term.map((w) => w.word),
  };
}
