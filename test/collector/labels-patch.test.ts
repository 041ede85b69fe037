// collect() swaps the native `labels` getter (quadratic in Chromium) for a map lookup only
// while it runs, and only when the accessible-name library can reach a labelable element:
// redefining it on the element prototypes throws away the JIT's optimised code (see
// fast-labels.ts). Names from <label>s stay right, and the page keeps its native getter.
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage();

/** Counts Object.defineProperty(…, "labels", …) calls made during one collect() in the page. */
async function labelsRedefinitions(): Promise<number> {
  return fx.page.evaluate(async () => {
    const define = Object.defineProperty;
    let calls = 0;
    Object.defineProperty = ((o: object, k: PropertyKey, d: PropertyDescriptor) => {
      if (k === "labels") calls++;
      return define(o, k, d);
    }) as typeof Object.defineProperty;
    try {
      await (globalThis as unknown as { sightline: { collect(): Promise<unknown> } }).sightline.collect();
    } finally {
      Object.defineProperty = define;
    }
    return calls;
  });
}

/** The getter of HTMLInputElement.prototype.labels is the browser's own after collect(). */
async function nativeGetterBack(): Promise<boolean> {
  return fx.page.evaluate(() => {
    const get = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "labels")?.get;
    return !!get && /\[native code\]/.test(Function.prototype.toString.call(get));
  });
}

it("names form fields from their labels, then gives the page its native labels getter back", async () => {
  await fx.page.goto(fx.server.url("/collector/form.html"));
  const body = await collectIn(fx.page);
  expect(byDomId(body, "email")!.attributes!.accessible_name).toBe("Email address");
  expect(byDomId(body, "fullname")!.attributes!.accessible_name).toBe("Full name");
  // Fields named by a <label> need the full algorithm, which reads `labels`: patched, restored.
  expect(await labelsRedefinitions()).toBeGreaterThan(0);
  expect(await nativeGetterBack()).toBe(true);
  expect(await fx.page.evaluate(() => document.getElementById("email")!.closest("form")!.querySelector("input")!.labels!.length)).toBe(1);
});

it("leaves the element prototypes alone when no labelable element needs the full name computation", async () => {
  await fx.page.goto(fx.server.url("/collector/big.html"));
  const body = await collectIn(fx.page);
  expect(body.raw_elements.length).toBeGreaterThan(4000);
  expect(await labelsRedefinitions()).toBe(0);
  expect(await nativeGetterBack()).toBe(true);
});
