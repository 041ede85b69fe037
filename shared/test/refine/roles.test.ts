// Role mapping: explicit ARIA role, tag and input type, and clickable things without a role.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import type { RawElement } from "@sightline/shared/contract";
import { raw, request } from "./factory.js";

function roleOf(e: RawElement) {
  const r = refineSnapshot(request([e]));
  return r.elements[0];
}

describe("role mapping", () => {
  const table: Array<[string, RawElement, string]> = [
    ["a with href", raw("a", { attributes: { href: "/x" } }), "link"],
    ["a without href", raw("a", {}), "generic"],
    ["button", raw("button"), "button"],
    ["input (no type)", raw("input"), "textbox"],
    ["input text", raw("input", { attributes: { input_type: "text" } }), "textbox"],
    ["input email", raw("input", { attributes: { input_type: "email" } }), "textbox"],
    ["input password", raw("input", { attributes: { input_type: "password" } }), "textbox"],
    ["input search", raw("input", { attributes: { input_type: "search" } }), "searchbox"],
    ["input number", raw("input", { attributes: { input_type: "number" } }), "spinbutton"],
    ["input range", raw("input", { attributes: { input_type: "range" } }), "slider"],
    ["input checkbox", raw("input", { attributes: { input_type: "checkbox" } }), "checkbox"],
    ["input radio", raw("input", { attributes: { input_type: "radio" } }), "radio"],
    ["input submit", raw("input", { attributes: { input_type: "submit" } }), "button"],
    ["input type_ field", raw("input", { attributes: { type_: "checkbox" } }), "checkbox"],
    ["input with list", raw("input", { attributes: { list: "opts" } }), "combobox"],
    ["textarea", raw("textarea"), "textbox"],
    ["select", raw("select"), "combobox"],
    ["h2", raw("h2"), "heading"],
    ["ul", raw("ul"), "list"],
    ["li", raw("li"), "listitem"],
    ["img", raw("img", { attributes: { alt: "Logo" } }), "img"],
    ["img alt=''", raw("img", { attributes: { alt: "" } }), "none"],
    ["dialog", raw("dialog"), "dialog"],
    ["nav", raw("nav"), "navigation"],
    ["footer", raw("footer"), "contentinfo"],
    ["div", raw("div"), "generic"],
    ["explicit role", raw("div", { attributes: { role: "switch" } }), "switch"],
    ["explicit role, case and spaces", raw("div", { attributes: { role: "  TAB " } }), "tab"],
    ["first valid token", raw("div", { attributes: { role: "bogus menuitem button" } }), "menuitem"],
    ["invalid role falls back to tag", raw("button", { attributes: { role: "fancy" } }), "button"],
    ["role=none on a button is ignored", raw("button", { attributes: { role: "none" } }), "button"],
    ["role=presentation on a div", raw("div", { attributes: { role: "presentation" } }), "presentation"],
    ["explicit role overrides tag", raw("a", { attributes: { href: "/x", role: "button" } }), "button"],
  ];
  for (const [label, e, role] of table) {
    it(`${label} → ${role}`, () => expect(roleOf(e).role).toBe(role));
  }

  it("a coloured div with cursor:pointer becomes a clickable button", () => {
    const el = roleOf(raw("div", { text: "Go", styles: { cursor: "pointer", background_color: "rgb(40, 167, 69)" } }));
    expect(el.role).toBe("button");
    expect(el.visual_cues.is_clickable).toBe(true);
    expect(el.visual_cues.background_color_name).toBe("green");
  });

  it("SVG shapes with a pointer cursor or click flag are clickable candidates", () => {
    const circle = roleOf(raw("circle", { width: 40, height: 40, styles: { cursor: "pointer" } }));
    const poly = roleOf(raw("polygon", { width: 40, height: 40, attributes: { onclick: "true" } }));
    const plain = roleOf(raw("path", { width: 40, height: 40 }));
    expect(circle.role).toBe("button");
    expect(poly.role).toBe("button");
    expect(circle.visual_cues.is_clickable && poly.visual_cues.is_clickable).toBe(true);
    expect(plain.visual_cues.is_clickable).toBe(false);
    expect(circle.importance).toBeGreaterThan(plain.importance);
  });

  it("a pointer cursor inherited from a clickable parent does not promote the child", () => {
    const parent = raw("a", { id: 500, attributes: { href: "/p" }, styles: { cursor: "pointer" }, text: "Product details" });
    // (A smaller box than the link's, with words the link does not have as a whole: a part
    // saying only what its control says would be merged into it, see merge.ts.)
    const child = raw("span", { id: 501, parent_id: 500, width: 30, styles: { cursor: "pointer" }, text: "Product" });
    const r = refineSnapshot(request([parent, child]));
    const span = r.elements.find((e) => e.id === 501)!;
    expect(span.role).toBe("generic");
    expect(span.visual_cues.is_clickable).toBe(true);
  });

  it("a collector-computed generic role is promoted on a click flag, not on a (possibly inherited) cursor", () => {
    const flagged = roleOf(raw("div", { text: "Open", attributes: { role: "generic", is_clickable: "true" }, styles: { cursor: "pointer" } }));
    const cursorOnly = roleOf(raw("div", { text: "Open", attributes: { role: "generic" }, styles: { cursor: "pointer" } }));
    const handler = roleOf(raw("span", { text: "Open", attributes: { role: "generic", has_click_handler: "true" } }));
    expect(flagged.role).toBe("button");
    expect(handler.role).toBe("button");
    expect(cursorOnly.role).toBe("generic");
    expect(cursorOnly.visual_cues.is_clickable).toBe(true);
    // A computed non-generic role stays as the collector said.
    expect(roleOf(raw("img", { attributes: { role: "img", is_clickable: "true" } })).role).toBe("img");
  });

  it("computed roles outside the core ARIA list are kept", () => {
    expect(roleOf(raw("div", { attributes: { role: "doc-subtitle" } })).role).toBe("doc-subtitle");
    expect(roleOf(raw("svg", { attributes: { role: "graphics-document" } })).role).toBe("graphics-document");
    expect(roleOf(raw("div", { attributes: { role: "image" } })).role).toBe("img");
  });

  it("tag is echoed lower-cased, z_index parsed with default 0", () => {
    const a = roleOf(raw("BUTTON", { styles: { z_index: "25" } }));
    const b = roleOf(raw("div", { styles: { z_index: "auto" } }));
    expect(a.tag).toBe("button");
    expect(a.z_index).toBe(25);
    expect(b.z_index).toBe(0);
  });
});
