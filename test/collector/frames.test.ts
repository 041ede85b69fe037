// Same-origin and cross-origin iframes: frame content in iframe_content with top-viewport
// boxes; a cross-origin frame (another origin: localhost vs 127.0.0.1) is reported as such.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import type { RawElement } from "@sightline/shared/contract";
import type { CollectResult } from "@sightline/shared/collector";
import { collectPage } from "@sightline/shared/playwright";
import { FIXTURES, byDomId, collectIn } from "./support.js";

let browser: Browser;
let top: StaticServer;
let other: StaticServer;
let page: Page;

beforeAll(async () => {
  [browser, top, other] = await Promise.all([launchChromium(), serveStatic(FIXTURES), serveStatic(FIXTURES)]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Same files, another origin: the second server on the host name "localhost".
  const crossOrigin = other.origin.replace("127.0.0.1", "localhost");
  await page.goto(top.url(`/collector/frames.html?cross=${encodeURIComponent(crossOrigin)}`));
  await page.waitForFunction(() => {
    const f = document.getElementById("cross") as HTMLIFrameElement;
    return f.src !== "" && document.readyState === "complete";
  });
  await page.frameLocator("#cross").locator("#inner-btn").waitFor();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([top?.close(), other?.close()]);
});

describe("iframes", () => {
  it("puts a same-origin frame's elements in iframe_content, boxed in top-viewport coordinates", async () => {
    const body = await collectIn(page);
    const frame = byDomId(body, "same")!;
    expect(frame.attributes).toMatchObject({ role: "iframe", frame: "same-origin" });
    const content = frame.iframe_content as RawElement[];
    const btn = content.find((e) => e.attributes?.id === "inner-btn")!;
    expect(btn.attributes).toMatchObject({ role: "button", aria_label: "Inner button" });
    const live = await page.frameLocator("#same").locator("#inner-btn").boundingBox();
    expect(btn.rect.x).toBeCloseTo(live!.x, 0);
    expect(btn.rect.y).toBeCloseTo(live!.y, 0);
    expect(btn.in_viewport).toBe(true);
    expect(btn.is_occluded).toBe(false);
    expect(content.some((e) => e.attributes?.id === "inner-link")).toBe(true);
    // frame elements are not repeated at the top level
    expect(body.raw_elements.some((e) => e.attributes?.id === "inner-btn")).toBe(false);
    // ids of frame elements are stable too
    const again = await collectIn(page);
    const btn2 = (byDomId(again, "same")!.iframe_content as RawElement[]).find((e) => e.attributes?.id === "inner-btn")!;
    expect(btn2.id).toBe(btn.id);
  });

  it("reports a cross-origin frame without reading it", async () => {
    const body = await collectIn(page);
    const frame = byDomId(body, "cross")!;
    expect(frame.attributes!.frame).toBe("cross-origin");
    expect(frame.attributes!.iframe_src).toContain("localhost");
    expect(frame.iframe_content).toEqual([]);
  });

  it("reads the same frames from Sightline's isolated world (the SDK's, the agent's and the server's collector)", async () => {
    // The collector there reaches the same-origin frame through contentDocument, in a context
    // Blink makes for the isolated world in that frame; the cross-origin one stays unread.
    const body = (await collectPage(page)) as CollectResult;
    const content = byDomId(body, "same")!.iframe_content as RawElement[];
    const btn = content.find((e) => e.attributes?.id === "inner-btn")!;
    const live = await page.frameLocator("#same").locator("#inner-btn").boundingBox();
    expect(btn.attributes).toMatchObject({ role: "button", aria_label: "Inner button" });
    expect(btn.rect.x).toBeCloseTo(live!.x, 0);
    expect(btn.rect.y).toBeCloseTo(live!.y, 0);
    expect(byDomId(body, "cross")!.attributes!.frame).toBe("cross-origin");
    expect(byDomId(body, "cross")!.iframe_content).toEqual([]);
    const again = (await collectPage(page)) as CollectResult;
    expect((byDomId(again, "same")!.iframe_content as RawElement[]).find((e) => e.attributes?.id === "inner-btn")!.id).toBe(btn.id);
  });
});
