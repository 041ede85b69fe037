// What each word of a page means for one goal, worked out once per distinct word and request.
// A page of thousands of candidates repeats the same words; matching every candidate's words
// against the goal's words, stems and synonyms one by one (arrays of stems per candidate,
// `includes` per goal word) costs far more than one lookup per word in a table like this.
import type { Intent } from "./intent.js";
import { stem, synonymStems } from "./text.js";

/** Match levels of a page word against one goal word. */
export const EXACT = 3; // the goal word itself
export const STEM = 2; // same stem
export const SYNONYM = 1; // the stem of one of its synonyms

/** Per-word flags (the last cell of a word's row). */
export const IN_GOAL = 1; // its stem is a goal word's stem or synonym stem
export const DATE_WORD = 2; // a date-like stem ("depart", "checkin", "birth")
export const VERB_WORD = 4; // its stem is the goal verb's stem or a synonym of it
const LABEL_SHIFT = 3; // bits 3.. : the word is intent.labelWords[k]

const DATE_STEMS = new Set(["date", "day", "depart", "return", "arriv", "checkin", "checkout", "birth", "dob", "when", "calendar", "travel", "start", "end"].map(stem));

export class GoalLexicon {
  /** Number of goal words (intent.words); a row holds that many levels, then the flags. */
  readonly width: number;
  private readonly stride: number;
  private readonly at = new Map<string, number>();
  private table = new Int32Array(1024);
  private readonly goalStems: Set<string>;
  private readonly verbStems: string[];

  constructor(readonly intent: Intent) {
    // Label words are bits 3..30 of the flags (there are two today: "from", "to").
    if (intent.labelWords.length > 31 - LABEL_SHIFT) throw new Error("GoalLexicon: too many label words for the flag bits");
    this.width = intent.words.length;
    this.stride = this.width + 1;
    this.goalStems = new Set(intent.words.flatMap((w) => [w.stem, ...w.syn]));
    this.verbStems = intent.verbStem ? [intent.verbStem, ...synonymStems(intent.verbStem)] : [];
  }

  /** Offset of the word's row in the table. */
  private row(word: string): number {
    const known = this.at.get(word);
    if (known !== undefined) return known;
    const at = this.at.size * this.stride;
    if (at + this.stride > this.table.length) {
      let size = this.table.length * 2;
      while (at + this.stride > size) size *= 2;
      const bigger = new Int32Array(size);
      bigger.set(this.table);
      this.table = bigger;
    }
    const s = stem(word);
    const words = this.intent.words;
    for (let k = 0; k < words.length; k++) {
      const w = words[k];
      this.table[at + k] = word === w.word ? EXACT : s === w.stem ? STEM : w.syn.includes(s) ? SYNONYM : 0;
    }
    let flags = 0;
    if (this.goalStems.has(s)) flags |= IN_GOAL;
    if (DATE_STEMS.has(s)) flags |= DATE_WORD;
    if (this.verbStems.includes(s)) flags |= VERB_WORD;
    const labels = this.intent.labelWords;
    for (let k = 0; k < labels.length; k++) if (word === labels[k]) flags |= GoalLexicon.labelFlag(k);
    this.table[at + this.width] = flags;
    this.at.set(word, at);
    return at;
  }

  /** Raises `levels` (one per goal word) to the best level any of `words` reaches; returns the OR of their flags. */
  fold(words: readonly string[], levels: Int32Array): number {
    let flags = 0;
    const n = this.width;
    for (let i = 0; i < words.length; i++) {
      const at = this.row(words[i]);
      const t = this.table; // read after row(): it can grow
      for (let k = 0; k < n; k++) if (t[at + k] > levels[k]) levels[k] = t[at + k];
      flags |= t[at + n];
    }
    return flags;
  }

  /** The OR of the flags of `words`. */
  flags(words: readonly string[]): number {
    let flags = 0;
    for (let i = 0; i < words.length; i++) {
      const at = this.row(words[i]); // before reading the table: it can grow
      flags |= this.table[at + this.width];
    }
    return flags;
  }

  /** How many of `words` (repeats counted) have a stem the goal mentions. */
  countInGoal(words: readonly string[]): number {
    let hit = 0;
    for (let i = 0; i < words.length; i++) {
      const at = this.row(words[i]);
      if (this.table[at + this.width] & IN_GOAL) hit++;
    }
    return hit;
  }

  /** The flag of intent.labelWords[k]. */
  static labelFlag(k: number): number {
    return 1 << (LABEL_SHIFT + k);
  }
}
