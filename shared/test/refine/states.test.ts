// Normalised states, names, values and the password rule.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import type { RawElement } from "@sightline/shared/contract";
import { button, input, raw, request } from "./factory.js";

const one = (e: RawElement) => refineSnapshot(request([e])).elements[0];

describe("states", () => {
  it("checked is tri-state: aria 'true'/'false' → booleans, 'mixed' → null with the raw string kept", () => {
    const on = one(raw("div", { attributes: { role: "checkbox", aria_checked: "true" } }));
    const off = one(raw("div", { attributes: { role: "checkbox", aria_checked: "false" } }));
    const mixed = one(raw("div", { attributes: { role: "checkbox", aria_checked: "mixed" } }));
    expect([on.checked, on.aria_checked]).toEqual([true, "true"]);
    expect([off.checked, off.aria_checked]).toEqual([false, "false"]);
    expect([mixed.checked, mixed.aria_checked]).toEqual([null, "mixed"]);
  });

  it("native checked comes as boolean, '' (attribute present) or string; a checkbox without state is unchecked", () => {
    expect(one(input("checkbox", { attributes: { checked: true } })).checked).toBe(true);
    expect(one(input("checkbox", { attributes: { checked: "" } })).checked).toBe(true);
    expect(one(input("checkbox", { attributes: { checked: "false" } })).checked).toBe(false);
    expect(one(input("radio")).checked).toBe(false);
    expect(one(button("Go")).checked).toBeNull();
  });

  it("disabled from the native attribute or aria-disabled; expanded from aria-expanded", () => {
    expect(one(button("A", { attributes: { disabled: "" } })).disabled).toBe(true);
    const aria = one(button("A", { attributes: { aria_disabled: "true", aria_expanded: "false" } }));
    expect([aria.disabled, aria.aria_disabled, aria.expanded, aria.aria_expanded]).toEqual([true, "true", false, "false"]);
    const plain = one(button("A"));
    expect([plain.disabled, plain.expanded]).toEqual([false, null]);
    expect(one(raw("p", { text: "hello" })).disabled).toBeNull();
  });

  it("a password's value is never echoed", () => {
    const pw = one(input("password", { attributes: { value: "hunter2" } }));
    expect(pw.value).toBeNull();
    expect(pw.value_redacted).toBe(true);
    expect(JSON.stringify(pw)).not.toContain("hunter2");
    const viaType = one(raw("input", { attributes: { type_: "password", value: "s3cret" } }));
    expect(viaType.value).toBeNull();
    expect(JSON.stringify(viaType)).not.toContain("s3cret");
  });

  it("any element with value_redacted truthy is never echoed", () => {
    const red = one(input("text", { attributes: { value: "4111 1111 1111 1111", value_redacted: "true" } }));
    expect([red.value, red.value_redacted]).toEqual([null, true]);
    const ok = one(input("text", { attributes: { value: "shoes", value_redacted: "false" } }));
    expect([ok.value, ok.value_redacted]).toEqual(["shoes", false]);
  });

  it("name: aria_label, then label/title/placeholder, then text, then the name attribute", () => {
    expect(one(button("Text", { attributes: { aria_label: "Close dialog" } })).name).toBe("Close dialog");
    expect(one(input("text", { attributes: { placeholder: "Search" } })).name).toBe("Search");
    expect(one(button("  Sign   in ")).name).toBe("Sign in");
    expect(one(input("text", { attributes: { name: "email" } })).name).toBe("email");
    expect(one(raw("div")).name).toBeNull();
  });

  it("a computed accessible_name is authoritative, even when empty", () => {
    expect(one(button("Text", { attributes: { accessible_name: "Computed", aria_label: "Other" } })).name).toBe("Computed");
    const unnamed = one(raw("div", { text: "Some text", attributes: { accessible_name: "" } }));
    expect(unnamed.name).toBeNull();
    expect(unnamed.text).toBe("Some text");
  });

  it("names collapse ASCII whitespace only: a no-break space is kept", () => {
    expect(one(button("x", { attributes: { accessible_name: "  a\u00a0b \n c " } })).name).toBe("a\u00a0b c");
  });

  it("input_type, href and nearby_text are echoed; diff_status is null", () => {
    const e = one(input("email", { attributes: { nearby_text: "  Your   email " } }));
    expect([e.input_type, e.nearby_text, e.diff_status]).toEqual(["email", "Your email", null]);
    expect(one(raw("a", { attributes: { href: "https://x.test/a" } })).href).toBe("https://x.test/a");
  });
});
