// Importance ordering properties a user would notice, without a goal.
import { describe, expect, it } from "vitest";
import { refineSnapshot, toObserveImportance } from "@sightline/shared/refine";
import { RefinedElementSchema } from "@sightline/shared/contract";
import { button, input, link, listingPage, raw, request } from "./factory.js";

const rank = (els: ReturnType<typeof raw>[]) => refineSnapshot(request(els)).elements;
const pos = (els: { id: number }[], id: number) => els.findIndex((e) => e.id === id);

describe("importance", () => {
  it("a visible search box outranks a footer link", () => {
    const p = listingPage(30);
    const out = refineSnapshot(request(p.elements)).elements;
    expect(out[0].id).toBe(p.search.id);
    const footer = out.find((e) => e.id === p.footer.id);
    expect(footer === undefined || footer.importance < out[0].importance).toBe(true);
  });

  it("an occluded button loses to a visible one", () => {
    const hidden = button("Continue", { y: 100, is_occluded: true });
    const shown = button("Continue", { y: 200 });
    const out = rank([hidden, shown]);
    expect(pos(out, shown.id)).toBeLessThan(pos(out, hidden.id));
    expect(out[0].importance).toBeGreaterThan(out[1].importance);
  });

  it("an off-screen element loses to an in-viewport one", () => {
    const off = link("Details", { y: 3000, in_viewport: false });
    const on = link("Details", { y: 300 });
    const out = rank([off, on]);
    expect(out.map((e) => e.id)).toEqual([on.id, off.id]);
  });

  it("in_viewport is derived from the viewport when the collector does not send it", () => {
    const off = link("Below", { y: 3000, in_viewport: undefined });
    const on = link("Above", { y: 300, in_viewport: undefined });
    const out = rank([off, on]);
    expect(out.find((e) => e.id === off.id)!.in_viewport).toBe(false);
    expect(out[0].id).toBe(on.id);
  });

  it("role tiers order the page: fields, then buttons and links, then headings, then images", () => {
    const img = raw("img", { attributes: { alt: "Hero" }, width: 600, height: 300 });
    const h = raw("h1", { text: "Welcome" });
    const b = button("Sign in");
    const t = input("email", { attributes: { aria_label: "Email" } });
    const out = rank([img, h, b, t]);
    expect(out.map((e) => e.id)).toEqual([t.id, b.id, h.id, img.id]);
  });

  it("a labelled, large, coloured call-to-action beats a tiny anonymous button", () => {
    const cta = button("Buy now", { width: 200, height: 48, styles: { background_color: "#007bff", font_weight: "700" } });
    const icon = button("", { width: 10, height: 10 });
    const out = rank([icon, cta]);
    expect(out[0].id).toBe(cta.id);
    expect(out[0].visual_cues.is_primary).toBe(true);
    expect(out[1].visual_cues.is_primary).toBe(false);
    expect(out[0].visual_cues.background_color_name).toBe("blue");
  });

  it("disabled controls rank below enabled ones", () => {
    const off = button("Next", { attributes: { disabled: "" } });
    const on = button("Next", { y: 100 });
    expect(rank([off, on])[0].id).toBe(on.id);
  });

  it("ties keep page order (doc_y, then id) and indices follow positions", () => {
    const a = link("A", { y: 300 }), b = link("B", { y: 100 }), c = link("C", { y: 200 });
    const out = rank([a, b, c]);
    expect(out.map((e) => e.id)).toEqual([b.id, c.id, a.id]);
    expect(out.map((e) => e.heuristic_index)).toEqual([0, 1, 2]);
    expect(out.map((e) => e.fused_rank_index)).toEqual([0, 1, 2]);
    expect(out.every((e) => e.ml_probability === null && e.ml_score === null)).toBe(true);
  });

  it("every element matches the contract schema and stays within 0..1000", () => {
    const p = listingPage(10);
    const out = refineSnapshot(request([...p.elements, raw("canvas", { width: 2000, height: 2000 }), raw("div", { width: 0, height: 0 })])).elements;
    for (const e of out) {
      expect(RefinedElementSchema.safeParse(e).success).toBe(true);
      expect(e.importance).toBeGreaterThanOrEqual(0);
      expect(e.importance).toBeLessThanOrEqual(1000);
    }
  });

  it("toObserveImportance maps onto 0..100 preserving order", () => {
    const out = rank(listingPage(5).elements);
    const obs = out.map(toObserveImportance);
    expect(obs.every((v) => v >= 0 && v <= 100)).toBe(true);
    for (let i = 1; i < obs.length; i++) expect(obs[i]).toBeLessThanOrEqual(obs[i - 1]);
    expect(toObserveImportance({ importance: 1000 })).toBe(100);
    expect(toObserveImportance({ importance: 0 })).toBe(0);
  });

  it("text is trimmed, whitespace-collapsed and capped", () => {
    const long = "word ".repeat(200);
    const out = rank([raw("p", { text: "  Hello \n\t  world  " }), raw("p", { y: 50, text: long })]);
    expect(out.find((e) => e.text.startsWith("Hello"))!.text).toBe("Hello world");
    const capped = out.find((e) => e.text.startsWith("word"))!;
    expect(capped.text.length).toBeLessThanOrEqual(200);
  });
});
