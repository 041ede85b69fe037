// The extension in real Chromium: capture, ranking (API and local), read, visual, overlay and
// hover highlight on the live page, settings and credits against the real server, and what a
// hostile page cannot do. Screenshots of the side panel go to a temp dir, or with
// SIGHTLINE_UPDATE_DOCS=1 to extension/docs/ for the README (a plain test run leaves the tree clean).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DEFAULT_COLOR, DEFAULT_HIGHLIGHT } from "@sightline/shared/overlay";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { launchWithExtension, type ExtensionBrowser } from "./harness.js";
import { near, pixelsAt } from "./pixels.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const updateDocs = process.env.SIGHTLINE_UPDATE_DOCS === "1";
const docs = updateDocs ? fileURLToPath(new URL("../../extension/docs/", import.meta.url)) : `${mkdtempSync(join(tmpdir(), "sightline-docs-"))}/`;

let ext: ExtensionBrowser;
let site: StaticServer;
let server: Sightline | null = null;
let key: string;
let page: Page;
let tabId: number;
let panel: Page;
let apiOrder: number[] = [];

beforeAll(async () => {
  [site, server, ext] = await Promise.all([serveStatic(fixtures), startSightline(), launchWithExtension()]);
  key = await server.createKey(20);
  page = ext.context.pages()[0] ?? (await ext.context.newPage());
  await page.goto(site.url("/shop.html"));
  await ext.clickAction(page);
  tabId = await ext.tabIdOf(page);
  panel = await ext.openPanel(tabId);
  mkdirSync(docs, { recursive: true });
});

afterAll(async () => {
  if (!updateDocs) rmSync(docs, { recursive: true, force: true });
  await ext?.close();
  await server?.close();
  await site?.close();
});

/** expect.poll with room for a loaded 2-core CI machine (the default gives up after 1 s). */
function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

async function idle(p: Page = panel): Promise<void> {
  await p.waitForFunction(() => !document.body.hasAttribute("aria-busy"));
}

async function view(name: string): Promise<void> {
  await panel.locator(`.tabs button[data-view="${name}"]`).click();
}

async function rankInPanel(goal: string): Promise<{ id: number; text: string }[]> {
  await view("map");
  await panel.fill("#goal", goal);
  await panel.click("#rank");
  await panel.waitForFunction(() => document.querySelectorAll("#element-list li[data-id]").length > 0);
  await idle();
  return panel.$$eval("#element-list li[data-id]", (lis) =>
    lis.map((li) => ({ id: Number((li as HTMLElement).dataset.id), text: li.textContent ?? "" })),
  );
}

/** The page's own view of a selector's box (viewport coordinates). */
function rectOf(selector: string) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  });
}

async function leftEdgeColour(selector: string, inset = 1) {
  const r = await rectOf(selector);
  const [c] = await pixelsAt(panel, await page.screenshot(), [{ x: r.x + inset, y: r.y + r.height / 2 }]);
  return c;
}

describe("extension: capture in the user's tab", () => {
  it("the collector bundle runs in the tab and returns a snapshot request body", async () => {
    const body = (await ext.worker.evaluate(async (id) => {
      const c = (globalThis as unknown as { chrome: { scripting: { executeScript(o: object): Promise<{ result?: unknown }[]> } } }).chrome;
      await c.scripting.executeScript({ target: { tabId: id }, files: ["/collector.js"] });
      const [r] = await c.scripting.executeScript({
        target: { tabId: id },
        func: () => (globalThis as unknown as { sightline: { collect(): Promise<unknown> } }).sightline.collect(),
      });
      return r.result;
    }, tabId)) as { url: string; raw_elements: { tag: string }[]; viewport: { width: number } };
    expect(body.url).toBe(site.url("/shop.html"));
    expect(body.viewport.width).toBeGreaterThan(0);
    expect(body.raw_elements.some((e) => e.tag === "input")).toBe(true);
    expect(body.raw_elements.length).toBeGreaterThan(8);
  });

  it("without a backend it ranks locally, inside the extension, and says so", async () => {
    const rows = await rankInPanel("");
    expect(rows.length).toBeGreaterThan(5);
    expect(await panel.textContent("#mode-badge")).toBe("Local mode");
    expect(await panel.textContent("#mode-note")).toMatch(/no backend configured/i);
  });
});

describe("extension: settings and API mode against the real server", () => {
  it("saves the backend settings and shows the account's credits (a free check)", async () => {
    await view("settings");
    await panel.fill("#backend-url", server!.origin);
    await panel.fill("#api-key", key);
    await panel.click("#save-settings");
    await poll(() => panel.textContent("#connection-result")).toMatch(/Saved/);
    await panel.click("#test-connection");
    await poll(() => panel.textContent("#connection-result")).toBe("Connected. 20 credits left.");
    expect(await server!.credits(key)).toBe(20);
    // Saved for real: a fresh panel page reads them back.
    await panel.reload();
    expect(await panel.inputValue("#backend-url")).toBe(server!.origin);
    expect(await panel.inputValue("#api-key")).toBe(key);
  });

  it("shows the exact error for a wrong key", async () => {
    await view("settings");
    await panel.fill("#api-key", "sk_wrong");
    await panel.click("#test-connection");
    await poll(() => panel.textContent("#connection-result")).toMatch(/401/);
    await panel.fill("#api-key", key);
    await panel.click("#save-settings");
    await poll(() => panel.textContent("#connection-result")).toMatch(/Saved/);
  });

  it("Map with a goal puts the search box first and costs one credit", async () => {
    const before = await server!.credits(key);
    const rows = await rankInPanel("search for shoes");
    expect(rows[0].text).toMatch(/search/i);
    expect(rows[0].text).toMatch(/searchbox|textbox|combobox/);
    expect(await panel.textContent("#mode-badge")).toBe("API mode");
    expect(await server!.credits(key)).toBe(before - 1);
    apiOrder = rows.map((r) => r.id);
    await panel.screenshot({ path: `${docs}map.png` });
  });

  it("hovering a row highlights that element on the page, in a closed shadow root", async () => {
    const before = await leftEdgeColour("#q");
    expect(near(before, DEFAULT_HIGHLIGHT)).toBe(false);
    await panel.hover("#element-list li[data-rank='0']");
    await page.waitForFunction(() => !!document.querySelector("sightline-overlay"));
    // The page sees the host element but cannot open its shadow root.
    expect(await page.evaluate(() => document.querySelector("sightline-overlay")!.shadowRoot)).toBeNull();
    await poll(async () => near(await leftEdgeColour("#q"), DEFAULT_HIGHLIGHT)).toBe(true);
    await panel.mouse.move(2, 2);
    await poll(async () => near(await leftEdgeColour("#q"), DEFAULT_HIGHLIGHT)).toBe(false);
  });

  it("clicking a row scrolls the page to the element", async () => {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await panel.click("#element-list li[data-rank='0']");
    await poll(async () => (await rectOf("#q")).y).toBeGreaterThanOrEqual(0);
    const r = await rectOf("#q");
    expect(r.y).toBeLessThan(760);
  });

  it("the overlay draws numbered boxes on the page that follow scroll and resize", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await panel.check("#overlay-toggle");
    await idle();
    // The page's own CSS says `sightline-overlay { display: none !important }`: the boxes still show.
    await poll(async () => near(await leftEdgeColour("#buy", 0.5), DEFAULT_COLOR)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 120));
    await poll(async () => near(await leftEdgeColour("#buy", 0.5), DEFAULT_COLOR)).toBe(true);
    await page.setViewportSize({ width: 700, height: 700 });
    await poll(async () => near(await leftEdgeColour("#buy", 0.5), DEFAULT_COLOR)).toBe(true);
    await page.screenshot({ path: `${docs}overlay.png` });
    // A page script that removes the host does not get rid of the boxes.
    await page.evaluate(() => document.querySelector("sightline-overlay")!.remove());
    await poll(() => page.evaluate(() => document.querySelectorAll("sightline-overlay").length)).toBe(1);
    await poll(async () => near(await leftEdgeColour("#buy", 0.5), DEFAULT_COLOR)).toBe(true);
    await panel.uncheck("#overlay-toggle");
    await idle();
    await poll(async () => near(await leftEdgeColour("#buy", 0.5), DEFAULT_COLOR)).toBe(false);
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it("Read shows the tab's title, description and text as Markdown", async () => {
    await view("read");
    await panel.click("#load-read");
    await panel.waitForSelector("#read-result:not([hidden])");
    await idle();
    expect(await panel.textContent("#read-title")).toBe("Trailhead Outfitters — Hiking gear");
    expect(await panel.textContent("#read-description")).toMatch(/shipped free over \$50/);
    expect(await panel.textContent("#read-content")).toMatch(/resoled by hand in Portland/);
    await panel.screenshot({ path: `${docs}read.png` });
  });

  it("Visual shows the screenshot with numbered boxes", async () => {
    await view("visual");
    await panel.click("#take-visual");
    await panel.waitForSelector("#visual-canvas:not([hidden])");
    await idle();
    const marks = Number(await panel.getAttribute("#visual-canvas", "data-marks"));
    expect(marks).toBeGreaterThan(3);
    // Mark colour really is in the picture.
    const hasMarks = await panel.$eval("#visual-canvas", (c, color) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext("2d")!.getImageData(0, 0, cv.width, cv.height).data;
      const n = parseInt(color.slice(1), 16);
      let hits = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] === (n >> 16) && d[i + 1] === ((n >> 8) & 255) && d[i + 2] === (n & 255)) hits++;
      return hits;
    }, DEFAULT_COLOR);
    expect(hasMarks).toBeGreaterThan(100);
    await panel.screenshot({ path: `${docs}visual.png` });
    const png = await panel.$eval("#visual-canvas", (c) => (c as HTMLCanvasElement).toDataURL("image/png"));
    await writeFile(`${docs}visual-marks.png`, Buffer.from(png.split(",")[1], "base64"));
  });

  it("shares the marked screenshot through the backend: a signed link, 10 credits", async () => {
    const before = await server!.credits(key);
    await panel.click("#share-visual");
    await panel.waitForSelector("#visual-link:not([hidden])");
    await idle();
    const link = (await panel.getAttribute("#visual-url", "href"))!;
    expect(link.startsWith(`${server!.origin}/`)).toBe(true);
    expect(await server!.credits(key)).toBe(before - 10);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/image\/png/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it("renders the whole page (beyond the visible part) with html-to-image", async () => {
    await panel.click("#full-page");
    await idle();
    expect(await panel.textContent("#visual-info")).toMatch(/^Full page/);
    const size = await panel.$eval("#visual-canvas", (c) => ({ w: (c as HTMLCanvasElement).width, h: (c as HTMLCanvasElement).height }));
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(size.h).toBeGreaterThanOrEqual(pageHeight - 2);
    expect(size.h).toBeGreaterThan(760);
  });

  it("renders the element last clicked in Map as an image", async () => {
    // "clicking a row" above selected the top row, the search box.
    expect(await panel.textContent("#element-image")).toBe(`Image of #${apiOrder[0]}`);
    await panel.click("#element-image");
    await idle();
    expect(await panel.textContent("#visual-info")).toMatch(new RegExp(`^Element #${apiOrder[0]}, `));
    const width = await panel.$eval("#visual-canvas", (c) => (c as HTMLCanvasElement).width);
    expect(Math.abs(width - (await rectOf("#q")).width)).toBeLessThanOrEqual(2);
  });

  it("acts on the tab it was opened for, even when another tab is in front", async () => {
    const other = await ext.context.newPage();
    await other.goto(site.url("/other.html"));
    await other.bringToFront();
    await view("read");
    await panel.click("#load-read");
    await idle();
    expect(await panel.textContent("#read-title")).toBe("Trailhead Outfitters — Hiking gear");
    expect(await panel.textContent("#tab-title")).toBe("Trailhead Outfitters — Hiking gear");
    await other.close();
    await page.bringToFront();
  });
});

describe("extension: which tab the panel acts on", () => {
  it("on a tab it was not given access to, it says what to do instead of failing silently", async () => {
    const tabIds = () => ext.worker.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.id as number));
    const before = new Set(await tabIds());
    const stranger = await ext.context.newPage();
    await stranger.goto(site.url("/other.html"));
    const strangerId = (await tabIds()).find((id) => !before.has(id))!;
    let p: Page | undefined;
    try {
      p = await ext.openPanel(strangerId);
      await p.click("#rank");
      await p.waitForSelector("#status.error");
      expect(await p.textContent("#status")).toMatch(/no access to this tab yet.*toolbar button/i);
      expect(await p.$$("#element-list li[data-id]")).toHaveLength(0);
    } finally {
      // Always give the shared page back its place as the active tab: later tests screenshot it.
      await p?.close();
      await stranger.close();
      await page.bringToFront();
    }
  });

  it("without ?tabId it follows the active tab, as the real side panel does", async () => {
    const side = await ext.openPanel();
    try {
      await poll(() => side.textContent("#tab-title")).toBe("Trailhead Outfitters — Hiking gear");
    } finally {
      await side.close();
    }
  });
});

describe("extension: export and screenshots", () => {
  it("downloads the snapshot as JSON and as a one-line-per-element agent prompt", async () => {
    await view("map");
    const [json] = await Promise.all([panel.waitForEvent("download"), panel.click("#download-json")]);
    const snap = JSON.parse(await readFile(await json.path(), "utf8")) as { url: string; elements: { id: number }[]; goal?: string };
    expect(snap.url).toBe(site.url("/shop.html"));
    expect(snap.goal).toBe("search for shoes");
    expect(snap.elements.length).toBeGreaterThan(5);
    const [txt] = await Promise.all([panel.waitForEvent("download"), panel.click("#download-prompt")]);
    const lines = (await readFile(await txt.path(), "utf8")).split("\n");
    expect(lines[0]).toBe("Goal: search for shoes");
    const elementLines = lines.filter((l) => /^\[\d+\] /.test(l));
    // Best first; layout containers whose text repeats their children may be left out.
    const ids = new Set(snap.elements.map((e) => e.id));
    expect(elementLines.length).toBeGreaterThan(5);
    expect(elementLines.every((l) => ids.has(Number(/^\[(\d+)\]/.exec(l)![1])))).toBe(true);
    expect(elementLines[0].startsWith(`[${snap.elements[0].id}] `)).toBe(true);
  });

  it("queues screenshots beyond Chromium's two-per-second quota instead of failing", async () => {
    await page.bringToFront(); // a screenshot needs the visible tab; do not depend on earlier tests leaving it so
    const replies = await panel.evaluate(
      (id) =>
        Promise.all(
          Array.from({ length: 5 }, () =>
            chrome.runtime.sendMessage({ tag: "sightline/panel", request: { type: "screenshot", tabId: id } }) as Promise<{ ok: boolean; error?: string }>,
          ),
        ),
      tabId,
    );
    expect(replies.map((r) => r.error ?? "ok")).toEqual(["ok", "ok", "ok", "ok", "ok"]);
  });
});

describe("extension: what a page cannot do", () => {
  it("a page has no channel to the extension and never sees the key", async () => {
    expect(await page.evaluate(() => (window as unknown as { __probe: { runtime: string } }).__probe.runtime)).not.toBe("function");
    const html = await page.evaluate(() => document.documentElement.outerHTML + JSON.stringify(localStorage) + document.cookie);
    expect(html).not.toContain(key);
  });

  it("messages sent from inside the page (content-script context) are ignored by the background", async () => {
    const ask = (from: "page" | "panel") =>
      from === "panel"
        ? panel.evaluate((id) => chrome.runtime.sendMessage({ tag: "sightline/panel", request: { type: "collect", tabId: id } }), tabId)
        : ext.worker.evaluate(async (id) => {
            const [r] = await chrome.scripting.executeScript({
              target: { tabId: id },
              func: (tid: number) =>
                new Promise((resolve) => {
                  chrome.runtime.sendMessage({ tag: "sightline/panel", request: { type: "collect", tabId: tid } }, (reply: unknown) => {
                    void chrome.runtime.lastError;
                    resolve(reply ?? null);
                  });
                  setTimeout(() => resolve("timeout"), 2000);
                }),
              args: [id],
            });
            return r.result;
          }, tabId);
    // The extension's own page gets an answer (so the check below can fail)...
    expect(await ask("panel")).toMatchObject({ ok: true });
    // ...a script in the tab, even one running with the extension's id, gets none.
    expect(await ask("page")).toBeNull();
  });
});

describe("extension: the key stays in the extension", () => {
  it("script running inside the tab, even in the extension's own isolated world, cannot read stored settings", async () => {
    const got = await ext.worker.evaluate(async (id) => {
      const [r] = await chrome.scripting.executeScript({
        target: { tabId: id },
        func: async () => {
          try {
            return JSON.stringify(await chrome.storage.local.get(null));
          } catch (e) {
            return `refused: ${(e as Error).message}`;
          }
        },
      });
      return r.result as string;
    }, tabId);
    expect(got).toMatch(/^refused/);
    expect(got).not.toContain(key);
    // ...while the extension's own page reads it (so the check above can fail).
    expect(JSON.stringify(await panel.evaluate(() => chrome.storage.local.get(null)))).toContain(key);
  });
});

describe("extension: local mode when the backend goes away", () => {
  it("ranks inside the extension with the server stopped, and says why", async () => {
    await server!.close();
    server = null;
    const rows = await rankInPanel("search for shoes");
    expect(await panel.textContent("#mode-badge")).toBe("Local mode");
    expect(await panel.textContent("#mode-note")).toMatch(/backend unreachable/i);
    // Same capture, same goal: the same ranking as the server gave.
    expect(rows.map((r) => r.id)).toEqual(apiOrder);
  });
});

describe("extension: the tab moves on", () => {
  it("forgets the old capture when the tab navigates, and reads the new page", async () => {
    await page.goto(site.url("/other.html"));
    await poll(() => panel.textContent("#tab-title")).toBe("Another tab");
    expect(await panel.$$("#element-list li[data-id]")).toHaveLength(0);
    const rows = await rankInPanel("");
    expect(rows.map((r) => r.text).join("\n")).toMatch(/Decoy/);
    expect(rows.map((r) => r.text).join("\n")).not.toMatch(/Add boots to cart/);
  });
});
