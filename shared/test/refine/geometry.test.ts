// Viewport derivation, centres, doc_y, groups and the dominant group.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { button, link, raw, request } from "./factory.js";

describe("geometry", () => {
  it("derives the viewport from element bounds when omitted", () => {
    const els = [
      button("A", { x: 10, y: 10, width: 100, height: 30 }),
      button("B", { x: 900, y: 700, width: 300.5, height: 40 }),
      link("Below", { x: 0, y: 2000, width: 100, height: 20, in_viewport: false }),
    ];
    const r = refineSnapshot(request(els, { viewport: undefined }));
    expect(r.viewport).toEqual({ width: 1201, height: 740 });
    expect(r.diagnostics?.reasons.some((x) => x.code === "viewport_derived")).toBe(true);
  });

  it("without in_viewport flags the viewport spans all boxes; with no boxes it falls back to 1280x720", () => {
    const r = refineSnapshot(request([button("A", { x: 0, y: 0, width: 500, height: 900, in_viewport: undefined })], { viewport: undefined }));
    expect(r.viewport).toEqual({ width: 500, height: 900 });
    expect(refineSnapshot(request([], { viewport: undefined })).viewport).toEqual({ width: 1280, height: 720 });
  });

  it("keeps a sent viewport", () => {
    expect(refineSnapshot(request([button("A")], { viewport: { width: 400, height: 300 } })).viewport).toEqual({ width: 400, height: 300 });
  });

  it("computes centre and doc_y = center_y + scroll_y, or keeps the collector's values", () => {
    const r = refineSnapshot(request([
      button("A", { id: 1, x: 10, y: 20, width: 100, height: 40, scroll_y: 500 }),
      button("B", { id: 2, x: 0, y: 0, center_x: 7, center_y: 8, doc_y: 9 }),
    ]));
    const a = r.elements.find((e) => e.id === 1)!;
    const b = r.elements.find((e) => e.id === 2)!;
    expect([a.center_x, a.center_y, a.doc_y]).toEqual([60, 40, 540]);
    expect([b.center_x, b.center_y, b.doc_y]).toEqual([7, 8, 9]);
  });

  it("numbers items of a group 0.. by doc_y and names the most common group dominant", () => {
    const results = [300, 100, 200, 400].map((y, i) => link(`Result ${i}`, { x: 40, y, group_key: "results" }));
    const nav = [link("Home", { x: 0, y: 0, group_key: "nav" }), link("About", { x: 100, y: 0, group_key: "nav" })];
    const r = refineSnapshot(request([...nav, ...results]));
    expect(r.dominant_group_key).toBe("results");
    const byText = Object.fromEntries(r.elements.map((e) => [e.text, e]));
    expect([0, 1, 2, 3].map((i) => byText[`Result ${i}`].group_index)).toEqual([2, 0, 1, 3]);
    expect(byText["Result 0"].in_dominant_group).toBe(true);
    expect(byText["Home"].in_dominant_group).toBe(false);
    expect(byText["Home"].group_index).toBe(0);
    expect(byText["About"].group_index).toBe(1);
  });

  it("dominant-group ties go to the group higher on the page", () => {
    const r = refineSnapshot(request([
      link("b1", { y: 500, group_key: "b" }), link("b2", { y: 520, group_key: "b" }),
      link("a1", { y: 100, group_key: "a" }), link("a2", { y: 120, group_key: "a" }),
    ]));
    expect(r.dominant_group_key).toBe("a");
  });

  it("without collector keys, a vertical list and a horizontal menu each form one geometric group", () => {
    const list = [0, 1, 2, 3, 4].map((i) => link(`Row ${i}`, { x: 40, y: 200 + i * 30, width: 200 + i * 13 }));
    const menu = [0, 1, 2].map((i) => link(`Tab ${i}`, { x: 300 + i * 120, y: 20 }));
    const r = refineSnapshot(request([...menu, ...list]));
    const keys = (prefix: string) => new Set(r.elements.filter((e) => e.text.startsWith(prefix)).map((e) => e.group_key));
    expect(keys("Row").size).toBe(1);
    expect(keys("Tab").size).toBe(1);
    expect([...keys("Row")][0]).not.toEqual([...keys("Tab")][0]);
    expect(r.dominant_group_key).toBe([...keys("Row")][0]);
    const tabs = r.elements.filter((e) => e.text.startsWith("Tab")).sort((a, b) => a.center_x! - b.center_x!);
    expect(tabs.map((e) => e.group_index)).toEqual([0, 1, 2]);
  });

  it("an element without a box is kept with zero size but ranks last", () => {
    const r = refineSnapshot(request([raw("input", { width: 0, height: 0 }), button("Visible")]));
    expect(r.elements.map((e) => e.text)).toEqual(["Visible", ""]);
  });
});
