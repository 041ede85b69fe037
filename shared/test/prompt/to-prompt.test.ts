import { describe, expect, it } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { toPrompt, formatElement, countTokens } from "@sightline/shared/prompt";
import { element } from "./element.js";

describe("formatElement", () => {
  it("writes id, role, label, centre and states on one line", () => {
    const line = formatElement(element(12, { name: "Search", text: "Search", center_x: 640.4, center_y: 88, visual_cues: { is_primary: true, is_clickable: true, background_color_name: "blue" } }));
    expect(line).toBe('[12] button "Search" @(640,88) primary');
  });
  it("shows input type, value, redaction and states", () => {
    expect(formatElement(element(3, { role: "textbox", tag: "input", input_type: "email", name: "Email", text: "", value: "a@b.c" }))).toBe(
      '[3] textbox[email] "Email" value="a@b.c" @(60,40)',
    );
    expect(formatElement(element(4, { role: "textbox", input_type: "password", name: "Password", text: "", value_redacted: true, in_viewport: false }))).toContain(
      'value=<redacted> @(60,50) offscreen',
    );
    expect(formatElement(element(5, { role: "checkbox", name: "Remember me", text: "", checked: false, disabled: true }))).toMatch(/disabled unchecked$/);
  });
  it("writes nearby text for labelled elements only when asked", () => {
    const el = element(1, { name: "Book for $145", text: "", nearby_text: "Duration: 2h 23m" });
    expect(formatElement(el)).toBe('[1] button "Book for $145" @(60,20)');
    expect(formatElement(el, { includeNearby: true })).toBe('[1] button "Book for $145" near "Duration: 2h 23m" @(60,20)');
    expect(formatElement(element(2, { role: "textbox", name: null, text: "", nearby_text: "Email" }))).toContain('textbox near "Email"');
  });

  it("says which form a look-alike control belongs to", () => {
    const line = formatElement(element(31, { role: "textbox", text: "", name: "your@email.com", input_type: "email", purpose: "Newsletter", center_x: 980, center_y: 700 }));
    expect(line).toBe('[31] textbox[email] "your@email.com" in form "Newsletter" @(980,700)');
    expect(formatElement(element(32, { role: "textbox", text: "", name: "Email" }))).not.toContain("in form");
  });
  it("keeps visible text that the name does not already say, cut to length", () => {
    const line = formatElement(element(1, { name: "Close dialog", text: "×" }));
    expect(line).toContain('"Close dialog" text "×"');
    expect(formatElement(element(2, { name: "x".repeat(200), text: "" }))).toMatch(/"x{59}…"/);
  });
});

describe("toPrompt", () => {
  const many = Array.from({ length: 300 }, (_, i) => element(i + 1, { name: `Product number ${i + 1} add to cart`, text: "" }));

  it("stays within the budget and reports the exact o200k count", () => {
    const r = toPrompt({ elements: many, url: "https://shop.test/", viewport: { width: 1280, height: 900 } }, { tokenBudget: 400 });
    expect(r.tokens).toBe(encode(r.text).length);
    expect(r.tokens).toBeLessThanOrEqual(400);
    expect(r.included.length).toBeGreaterThan(5);
    expect(r.included.length + r.omitted.length).toBe(300);
    expect(r.text).toContain(`(${r.omitted.length} more elements omitted)`);
    expect(r.text.split("\n")[0]).toContain("https://shop.test/");
  });

  it("keeps the best-ranked elements: fused_rank_index first, then given order", () => {
    const els = [element(1), element(2), element(3, { fused_rank_index: 0 }), element(4)];
    els[0].fused_rank_index = 1;
    els[1].fused_rank_index = 2;
    els[3].fused_rank_index = 3;
    const r = toPrompt({ elements: els }, { tokenBudget: 40, header: false });
    expect(r.included[0]).toBe(3);
    expect(r.included).toEqual([3, 1, 2, 4].slice(0, r.included.length));
    expect(r.omitted.length).toBeGreaterThan(0);
  });

  it("page order lists the same kept elements top to bottom", () => {
    const els = [element(9, { doc_y: 500 }), element(8, { doc_y: 100 }), element(7, { doc_y: 300 })];
    const r = toPrompt({ elements: els }, { order: "page", header: false });
    expect(r.included).toEqual([8, 7, 9]);
    expect(r.text.split("\n")[0]).toMatch(/^\[8\]/);
  });

  it("writes everything when it fits, with no footer", () => {
    const r = toPrompt({ elements: many.slice(0, 3) });
    expect(r.omitted).toEqual([]);
    expect(r.text).not.toContain("omitted");
    expect(r.tokens).toBe(countTokens(r.text));
  });

  it("caps the element count and leaves non-clickable layout containers out unless asked", () => {
    const els = [
      element(1, { role: "generic", text: "Find flights From To Depart", visual_cues: { is_primary: false, is_clickable: false, background_color_name: null } }),
      element(2, { role: "textbox", name: "From" }),
      element(3, { role: "generic", text: "Open menu", visual_cues: { is_primary: false, is_clickable: true, background_color_name: null } }),
      element(4),
      element(5),
    ];
    const r = toPrompt({ elements: els }, { maxElements: 2, header: false });
    expect(r.included).toEqual([2, 3]);
    expect(r.omitted).toEqual([4, 5, 1]);
    expect(r.text).toContain("(3 more elements omitted)");
    expect(toPrompt({ elements: els }, { structural: true, header: false }).included).toEqual([1, 2, 3, 4, 5]);
  });
});
