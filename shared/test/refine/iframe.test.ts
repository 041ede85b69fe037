// iframe_content flattening.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { button, input, raw, request } from "./factory.js";

describe("iframe flattening", () => {
  it("frame children are refined like top-level elements, nested frames too", () => {
    const inner = button("Pay now", { x: 500, y: 420 });
    const nestedField = input("text", { x: 500, y: 480, attributes: { aria_label: "Card number" } });
    const nestedFrame = raw("iframe", { x: 480, y: 470, width: 400, height: 100, iframe_content: [nestedField] });
    const frame = raw("iframe", { x: 450, y: 400, width: 500, height: 300, iframe_content: [inner, nestedFrame] });
    const r = refineSnapshot(request([button("Top"), frame]));
    const ids = r.elements.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([inner.id, nestedField.id, frame.id, nestedFrame.id]));
    expect(r.elements[0].id).toBe(nestedField.id);
    expect(r.elements.find((e) => e.id === inner.id)!.bbox).toEqual({ x: 500, y: 420, width: 100, height: 30 });
    expect(r.diagnostics!.metrics.raw_elements_count).toBe(5);
    expect(r.elements.find((e) => e.id === frame.id)!.role).toBe("iframe");
  });

  it("junk inside iframe_content is skipped, not fatal", () => {
    const frame = raw("iframe", { iframe_content: [null, 3, { id: 9 }, button("Ok", { id: 10 })] as never });
    const r = refineSnapshot(request([frame]));
    expect(r.elements.map((e) => e.id).sort()).toEqual([10, frame.id].sort());
  });

  it("a goal reaches elements inside frames", () => {
    const pay = button("Pay now", { y: 600 });
    const frame = raw("iframe", { y: 500, width: 500, height: 300, iframe_content: [pay] });
    const r = refineSnapshot(request([button("Cancel"), button("Back"), frame], { goal: "click pay now" }));
    expect(r.elements[0].id).toBe(pay.id);
  });
});
