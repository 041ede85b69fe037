import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ML_RERANK_REASONS, MlRerankSchema, RefinedElementSchema } from "@sightline/shared/contract";
import { ALL_FEATURES, createLinearReranker, parseIntent, rankByGoal, type LinearModel, type Reranker } from "@sightline/shared/rank";
import { cand } from "./make.js";

const top = (goal: string, cs: ReturnType<typeof cand>[], reranker: Reranker | null = null) => rankByGoal(goal, cs, { reranker }).elements[0].id;

const form = () => [
  cand({ id: 1, tag: "a", role: "link", text: "Search help", href: "/help/search" }),
  cand({ id: 2, tag: "input", role: "searchbox", inputType: "search", attrs: { placeholder: "Search products" } }),
  cand({ id: 3, tag: "button", role: "button", text: "Search" }),
  cand({ id: 4, tag: "input", role: "checkbox", inputType: "checkbox", nearby: "Remember me" }),
  cand({ id: 5, tag: "select", role: "combobox", nearby: "Country" }),
];

describe("verbs → roles", () => {
  it("type/enter/fill intents go to the field, click intents to the button", () => {
    expect(top("type shoes into search", form())).toBe(2);
    expect(top("search for shoes", form())).toBe(2);
    expect(top("click the search button", form())).toBe(3);
    expect(top("press Search", form())).toBe(3);
  });
  it("check/tick go to the checkbox, choose/select to the dropdown", () => {
    expect(top("tick remember me", form())).toBe(4);
    expect(top("select your country", form())).toBe(5);
  });
  it("parses the verb class", () => {
    expect(parseIntent("Uncheck the newsletter box").verb).toBe("check");
    expect(parseIntent("Pick a size").verb).toBe("select");
    expect(parseIntent("Open the menu").verb).toBe("click");
    expect(parseIntent("Enter your email").verb).toBe("type");
  });
});

describe("stemming and synonyms", () => {
  it("matches inflected forms and WordNet/UI synonyms", () => {
    const cs = [
      cand({ id: 1, tag: "button", role: "button", text: "Purchase" }),
      cand({ id: 2, tag: "button", role: "button", text: "Settings" }),
      cand({ id: 3, tag: "a", role: "link", text: "Shipping options" }),
    ];
    expect(top("buy it", cs)).toBe(1); // buy ~ purchase (WordNet)
    expect(top("change the setting", cs)).toBe(2); // setting ~ settings (stem)
    expect(top("see shipped option", cs)).toBe(3);
  });
});

describe("quoted strings and numbers", () => {
  it("an exact quoted match beats a partial one", () => {
    const cs = [
      cand({ id: 1, tag: "button", role: "button", text: "Ok, not now" }),
      cand({ id: 2, tag: "button", role: "button", text: "Ok" }),
      cand({ id: 3, tag: "button", role: "button", text: "Cancel" }),
    ];
    expect(top('Click on the "Ok" button.', cs)).toBe(2);
    expect(top('Click "Ok, not now"', cs)).toBe(1);
  });
  it("numbers match exactly, not as substrings", () => {
    const cs = [3, 4, 5, 14].map((k, i) => cand({ id: i + 1, tag: "button", role: "button", text: String(k) }));
    expect(top("press the button 4", cs)).toBe(2);
    expect(top("press 14", cs)).toBe(4);
  });
  it("a coordinate tuple matches the element whose id carries it", () => {
    const cs = ["(0,1)", "(1,0)", "(-1,0)"].map((t, i) => cand({ id: i + 1, tag: "circle", role: "generic", attrs: { id: t } }));
    expect(top("Click on the grid coordinate (1,0).", cs)).toBe(2);
    expect(top("Click on the grid coordinate (-1, 0).", cs)).toBe(3);
  });
});

describe("ordinals", () => {
  const results = () => [
    cand({ id: 10, tag: "a", role: "link", text: "Home", group: "nav", groupIndex: 0, dominant: false }),
    ...[0, 1, 2, 3].map((k) => cand({ id: 20 + k, tag: "a", role: "link", text: `Result title ${"abcd"[k]}`, group: "main", groupIndex: k, dominant: true, box: [10, 100 + k * 40, 300, 20] })),
    cand({ id: 30, tag: "button", role: "button", text: "Next", group: "main", groupIndex: 4, dominant: true, box: [10, 300, 60, 20] }),
  ];
  it("resolves first/third/2nd/last inside the dominant group, per role", () => {
    expect(top("open the first result", results())).toBe(20);
    expect(top("click the third link", results())).toBe(22);
    expect(top("2nd link", results())).toBe(21);
    expect(top("the last link", results())).toBe(23);
  });
});

describe("labels credited to inputs", () => {
  it("the label next to a field makes the field the target, including dates as values", () => {
    const cs = [
      cand({ id: 1, tag: "label", role: "generic", text: "Depart" }),
      cand({ id: 2, tag: "input", role: "textbox", nearby: "Depart", attrs: { name: "segments[0].travelDate" } }),
      cand({ id: 3, tag: "label", role: "generic", text: "Return" }),
      cand({ id: 4, tag: "input", role: "textbox", nearby: "Return", attrs: { name: "segments[1].travelDate" } }),
      cand({ id: 5, tag: "input", role: "textbox", nearby: "From", attrs: { name: "origin" } }),
      cand({ id: 6, tag: "input", role: "textbox", nearby: "To", attrs: { name: "destination" } }),
      cand({ id: 7, tag: "a", role: "link", text: "Return to home" }),
    ];
    expect(top("depart on March 6", cs)).toBe(2);
    expect(top("Set the return date to 03/24/2017", cs)).toBe(4);
    expect(top("Enter Dallas as the departure city", cs)).toBe(5);
    expect(top("Put Austin in the To field", cs)).toBe(6);
  });
});

describe("superlatives", () => {
  it("picks the cheapest / most expensive offer", () => {
    const cs = [558, 145, 1681].map((p, i) => cand({ id: i + 1, tag: "button", role: "button", text: `Book for $${p}` }));
    expect(top("Buy the ticket with the cheapest cost.", cs)).toBe(2);
    expect(top("Buy the ticket with the most expensive cost.", cs)).toBe(3);
  });
});

describe("the web's common intents", () => {
  it("sign in is log in, not sign up or subscribe", () => {
    const cs = [
      cand({ id: 1, tag: "a", role: "link", text: "Sign Up", href: "/register" }),
      cand({ id: 2, tag: "a", role: "link", text: "Subscribe Now", href: "/subscribe" }),
      cand({ id: 3, tag: "a", role: "link", text: "Log In", href: "/account/login" }),
    ];
    expect(top("sign in", cs)).toBe(3);
  });
  it("a share goal naming a network picks that network's button, not another network's or a follow link", () => {
    const cs = [
      cand({ id: 1, tag: "a", role: "link", text: "", href: "https://www.facebook.com/sharer/sharer.php?u=x", attrs: { class_name: "share-facebook" } }),
      cand({ id: 2, tag: "a", role: "link", text: "Follow us on Twitter", href: "https://twitter.com/acme" }),
      cand({ id: 3, tag: "a", role: "link", text: "", href: "https://twitter.com/intent/tweet?url=x", attrs: { class_name: "share-twitter" } }),
    ];
    expect(parseIntent("share this article on Twitter").options).toEqual(["0:twitter"]);
    expect(top("share this article on Twitter", cs)).toBe(3);
  });
  it("a site search's term is typed into the search box, not matched against links", () => {
    const cs = [
      cand({ id: 1, tag: "a", role: "link", text: "Privacy policy", href: "/privacy" }),
      cand({ id: 2, tag: "input", role: "searchbox", inputType: "search", attrs: { placeholder: "Search…" } }),
    ];
    expect(parseIntent("search the site for privacy policy").searchTerm).toEqual(["privacy", "policy"]);
    expect(top("search the site for privacy policy", cs)).toBe(2);
  });
  it("a newsletter is signed up to with an email field outside the log-in form", () => {
    const cs = [
      cand({ id: 1, tag: "a", role: "link", text: "Email", href: "mailto:hello@example.com" }),
      cand({ id: 2, tag: "input", role: "textbox", inputType: "email", name: "Email", attrs: { purpose: "Sign in" } }),
      cand({ id: 3, tag: "input", role: "textbox", inputType: "email", name: "your@email.com", attrs: { placeholder: "your@email.com" } }),
    ];
    expect(top("subscribe to the newsletter with my email", cs)).toBe(3);
  });
});

describe("the committed reranker", () => {
  const committed = createLinearReranker(JSON.parse(readFileSync(fileURLToPath(new URL("../../src/rank/model.json", import.meta.url)), "utf8")));
  // Result cards: the duration is only in each button's card text (collector context_text).
  const cards = () =>
    [["16h 52m", 558], ["2h 23m", 145], ["25h 27m", 185], ["8h 18m", 1977]].map(([d, p], i) =>
      cand({ id: i + 1, tag: "button", role: "button", text: `Book for $${p}`, attrs: { context_text: `Duration: ${d} Book for $${p}` } }),
    );

  it("reads a card's text to pick the longest / shortest option, which the heuristic cannot see", () => {
    expect(top("Buy the ticket with the longest duration.", cards())).not.toBe(3);
    expect(top("Buy the ticket with the longest duration.", cards(), committed)).toBe(3);
    expect(top("Book the shortest one", cards(), committed)).toBe(2);
    // Price is on the button itself: both agree.
    expect(top("Buy the cheapest ticket", cards(), committed)).toBe(2);
  });

  it("picks the row whose card names the goal's city among identical action buttons", () => {
    const rows = ["Paris 9:15 Nonstop $320", "Berlin 11:40 1 stop $210", "Rome 7:05 Nonstop $450"].map((c, i) =>
      cand({ id: i + 1, tag: "button", role: "button", text: "Select", attrs: { context_text: `${c} Select` } }),
    );
    expect(top("Select the flight to Berlin", rows, committed)).toBe(2);
  });
});

const model = (w: (f: string) => number): LinearModel => ({
  format: "sightline-rank-linear/1",
  name: "test",
  features: [...ALL_FEATURES],
  mean: ALL_FEATURES.map(() => 0),
  scale: ALL_FEATURES.map(() => 1),
  weights: ALL_FEATURES.map(w),
  min_confidence: 0.5,
});

describe("ml_rerank", () => {
  it("fills every field and per-element ranks when the model runs", () => {
    const reranker = createLinearReranker(model((f) => (f === "heuristic_score" ? 1 : f === "is_entry" ? -3 : 0)));
    const r = rankByGoal("search for shoes", form(), { reranker });
    expect(MlRerankSchema.parse(r.ml_rerank)).toBeTruthy();
    expect(r.ml_rerank).toMatchObject({ enabled: true, applied: true, reason: "applied", candidate_count: 5, error: null, min_confidence: 0.5 });
    expect(r.ml_rerank.tags).toContain("verb:type");
    // The model's negative weight on fields moves the search box down: fused order differs from heuristic.
    expect(r.elements[0].id).not.toBe(2);
    expect(r.elements.find((e) => e.id === 2)!.heuristic_index).toBe(0);
    let sum = 0;
    r.elements.forEach((e, i) => {
      RefinedElementSchema.parse(e);
      expect(e.fused_rank_index).toBe(i);
      expect(e.ml_probability).toBeGreaterThanOrEqual(0);
      expect(e.ml_probability).toBeLessThanOrEqual(1);
      expect(typeof e.ml_score).toBe("number");
      sum += e.ml_probability!;
      if (i > 0) expect(e.importance).toBeLessThanOrEqual(r.elements[i - 1].importance);
    });
    expect(sum).toBeCloseTo(1, 6);
    expect(r.ml_rerank.top_probability).toBeCloseTo(r.elements[0].ml_probability!, 9);
    expect(ML_RERANK_REASONS).toContain(r.ml_rerank.reason);
  });

  it("falls back to the heuristic order with error set when the model throws or returns NaN", () => {
    const baseline = rankByGoal("search for shoes", form()).elements.map((e) => e.id);
    for (const bad of [
      { name: "boom", minConfidence: 0.5, score: () => { throw new Error("boom"); } },
      { name: "nan", minConfidence: 0.5, score: (rows: readonly Float64Array[]) => new Float64Array(rows.length).fill(Number.NaN) },
    ] satisfies Reranker[]) {
      const r = rankByGoal("search for shoes", form(), { reranker: bad });
      expect(r.ml_rerank).toMatchObject({ enabled: true, applied: false, reason: "error" });
      expect(r.ml_rerank.error).toBeTruthy();
      expect(r.elements.map((e) => e.id)).toEqual(baseline);
      expect(r.elements.every((e) => e.ml_probability === null && e.ml_score === null)).toBe(true);
      expect(r.elements.map((e) => e.fused_rank_index)).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it("limit builds only the first elements of the same order, with the same fields; ml_rerank still counts every candidate", () => {
    const reranker = createLinearReranker(model((f) => (f === "heuristic_score" ? 1 : 0.1)));
    const all = rankByGoal("search for shoes", form(), { reranker });
    const two = rankByGoal("search for shoes", form(), { reranker, limit: 2 });
    expect(two.elements).toEqual(all.elements.slice(0, 2));
    expect(two.ml_rerank).toEqual(all.ml_rerank);
    expect(two.ml_rerank.candidate_count).toBe(5);
    expect(rankByGoal("search for shoes", form(), { limit: 0 }).elements).toEqual([]);
  });

  it("says disabled without a model and too_few_candidates with one element", () => {
    const off = rankByGoal("search", form());
    expect(off.ml_rerank).toMatchObject({ enabled: false, applied: false, reason: "disabled", error: null });
    expect(off.elements.every((e, i) => e.heuristic_index === e.fused_rank_index && e.fused_rank_index === i)).toBe(true);
    const one = rankByGoal("search", form().slice(0, 1), { reranker: createLinearReranker(model(() => 0)) });
    expect(one.ml_rerank).toMatchObject({ enabled: true, applied: false, reason: "too_few_candidates" });
  });

  it("rejects a malformed model file", () => {
    expect(() => createLinearReranker({ format: "x" })).toThrow();
    expect(() => createLinearReranker({ ...model(() => 0), features: ["nope"], weights: [1], mean: [0], scale: [1] })).toThrow(/unknown feature/);
  });

  it("is deterministic", () => {
    const reranker = createLinearReranker(model((f) => (f === "heuristic_score" ? 1 : 0.1)));
    const a = rankByGoal("click the third link", form(), { reranker });
    const b = rankByGoal("click the third link", form(), { reranker });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });
});
