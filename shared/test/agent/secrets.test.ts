// The one rule of what is secret (shared/src/agent/secrets.ts) and the one scrub of secret values.
import { describe, expect, it } from "vitest";
import { isSecretField, isSecretTarget, MASK, scrubText, SecretValues } from "../../src/agent/index.js";

describe("isSecretField: any one fact makes a field secret", () => {
  it.each([
    ["type=password", { tag: "input", type: "password" }],
    ["autocomplete=one-time-code", { tag: "input", autocomplete: "one-time-code" }],
    ["autocomplete with a section and a cc token", { tag: "input", autocomplete: "section-pay billing cc-number" }],
    ["autocomplete=cc-csc", { tag: "input", autocomplete: "cc-csc" }],
    ["autocomplete=new-password", { tag: "input", autocomplete: "new-password" }],
    ["name=pin_code", { tag: "input", name: "pin_code" }],
    ["name=userPIN", { tag: "input", name: "userPIN" }],
    ["id=newPassword", { tag: "input", id: "newPassword" }],
    ["name=user[pass]", { tag: "input", name: "user[pass]" }],
    ["name=cvv2", { tag: "input", name: "cvv2" }],
    ["name=cardNumber", { tag: "input", name: "cardNumber" }],
    ["name=otpCode", { tag: "input", name: "otpCode" }],
    ["label PIN", { tag: "input", label: "PIN" }],
    ["label Security code", { tag: "input", label: "Security code" }],
    ["label One-time code", { tag: "input", label: "One-time code" }],
    ["label API key", { tag: "textarea", label: "Your API key" }],
    ["text drawn as discs", { tag: "input", type: "text", obscured: true }],
    ["agent's picture: a textbox labelled Password", { role: "textbox", label: "Password" }],
  ])("%s", (_, facts) => expect(isSecretField(facts)).toBe(true));

  it.each([
    ["an email field", { tag: "input", type: "email", name: "email", label: "Email" }],
    ["a zip code", { tag: "input", name: "zip_code", label: "Zip code" }],
    ["a promo code", { tag: "input", name: "promo", label: "Promo code" }],
    ["a boarding pass number (label)", { tag: "input", label: "Boarding pass number" }],
    ["a spinner, a shipping field", { tag: "input", name: "spinner", id: "shipping", label: "Shipping" }],
    ["a checkbox named remember_password", { tag: "input", type: "checkbox", name: "remember_password" }],
    ["a button whose label says password", { tag: "button", label: "Show password" }],
    ["a link in the agent's picture", { role: "link", label: "Forgot password?" }],
    ["a Cc field of a mail form", { tag: "input", name: "cc", label: "Cc" }],
  ])("not %s", (_, facts) => expect(isSecretField(facts)).toBe(false));

  it("a target is secret when the page said so, or its role, type and label say so", () => {
    expect(isSecretTarget({ role: "textbox", name: "Code", input_type: "text", secret: true })).toBe(true);
    expect(isSecretTarget({ role: "textbox", name: "Branch PIN", input_type: "text" })).toBe(true);
    expect(isSecretTarget({ role: "textbox", name: "Email", input_type: "email" })).toBe(false);
    expect(isSecretTarget(null)).toBe(false);
  });
});

describe("scrub: every form of a remembered value becomes the mask", () => {
  it("masks the value, its URL and form encodings, and nothing shorter than 3 characters", () => {
    const s = new SecretValues();
    s.add("p@ss word&1");
    s.add("ab");
    expect(s.size).toBe(1);
    expect(s.scrub("you typed p@ss word&1 ab")).toBe(`you typed ${MASK} ab`);
    expect(s.scrub("https://x.test/?pw=p%40ss%20word%261")).toBe(`https://x.test/?pw=${MASK}`);
    expect(s.scrub("https://x.test/?pw=p%40ss+word%261")).toBe(`https://x.test/?pw=${MASK}`);
  });

  it("a code of digits, also with separators, only where it stands alone", () => {
    expect(scrubText("card 4111 1111 1111 1111 and 4111-1111-1111-1111", ["4111111111111111"])).toBe(`card ${MASK} and ${MASK}`);
    expect(scrubText("PIN 4821; order 948213; [4821]", ["4821"])).toBe(`PIN ${MASK}; order 948213; [${MASK}]`);
  });

  it("scrubs every string of an answer, copies it, and keeps an AgentError's code", async () => {
    const s = new SecretValues();
    s.add("hunter22");
    const answer = { url: "https://a.test/?q=hunter22", n: 3, list: ["hunter22!", { t: "x hunter22" }] };
    expect(s.scrub(answer)).toEqual({ url: `https://a.test/?q=${MASK}`, n: 3, list: [`${MASK}!`, { t: `x ${MASK}` }] });
    expect(answer.url).toContain("hunter22");
    const { AgentError } = await import("../../src/agent/index.js");
    const e = s.scrubError(new AgentError("stale", "button hunter22 is gone", { name: "hunter22" })) as InstanceType<typeof AgentError>;
    expect(e).toBeInstanceOf(AgentError);
    expect(e.code).toBe("stale");
    expect(e.message).toBe(`button ${MASK} is gone`);
    expect(e.detail).toEqual({ name: MASK });
  });
});
