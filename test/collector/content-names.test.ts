// Names the collector answers without running the accessible-name library (name.ts): controls
// named from content that is not one text node, fields named by one plain <label>
// (label-names.ts), images by their alt. They must be exactly what the library plus the
// correction layer (name-fixes.ts) gives. The expected names below are the full computation's
// answers on this page (block children separate words, aria-hidden and hidden children are left
// out, img alt and generated content are read, an empty subtree falls back to title), and where
// the correction layer follows Chromium's tree instead of the library, Chromium's answer (checked
// against Accessibility.getFullAXTree): a child that gives no text (display:none, hidden, a
// script) adds no space, an image or a control is set apart by spaces, <br> is a space, an
// embedded control gives its value, a descendant's title is not read, and a label's inner
// spaces stay. The cases the shortcuts leave to the library sit next to them.
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage("/collector/content-names.html");

const EXPECTED: Record<string, string> = {
  "c-spans": "Foo bar",
  "c-blocks": "One Two",
  "c-block-span": "Add to cart",
  "c-inline-block": "A B",
  "c-flex": "Left Right",
  "c-none": "Foobar",
  "c-ghost": "Foobar",
  "c-hidden-attr": "Foobar",
  "c-aria-hidden": "Next",
  "c-aria-hidden-mid": "Foobar",
  "c-img": "Logo Home",
  "c-img-glued": "Logo Home",
  "c-before-self": "★ Rated item",
  "c-before-child": "OpenMenu",
  "c-after-block": "Read more now",
  "c-pseudo-alt": "SearchGo",
  "c-title-child": "Go",
  // In the generated-content set (a :hover rule) but with no content now: adds nothing, and
  // its block display no space (display is only read around some text).
  "c-pseudo-unset": "Foobar",
  // Generated content from selector lists with commas inside :is() and an attribute value.
  "c-is-before": "Close",
  "c-attr-after": "TabClose",
  "c-embedded": "Buy 3 now",
  "c-select": "Size Large",
  "c-title-only": "Home page",
  "c-svg-title": "Close",
  "c-ws": "Foo bar",
  "c-script": "Foobar",
  "c-comment": "Foobar",
  "c-labelledby-child": "Referenced text",
  "c-label-child": "Labelled text",
  "c-role-child": "Star Favourite",
  "c-deep": "Deep down",
  "c-div-button": "Div button",
  "c-br": "Line break",
  "c-nbsp": "Non\u00a0breaking\u00a0 space",
  "c-f-link": "Documentation",
  "c-f-inside": "Remember me",
  "c-f-radio-after": "Yes please",
  "c-f-blocks": "One Two",
  "c-f-none": "Emailaddress",
  "c-f-ghost": "Password",
  "c-f-aria-hidden": "Name (required)",
  "c-f-img": "Search query",
  "c-f-before": "OpenMenu",
  "c-f-select": "Size (EU)",
  "c-f-textarea": "Your message",
  "c-f-two": "First Second",
  "c-f-embedded": "Qty 3 items",
  "c-f-nbsp": "Non\u00a0breaking label",
  "c-f-spaced": "Spaced out",
  "c-f-role": "Star Rating",
  "c-f-hidden-label": "Hidden label",
  "c-f-labelled": "Other",
  "c-f-title": "Tip",
  "c-f-switch": "Dark mode",
  "c-i-spaces": "A cat sitting",
  "c-i-nbsp": "x y",
  "c-i-title": "Alt text",
  "c-i-blank": "Only title",
  "c-i-label": "Label wins",
  "c-heading": "Title subtitle",
};

it("names controls from their content as the full algorithm does", async () => {
  const body = await collectIn(fx.page);
  const got: Record<string, string | undefined> = {};
  const ids = await fx.page.evaluate(() => Array.from(document.querySelectorAll("[id^=c-]"), (e) => e.id));
  for (const id of ids) got[id] = byDomId(body, id)?.attributes?.accessible_name as string | undefined;
  // Every control of the page is checked (a new case without an expectation fails too).
  expect(Object.keys(got).sort()).toEqual(Object.keys(EXPECTED).sort());
  for (const [id, name] of Object.entries(EXPECTED)) expect(got[id], id).toBe(name);
});
