// collect() answers `labels` (quadratic in Chromium) from a map while it runs: lent as own
// properties to the fields the accessible-name library can reach, or patched on the element
// prototypes only when what it reaches is not known (a slot), because redefining it there
// throws away the JIT's optimised code (see element-labels.ts). Names from <label>s stay right,
// and the page keeps its native getter and its elements as they were.
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage();

/** Object.defineProperty(…, "labels", …) calls during one collect() in the page, on prototypes and on elements. */
async function labelsRedefinitions(): Promise<{ prototypes: number; elements: number }> {
  return fx.page.evaluate(async () => {
    const define = Object.defineProperty;
    const seen = { prototypes: 0, elements: 0 };
    Object.defineProperty = ((o: object, k: PropertyKey, d: PropertyDescriptor) => {
      if (k === "labels") {
        // A prototype has its own `constructor`; an element does not.
        if (Object.prototype.hasOwnProperty.call(o, "constructor")) seen.prototypes++;
        else seen.elements++;
      }
      return define(o, k, d);
    }) as typeof Object.defineProperty;
    try {
      await (globalThis as unknown as { sightline: { collect(): Promise<unknown> } }).sightline.collect();
    } finally {
      Object.defineProperty = define;
    }
    return seen;
  });
}

/** The getter of HTMLInputElement.prototype.labels is the browser's own after collect(). */
async function nativeGetterBack(): Promise<boolean> {
  return fx.page.evaluate(() => {
    const get = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "labels")?.get;
    return !!get && /\[native code\]/.test(Function.prototype.toString.call(get));
  });
}

it("names form fields from their labels without touching the prototypes, and leaves the fields as they were", async () => {
  await fx.page.goto(fx.server.url("/collector/form.html"));
  const body = await collectIn(fx.page);
  expect(byDomId(body, "email")!.attributes!.accessible_name).toBe("Email address");
  expect(byDomId(body, "fullname")!.attributes!.accessible_name).toBe("Full name");
  // Fields the fast paths cannot name (here the unlabelled select, checkbox and radio) go
  // through the full algorithm, with their labels lent to them, never the prototypes.
  const seen = await labelsRedefinitions();
  expect(seen.elements).toBeGreaterThan(0);
  expect(seen.prototypes).toBe(0);
  expect(await nativeGetterBack()).toBe(true);
  const after = await fx.page.evaluate(() => {
    const email = document.getElementById("email") as HTMLInputElement;
    return { own: Object.prototype.hasOwnProperty.call(email, "labels"), labels: email.labels!.length };
  });
  expect(after).toEqual({ own: false, labels: 1 });
});

it("lends labels to the fields a name reaches through aria-labelledby, without touching the prototypes", async () => {
  await fx.page.setContent(
    '<p id="l">Ship <input id="qty" aria-label="quantity" value="2"> boxes</p><button id="go" aria-labelledby="l">x</button>' +
      '<section id="s" aria-labelledby="h"><h2 id="h">Filters <label>size <select id="size"><option>M</option></select></label></h2>' +
      '<label><input type="checkbox" id="c1" aria-labelledby="t1"><span id="t1">Red</span></label></section>',
  );
  const body = await collectIn(fx.page);
  expect(byDomId(body, "go")!.attributes!.accessible_name).toMatch(/^Ship .+ boxes$/);
  expect(byDomId(body, "c1")!.attributes!.accessible_name).toBe("Red");
  const seen = await labelsRedefinitions();
  expect(seen.prototypes).toBe(0);
  expect(seen.elements).toBeGreaterThan(1);
  expect(await nativeGetterBack()).toBe(true);
  const own = await fx.page.evaluate(() =>
    ["qty", "go", "size", "c1"].filter((id) => Object.prototype.hasOwnProperty.call(document.getElementById(id), "labels")),
  );
  expect(own).toEqual([]);
});

it("patches the prototypes for a name that can reach a slot, and restores them", async () => {
  await fx.page.setContent('<label>Go <input id="f"></label><button id="go"><slot></slot></button>');
  const body = await collectIn(fx.page);
  expect(byDomId(body, "f")!.attributes!.accessible_name).toBe("Go");
  expect(byDomId(body, "go")!.attributes!.accessible_name).toBe("");
  const seen = await labelsRedefinitions();
  expect(seen.prototypes).toBeGreaterThan(0);
  expect(await nativeGetterBack()).toBe(true);
});

it("leaves the element prototypes alone when no labelable element needs the full name computation", async () => {
  await fx.page.goto(fx.server.url("/collector/big.html"));
  const body = await collectIn(fx.page);
  expect(body.raw_elements.length).toBeGreaterThan(4000);
  expect(await labelsRedefinitions()).toEqual({ prototypes: 0, elements: 0 });
  expect(await nativeGetterBack()).toBe(true);
});
