// Filter before limit, limit default and cap, goal ranking over all filtered candidates, ml_rerank.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { MlRerankSchema } from "@sightline/shared/contract";
import { button, input, link, listingPage, raw, request } from "./factory.js";

function manyLinks(n: number) {
  return Array.from({ length: n }, (_, i) => link(`Item ${i}`, { y: i * 10, in_viewport: i * 10 < 800 }));
}

describe("selection", () => {
  it("limit defaults to 50", () => {
    expect(refineSnapshot(request(manyLinks(120))).elements).toHaveLength(50);
  });

  it("a limit above the cap is reduced to the cap (default 100, or opts.cap)", () => {
    const els = manyLinks(300);
    expect(refineSnapshot(request(els, { options: { limit: 500 } })).elements).toHaveLength(100);
    expect(refineSnapshot(request(els, { options: { limit: 500 } }), { cap: 120 }).elements).toHaveLength(120);
    expect(refineSnapshot(request(els, { options: { limit: 7 } })).elements).toHaveLength(7);
  });

  it("filters before selecting: a limit of 3 with allowed_roles still returns 3 of that role", () => {
    // 60 important text fields would fill any limit if the filter ran after selection.
    const fields = Array.from({ length: 60 }, (_, i) => input("text", { y: i * 10, attributes: { aria_label: `F${i}` } }));
    const buttons = [button("One", { y: 900, in_viewport: false }), button("Two", { y: 950, in_viewport: false }),
      button("Three", { y: 990, in_viewport: false }), button("Four", { y: 1000, in_viewport: false })];
    const out = refineSnapshot(request([...fields, ...buttons], { options: { limit: 3, filter: { allowed_roles: ["button"] } } }));
    expect(out.elements.map((e) => e.text)).toEqual(["One", "Two", "Three"]);
  });

  it("min_area drops small elements and allowed_tags whitelists tags (case-insensitive)", () => {
    const tiny = button("x", { width: 5, height: 5 });
    const big = button("Big", { y: 100, width: 100, height: 40 });
    const a = link("Home", { y: 200 });
    const out = refineSnapshot(request([tiny, big, a], { options: { filter: { min_area: 100 } } })).elements.map((e) => e.id);
    expect(out).toEqual(expect.arrayContaining([big.id, a.id]));
    expect(out).not.toContain(tiny.id);
    const tags = refineSnapshot(request([tiny, big, a], { options: { filter: { allowed_tags: ["A"] } } })).elements.map((e) => e.id);
    expect(tags).toEqual([a.id]);
  });

  it("an empty whitelist does not filter", () => {
    const out = refineSnapshot(request([button("A"), link("B", { y: 200 })], { options: { filter: { allowed_roles: [], allowed_tags: [] } } }));
    expect(out.elements).toHaveLength(2);
  });

  it("allowed_roles 'submit' keeps submit buttons only; 'input' keeps form fields", () => {
    const submit = raw("input", { attributes: { input_type: "submit", value: "Send" } });
    const plain = button("Menu", { attributes: { type_: "button" } });
    const field = input("text");
    const box = input("checkbox", { y: 50 });
    const sub = refineSnapshot(request([submit, plain, field], { options: { filter: { allowed_roles: ["submit"] } } }));
    expect(sub.elements.map((e) => e.id)).toEqual([submit.id]);
    const inp = refineSnapshot(request([submit, plain, field, box], { options: { filter: { allowed_roles: ["input"] } } }));
    expect(inp.elements.map((e) => e.id).sort()).toEqual([field.id, box.id].sort());
  });

  it("without a goal ml_rerank is present and says no_goal", () => {
    const r = refineSnapshot(request([button("A")]));
    expect(MlRerankSchema.safeParse(r.ml_rerank).success).toBe(true);
    expect(r.ml_rerank).toMatchObject({ enabled: false, applied: false, reason: "no_goal", candidate_count: 1, error: null });
    const withModel = refineSnapshot(request([button("A")]), { reranker: { name: "test" } });
    expect(withModel.ml_rerank).toMatchObject({ enabled: true, applied: false, reason: "no_goal" });
  });

  it("with goal 'search for shoes' the search box comes first on a page with many links", () => {
    const p = listingPage(80);
    // Links that mention the goal's object words compete with the search box.
    p.elements.push(link("Shoes", { y: 60, x: 900 }), link("Shoe sale", { y: 60, x: 1000 }));
    const r = refineSnapshot(request(p.elements, { goal: "search for shoes" }));
    expect(r.elements[0].id).toBe(p.search.id);
    expect(r.elements).toHaveLength(50);
    expect(r.elements[0].heuristic_index).toBe(0);
    expect(r.ml_rerank).not.toBeNull();
  });

  it("with a goal the limit applies after ranking all filtered candidates", () => {
    const els = manyLinks(200);
    const target = link("Contact us", { y: 5000, in_viewport: false });
    els.push(target);
    const r = refineSnapshot(request(els, { goal: "open contact us", options: { limit: 5 } }));
    expect(r.elements).toHaveLength(5);
    expect(r.elements[0].id).toBe(target.id);
  });

  it("a blank goal behaves like no goal", () => {
    const r = refineSnapshot(request([button("A")], { goal: "   " }));
    expect(r.ml_rerank?.reason).toBe("no_goal");
  });
});
