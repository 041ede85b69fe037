import { describe, expect, it } from "vitest";
import { parseIntent } from "@sightline/shared/rank";
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
