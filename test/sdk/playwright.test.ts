// The Playwright helpers on real Chromium and loopback fixture pages (local mode: no server).
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { click, press, snapshot, type, waitForStable, type PageSnapshot } from "@sightline/shared/playwright";
import { diff } from "@sightline/shared/prompt";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
let browser: Browser;
let site: StaticServer;
let page: Page;

beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), serveStatic(fixtures)]);
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The first element (forms and other containers aside) whose name or text matches. */
const byLabel = (snap: PageSnapshot, re: RegExp) => {
  const el = snap.elements.find((e) => !["form", "generic", "group"].includes(e.role) && re.test(e.name || e.text));
  if (!el) throw new Error(`no element matching ${re} in ${snap.elements.map((e) => e.name || e.text).join(" | ")}`);
  return el;
};
const value = (sel: string) => page.$eval(sel, (e) => (e as HTMLInputElement).value);

describe("Playwright helpers", () => {
  it("snapshot collects and refines locally, then type/click fill and submit a form", async () => {
    await page.goto(site.url("/form.html"));
    const st = await waitForStable(page, { quietMs: 200 });
    expect(st).toMatchObject({ stable: true, ready_state: "complete" });

    const snap = await snapshot(page, { mode: "local", goal: "enter your email" });
    expect(snap.mode).toBe("local");
    expect(snap.credits_used).toBe(0);
    expect(snap.request.raw_elements.length).toBeGreaterThan(5);

    const email = byLabel(snap, /^Email/);
    const typed = await type(page, snap, email.id, "ada@example.com");
    expect(typed).toMatchObject({ outcome: "dom_changed", method: "mouse" });
    expect(await value("#email")).toBe("ada@example.com");

    // clear (default) replaces the old value; clear:false appends.
    const name = byLabel(snap, /^Full name/);
    await type(page, snap, name.id, "Ada Lovelace");
    expect(await value("#name")).toBe("Ada Lovelace");
    await type(page, snap, name.id, " Jr", { clear: false });
    expect(await value("#name")).toBe("Ada Lovelace Jr");

    const terms = byLabel(snap, /accept the terms/);
    expect(await click(page, snap, terms.id)).toMatchObject({ outcome: "dom_changed" });
    expect(await page.$eval("#terms", (e) => (e as HTMLInputElement).checked)).toBe(true);

    const submit = byLabel(snap, /Create account/);
    const res = await click(page, snap, submit.id);
    expect(res.outcome).toBe("dom_changed");
    expect(await page.textContent("#out")).toBe("Thanks Ada Lovelace Jr <ada@example.com>");
  });

  it("reports nothing_changed, falls back to a DOM click when covered, scrolls far elements into view", async () => {
    await page.goto(site.url("/form.html"));
    const snap = await snapshot(page, { mode: "local", limit: 100 });

    expect(await click(page, snap, byLabel(snap, /Does nothing/).id)).toMatchObject({ outcome: "nothing_changed", changes: 0 });

    const covered = await click(page, snap, byLabel(snap, /Covered button/).id);
    expect(covered).toMatchObject({ outcome: "dom_changed", method: "dom" });
    expect(await page.textContent("#covered")).toBe("Covered clicked");

    const far = await click(page, snap, byLabel(snap, /Far button/).id);
    expect(far).toMatchObject({ outcome: "dom_changed", method: "mouse" });
    expect(await page.textContent("#far")).toBe("Far clicked");
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000);
  });

  it("reports navigation for a link click and for Enter in a form field", async () => {
    await page.goto(site.url("/form.html"));
    const snap = await snapshot(page, { mode: "local" });
    const nav = await click(page, snap, byLabel(snap, /Next page/).id);
    expect(nav.outcome).toBe("navigated");
    expect(nav.url).toBe(site.url("/next.html"));

    await page.goto(site.url("/next.html"));
    await page.evaluate(() => document.querySelector("a")!.focus());
    const back = await press(page, "Enter");
    expect(back).toMatchObject({ outcome: "navigated", method: "keyboard" });
    expect(page.url()).toBe(site.url("/form.html"));
    expect(await press(page, "Shift")).toMatchObject({ outcome: "nothing_changed" });
  });

  it("diff marks what a scripted change added, removed, modified and moved", async () => {
    await page.goto(site.url("/change.html"));
    const before = await snapshot(page, { mode: "local" });
    const res = await click(page, before, byLabel(before, /Add item/).id);
    expect(res.outcome).toBe("dom_changed");
    const after = await snapshot(page, { mode: "local" });
    const d = diff(before, after);
    const status = (re: RegExp) => d.elements.find((e) => re.test(e.name || e.text))?.diff_status;
    expect(status(/Checkout/)).toBeNull();
    expect(status(/Items: 3/)).toBe("MODIFIED");
    expect(status(/Remove coupon/)).toBe("REMOVED");
    expect(status(/Continue shopping/)).toBe("MOVED");
    expect(status(/Undo/)).toBe("ADDED");
    // Same DOM node, same id: the collector's ids are stable across collections.
    expect(byLabel(after, /Checkout/).id).toBe(byLabel(before, /Checkout/).id);
    expect(d.diff_summary.added).toBeGreaterThanOrEqual(1);
    expect(d.diff_summary.removed).toBe(1);
  });
});
