import { describe, expect, it } from "vitest";
import { assessAction, isSecretField, sameSite, type ActionTarget, type TargetFacts } from "../../src/agent/index.js";

const page = "https://shop.example.com/cart";
const target = (id: number, name: string, role = "button", input_type: string | null = null): ActionTarget => ({ id, role, name, input_type });
const facts = (over: Partial<TargetFacts> = {}): TargetFacts => ({
  tag: "button",
  inputType: null,
  autocomplete: "",
  secret: false,
  submits: false,
  download: false,
  href: null,
  form: null,
  ...over,
});
const form = (name: string, submitLabel = "Submit") => ({ name, action: `https://shop.example.com/${name}`, submitLabel, fields: [] });

describe("risk tiers", () => {
  it("scrolling is observe: it never asks", () => {
    expect(assessAction({ kind: "scroll", direction: "down" }, { pageUrl: page, target: null, facts: null })).toMatchObject({ tier: "observe", summary: "Scroll down" });
  });

  it("typing into a plain field is act, with the text in the line", () => {
    const a = assessAction({ kind: "type", id: 18, text: "alice@example.com" }, { pageUrl: page, target: target(18, "Email", "textbox", "email"), facts: facts({ tag: "input", inputType: "email" }) });
    expect(a).toMatchObject({ tier: "act", summary: "Type 'alice@example.com' into Email [18]", secret: false });
  });

  it("a submit whose form is a checkout is sensitive, and says why", () => {
    const a = assessAction({ kind: "click", id: 42 }, { pageUrl: page, target: target(42, "Place order"), facts: facts({ submits: true, form: form("checkout", "Place order") }) });
    expect(a.tier).toBe("sensitive");
    expect(a.summary).toBe("Click 'Place order' [42], a sensitive action: it submits the checkout form");
  });

  it("a plain submit of a form with no such words is act", () => {
    const a = assessAction({ kind: "click", id: 5 }, { pageUrl: page, target: target(5, "Save"), facts: facts({ submits: true, form: form("profile", "Save") }) });
    expect(a.tier).toBe("act");
  });

  it.each(["Pay now", "Buy", "Delete account", "Remove item", "Send", "Publish", "Transfer", "Confirm"])("a button named %s is sensitive", (name) => {
    expect(assessAction({ kind: "click", id: 1 }, { pageUrl: page, target: target(1, name), facts: facts() }).tier).toBe("sensitive");
  });

  it("does not take words inside other words (Sender, Ordering)", () => {
    expect(assessAction({ kind: "click", id: 1 }, { pageUrl: page, target: target(1, "Senders"), facts: facts() }).tier).toBe("act");
  });

  it("password, one-time-code and card fields are sensitive and their text is masked", () => {
    for (const f of [facts({ tag: "input", inputType: "password", secret: true }), facts({ tag: "input", inputType: "text", autocomplete: "one-time-code" }), facts({ tag: "input", inputType: "text", autocomplete: "cc-number" })]) {
      const a = assessAction({ kind: "type", id: 7, text: "hunter2" }, { pageUrl: page, target: target(7, "Secret", "textbox", f.inputType), facts: f });
      expect(a.tier).toBe("sensitive");
      expect(a.secret).toBe(true);
      expect(a.summary).not.toContain("hunter2");
      expect(a.summary).toMatch(/^Type '?•{6,}'? into Secret \[7\], a sensitive action/);
    }
  });

  it("a field named like a card number is sensitive even without autocomplete", () => {
    expect(assessAction({ kind: "type", id: 3, text: "4111" }, { pageUrl: page, target: target(3, "Card number", "textbox", "text"), facts: facts({ tag: "input", inputType: "text" }) }).tier).toBe("sensitive");
  });

  it("navigation within the site is act; to another site is sensitive", () => {
    expect(assessAction({ kind: "navigate", url: "https://www.example.com/help" }, { pageUrl: page, target: null, facts: null }).tier).toBe("act");
    const away = assessAction({ kind: "navigate", url: "https://evil.test/x" }, { pageUrl: page, target: null, facts: null });
    expect(away.tier).toBe("sensitive");
    expect(away.summary).toContain("another site (evil.test)");
  });

  it("a link within the site is act whatever its words (a 'Checkout' link only opens a page)", () => {
    const a = assessAction({ kind: "click", id: 3 }, { pageUrl: page, target: target(3, "Checkout", "link"), facts: facts({ tag: "a", href: "https://shop.example.com/checkout" }) });
    expect(a.tier).toBe("act");
    // A button with the same word is sensitive.
    expect(assessAction({ kind: "click", id: 5 }, { pageUrl: page, target: target(5, "Confirm payment"), facts: facts({}) }).tier).toBe("sensitive");
  });

  it("a link to another site and a download link are sensitive", () => {
    expect(assessAction({ kind: "click", id: 2 }, { pageUrl: page, target: target(2, "Docs", "link"), facts: facts({ tag: "a", href: "https://other.test/" }) }).tier).toBe("sensitive");
    expect(assessAction({ kind: "click", id: 2 }, { pageUrl: page, target: target(2, "Invoice", "link"), facts: facts({ tag: "a", href: "https://shop.example.com/i.pdf", download: true }) }).tier).toBe("sensitive");
  });

  it("Enter in a checkout form is sensitive", () => {
    const a = assessAction({ kind: "type", id: 4, text: "x", submit: true }, { pageUrl: page, target: target(4, "Coupon", "textbox", "text"), facts: facts({ tag: "input", inputType: "text", form: form("checkout") }) });
    expect(a.tier).toBe("sensitive");
    expect(a.summary).toContain("and press Enter");
  });
});

describe("helpers", () => {
  it("sameSite", () => {
    expect(sameSite("https://a.example.com/x", "http://example.com/")).toBe(true);
    expect(sameSite("http://127.0.0.1:3000/", "http://127.0.0.1:4000/")).toBe(true);
    expect(sameSite("https://a.com", "https://b.com")).toBe(false);
  });
  it("isSecretField", () => {
    expect(isSecretField({ tag: "input", type: "password" })).toBe(true);
    expect(isSecretField({ tag: "input", type: "text", autocomplete: "cc-csc" })).toBe(true);
    expect(isSecretField({ tag: "input", type: "email", autocomplete: "email" })).toBe(false);
  });
});
