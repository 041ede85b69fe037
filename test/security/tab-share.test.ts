// Which tabs an agent may touch: only the ones the person shared, and the ones a shared page
// itself opened (a target=_blank link, window.open). A tab the person opens while a shared tab
// is in front (Ctrl+T, the new-tab button; reproduced here over CDP, which Chromium gives the
// same opener) is the person's own and must stay out of the share. Real Chromium, the built
// extension, the real server and a real MCP client.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { Page } from "playwright-core";
import { fileURLToPath } from "node:url";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";
import { httpClient, type McpClient } from "../agent/mcp-client.js";

let site: StaticServer;
let sl: Sightline;
let ext: ExtensionBrowser;
let page: Page;
let panel: Page;
let sharedTab: number;
let mcp: McpClient;

interface Tab {
  tab: string;
  url: string;
  title: string;
}
const tabs = async (): Promise<Tab[]> => ((await mcp.call("tabs")).structuredContent as { tabs: Tab[] }).tabs;

/** The extension's shared tab ids, as its panel sees them. */
async function sharedIds(): Promise<number[]> {
  const reply = (await panel.evaluate(() => chrome.runtime.sendMessage({ tag: "sightline/panel", request: { type: "agent-state" } }))) as {
    ok: boolean;
    data: { shared: number[] };
  };
  if (!reply.ok) throw new Error("the panel's agent-state request failed");
  return [...reply.data.shared].sort((a, b) => a - b);
}

beforeAll(async () => {
  [site, sl, ext] = await Promise.all([serveStatic(fileURLToPath(new URL("./fixtures/", import.meta.url))), startSightline(), launchWithExtension()]);
  const key = await sl.createKey(100);
  page = ext.context.pages()[0] ?? (await ext.context.newPage());
  await page.goto(site.url("/opener.html"));
  await ext.clickAction(page);
  sharedTab = await ext.tabIdOf(page);
  panel = await ext.openPanel(sharedTab);
  await saveBackendSettings(panel, sl.origin, key);
  await panel.check("#share-toggle");
  await panel.waitForSelector('#agent-conn[data-status="connected"]', { timeout: 20_000 });
  mcp = await httpClient(sl.origin, key);
});

afterAll(async () => {
  await mcp?.close();
  await ext?.close();
  await sl?.close();
  await site?.close();
});

describe("the share holds only what the person shared", () => {
  it("a tab the person opens while the shared tab is in front stays theirs", async () => {
    const before = await sharedIds();
    // The panel's window would be the one in front: close it, so that the shared tab is the
    // front tab of the focused window, as when the person presses Ctrl+T.
    await panel.close();
    await page.bringToFront();
    await ext.worker.evaluate(() => {
      const g = globalThis as { openers?: (number | undefined)[] };
      g.openers = [];
      chrome.tabs.onCreated.addListener((t) => g.openers!.push(t.openerTabId));
    });
    // Over CDP (Target.createTarget), which Chromium opens as the tab strip does for Ctrl+T or
    // the new-tab button: the tab in front becomes its opener, though no page opened it.
    const own = await ext.context.newPage();
    onTestFinished(() => own.close());
    await own.goto(site.url("/elsewhere.html"));
    // The scenario holds: Chromium did name the shared tab the new tab's opener.
    expect(await ext.worker.evaluate(() => (globalThis as { openers?: unknown[] }).openers)).toEqual([sharedTab]);
    // A tab that joins shows up within a few hundred ms (the tests below); wait longer.
    await own.waitForTimeout(1_000);
    expect((await tabs()).map((t) => t.url)).toEqual([site.url("/opener.html")]);
    panel = await ext.openPanel(sharedTab);
    expect(await sharedIds()).toEqual(before);
  });

  for (const [how, selector, via] of [
    ["a target=_blank link", "#blank", "link"],
    ["window.open", "#popup", "window-open"],
  ] as const) {
    it(`a tab the shared page opens with ${how} joins the share, its URL known to the agent`, async () => {
      await page.bringToFront();
      const before = await sharedIds();
      const [opened] = await Promise.all([ext.context.waitForEvent("page"), page.click(selector)]);
      onTestFinished(() => opened.close());
      await opened.waitForLoadState("domcontentloaded");
      await expect.poll(async () => (await sharedIds()).length, { timeout: 10_000 }).toBe(before.length + 1);
      await expect.poll(async () => (await tabs()).map((t) => t.url), { timeout: 10_000 }).toContain(site.url(`/opened.html?via=${via}`));
      await opened.close();
      // Closed, it leaves the share.
      await expect.poll(async () => (await sharedIds()).length, { timeout: 10_000 }).toBe(before.length);
    });
  }
});
