// Names from content (links, buttons, headings) over subtrees that are not one text node: the
// collector answers most of them without running the accessible-name library, and must give
// exactly what the library plus the correction layer (name-fixes.ts) gives. The expected names
// below are the full computation's answers on this page (block children separate words,
// display:none children too, aria-hidden and hidden children are left out, img alt and
// generated content are read, an empty subtree falls back to title).
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage("/collector/content-names.html");

const EXPECTED: Record<string, string> = {
  "c-spans": "Foo bar",
  "c-blocks": "One Two",
  "c-block-span": "Add to cart",
  "c-inline-block": "A B",
  "c-flex": "Left Right",
  "c-none": "Foo bar",
  "c-ghost": "Foobar",
  "c-hidden-attr": "Foo bar",
  "c-aria-hidden": "Next",
  "c-aria-hidden-mid": "Foobar",
  "c-img": "Logo Home",
  "c-img-glued": "LogoHome",
  "c-before-self": "★ Rated item",
  "c-before-child": "OpenMenu",
  "c-after-block": "Read more now",
  "c-pseudo-alt": "SearchGo",
  "c-title-child": "TipGo",
  "c-embedded": "Buy quantity now",
  "c-select": "Size Large",
  "c-title-only": "Home page",
  "c-svg-title": "Close",
  "c-ws": "Foo bar",
  "c-script": "Foo bar",
  "c-comment": "Foobar",
  "c-labelledby-child": "Referenced text",
  "c-label-child": "Labelled text",
  "c-role-child": "Star Favourite",
  "c-deep": "Deep down",
  "c-div-button": "Div button",
  "c-br": "Linebreak",
  "c-nbsp": "Non\u00a0breaking\u00a0 space",
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
