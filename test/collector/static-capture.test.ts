// Controls of a real page opened as the service's static capture opens it (scripts off): a
// cookie banner's <a role="button"> (no href) and the "Filter" button a shop puts inside
// <noscript> for visitors without scripts are there for the person, so they are raw elements.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/chromium.js";
import { byDomId, collectIn, collectorBundle } from "./support.js";

const HTML = `<!doctype html><html><body>
<div id="cookie-law-info-bar">We use cookies. <a role="button" id="accept" data-cli_action="accept">Accept</a>
<a id="anchor-only" name="top">Top</a></div>
<form action="/collections/all"><noscript><button type="submit" id="nojs-filter">Filter</button></noscript></form>
</body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

it("collects an anchor with an interactive role, and what a <noscript> shows when scripts are off", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.setContent(HTML);
    // Evaluated, not a script tag: the page runs no scripts of its own (as the bench and service inject it).
    await page.evaluate(collectorBundle());
    const body = await collectIn(page);
    expect(byDomId(body, "accept")?.text).toBe("Accept");
    // A bare anchor without href or role is still no control.
    expect(byDomId(body, "anchor-only")).toBeUndefined();
    expect(byDomId(body, "nojs-filter")?.text).toBe("Filter");
  } finally {
    await context.close();
  }
}, 60_000);

it("skips a <noscript> where scripts run (its content is text, not elements)", async () => {
  const page = await browser.newPage();
  try {
    await page.setContent(HTML);
    const body = await collectIn(page);
    expect(byDomId(body, "nojs-filter")).toBeUndefined();
    expect(byDomId(body, "accept")?.text).toBe("Accept");
  } finally {
    await page.close();
  }
}, 60_000);
