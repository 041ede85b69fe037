import { describe, expect, it } from "vitest";
import { diff, MOVE_THRESHOLD_PX } from "@sightline/shared/prompt";
import { element } from "./element.js";

describe("diff", () => {
  it("marks added, removed, modified, moved and unchanged elements by id", () => {
    const prev = { elements: [element(1), element(2), element(3), element(4), element(5, { value: "a" })] };
    const cur = {
      url: "u",
      elements: [
        element(1),
        element(2, { text: "Button 2 (3 items)" }),
        element(3, { center_x: 60 + MOVE_THRESHOLD_PX + 5 }),
        element(5, { value: "ab" }),
        element(6),
      ],
    };
    const d = diff(prev, cur);
    const status = Object.fromEntries(d.elements.map((e) => [e.id, e.diff_status]));
    expect(status).toEqual({ 1: null, 2: "MODIFIED", 3: "MOVED", 4: "REMOVED", 5: "MODIFIED", 6: "ADDED" });
    expect(d.diff_summary).toEqual({ added: 1, removed: 1, modified: 2, moved: 1, unchanged: 1 });
    expect(d.url).toBe("u");
    expect(d.elements.at(-1)?.id).toBe(4); // removed ones come last, from previous
  });

  it("ignores scrolling, whitespace and sub-threshold jitter", () => {
    const prev = { elements: [element(1, { text: "Save  now", center_y: 300, doc_y: 300 })] };
    const cur = { elements: [element(1, { text: "Save now", center_y: 100, doc_y: 300 + MOVE_THRESHOLD_PX - 1, bbox: { x: 12, y: 90, width: 104, height: 20 } })] };
    expect(diff(prev, cur).elements[0].diff_status).toBeNull();
  });

  it("treats a state change (checked, disabled, expanded) as MODIFIED, and a resize as MOVED", () => {
    const prev = { elements: [element(1, { checked: false }), element(2, { expanded: false }), element(3)] };
    const cur = { elements: [element(1, { checked: true }), element(2, { expanded: true }), element(3, { bbox: { x: 10, y: 30, width: 300, height: 20 } })] };
    expect(diff(prev, cur).elements.map((e) => e.diff_status)).toEqual(["MODIFIED", "MODIFIED", "MOVED"]);
  });

  it("does not modify its inputs", () => {
    const prev = { elements: [element(1)] };
    const cur = { elements: [element(2)] };
    diff(prev, cur);
    expect(cur.elements[0].diff_status).toBeNull();
    expect(prev.elements).toHaveLength(1);
  });
});
