import { describe, expect, it } from "vitest";
import { BASE_FEATURES, computeFeatures, parseIntent, rankByGoal, type Intent } from "@sightline/shared/rank";
import { MAX_GOAL_CHARS, MAX_GOAL_WORDS } from "../../src/rank/intent.js";
import { cand } from "./make.js";
import { DATE_WORD, EXACT, GoalLexicon, IN_GOAL, STEM, SYNONYM, VERB_WORD } from "../../src/rank/lexicon.js";

const levels = (lex: GoalLexicon, words: string[]) => {
  const out = new Int32Array(lex.width);
  const flags = lex.fold(words, out);
  return { levels: [...out], flags };
};

describe("GoalLexicon: what a page word means for the goal", () => {
  it("grades each goal word: the word itself, its stem, a synonym, or nothing", () => {
    const lex = new GoalLexicon(parseIntent("buy running shoes"));
    // Goal words (the verb "buy" is kept as an object word too): buy, running, shoes.
    expect(parseIntent("buy running shoes").words.map((w) => w.word)).toEqual(["buy", "running", "shoes"]);
    expect(levels(lex, ["shoes"]).levels).toEqual([0, 0, EXACT]);
    expect(levels(lex, ["shoe"]).levels).toEqual([0, 0, STEM]);
    expect(levels(lex, ["purchase"]).levels).toEqual([SYNONYM, 0, 0]);
    expect(levels(lex, ["hats"]).levels).toEqual([0, 0, 0]);
    // Folding several words keeps the best level per goal word.
    expect(levels(lex, ["shoe", "purchase", "shoes", "run"]).levels).toEqual([SYNONYM, STEM, EXACT]);
  });

  it("flags words the goal mentions, date words, the goal's verb and field-label words", () => {
    const lex = new GoalLexicon(parseIntent("find flights from Paris"));
    expect(levels(lex, ["paris"]).flags & IN_GOAL).toBe(IN_GOAL);
    expect(levels(lex, ["departing"]).flags & DATE_WORD).toBe(DATE_WORD);
    expect(levels(lex, ["search"]).flags & VERB_WORD).toBe(VERB_WORD); // find ~ search
    expect(levels(lex, ["from"]).flags & GoalLexicon.labelFlag(0)).toBe(GoalLexicon.labelFlag(0));
    expect(levels(lex, ["hotels"]).flags).toBe(0);
  });

  it("answers the same for a word after thousands of other words have been looked up", () => {
    const goal = "alpha bravo cedar delta ember falcon garnet harbor indigo jasper kernel lumen maple shoes";
    const lex = new GoalLexicon(parseIntent(goal));
    const first = levels(lex, ["shoe", "maple"]);
    // A long goal makes wide rows; 5,000 distinct words outgrow the table several times.
    for (let i = 0; i < 5000; i++) levels(lex, [`word${i}`]);
    expect(levels(lex, ["shoe", "maple"])).toEqual(first);
    expect(first.levels.at(-1)).toBe(STEM);
    expect(first.levels.at(-2)).toBe(EXACT);
    expect(lex.countInGoal(["shoe", "word7", "maple"])).toBe(2);
  });
});

describe("GoalLexicon: wide rows", () => {
  it("keeps every row when one row is wider than the table grows in one step", () => {
    // 2,100 goal words: a row (2,101 cells) is wider than the first table (1,024 cells).
    const wide: Intent = { ...parseIntent("x"), words: Array.from({ length: 2100 }, (_, i) => ({ word: `w${i}`, stem: `w${i}`, syn: [] })) };
    const lex = new GoalLexicon(wide);
    const a = levels(lex, ["w0"]);
    const b = levels(lex, ["w2099"]);
    expect(a.levels[0]).toBe(EXACT);
    expect(b.levels[2099]).toBe(EXACT);
    expect(levels(lex, ["w0"])).toEqual(a);
  });
});

describe("goal features", () => {
  const col = (name: (typeof BASE_FEATURES)[number]) => BASE_FEATURES.indexOf(name);

  it("reads each candidate afresh: a match on one never carries over to the next", () => {
    const intent = parseIntent("open settings");
    const rows = computeFeatures(intent, [
      cand({ id: 1, tag: "a", role: "link", text: "Settings", nearby: "settings", href: "/settings" }),
      cand({ id: 2, tag: "a", role: "link", text: "Help" }),
    ]);
    expect(rows[0][col("cov_exact")]).toBe(1);
    expect(rows[0][col("cov_nearby")]).toBe(1);
    for (const f of ["cov_exact", "cov_stem", "cov_syn", "cov_nearby", "cov_attr", "precision"] as const) expect(rows[1][col(f)], f).toBe(0);
  });

  it("reads a goal's start only: what follows its first characters and words changes nothing", () => {
    const cs = () => [
      cand({ id: 1, tag: "a", role: "link", text: "Shoes sale" }),
      cand({ id: 2, tag: "input", role: "searchbox", inputType: "search", attrs: { placeholder: "Search" } }),
      cand({ id: 3, tag: "button", role: "button", text: "Zebra" }),
    ];
    const short = rankByGoal("search for shoes", cs()).elements.map((e) => [e.id, e.importance]);
    const long = rankByGoal(`search for shoes${" ".repeat(MAX_GOAL_CHARS)} zebra zebra zebra`, cs()).elements.map((e) => [e.id, e.importance]);
    expect(long).toEqual(short);
    const many = Array.from({ length: 200 }, (_, i) => `item${i}`).join(" ");
    expect(parseIntent(many).words).toHaveLength(MAX_GOAL_WORDS);
  });
});
