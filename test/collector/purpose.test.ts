// What each control is for (collector/purpose.ts): the label of its form, fieldset or search
// region, and the words its own and its form's markup says about it.
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage("/collector/purpose.html");

it("names each control's form and the words of its purpose", async () => {
  const body = await collectIn(fx.page);
  const p = (id: string) => byDomId(body, id)?.attributes?.purpose;
  const w = (id: string) => String(byDomId(body, id)?.attributes?.purpose_words ?? "").split(" ");
  // The heading before the form (the section's), the form's own heading, a legend, a search region.
  expect(p("nl-email")).toBe("Newsletter");
  expect(p("nl-go")).toBe("Newsletter");
  expect(p("login-email")).toBe("Sign in");
  expect(p("street")).toBe("Shipping address");
  expect(p("q")).toBe("Search");
  // Markup words: the form's class and action, its other fields' kinds, its submit button.
  expect(w("nl-email")).toEqual(expect.arrayContaining(["newsletter", "subscription", "subscribe"]));
  expect(w("login-email")).toEqual(expect.arrayContaining(["login", "account", "password"]));
  expect(w("nl-email")).not.toContain("password");
  // Outside any form: the markup around the field; a button outside any form has none.
  expect(p("mc-email")).toBeUndefined();
  expect(w("mc-email")).toEqual(expect.arrayContaining(["email", "signup"]));
  expect(byDomId(body, "loose")?.attributes?.purpose_words).toBeUndefined();
  // A form whose fields are named "id" and "action" (its properties of those names are the fields).
  expect(w("cl-name")).toEqual(expect.arrayContaining(["contact", "clobbered"]));
});
