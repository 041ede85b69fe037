// Launches Debian Chromium with the built extension loaded, and drives it like a person:
// the toolbar button (Extensions.triggerAction over CDP, which grants activeTab exactly like a
// click) and the side panel page opened for a given tab (`sidepanel.html?tabId=N`).
import { chromium, type BrowserContext, type Page, type Worker } from "playwright-core";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium.js";

/** The few extension APIs the tests call inside the service worker. */
interface ChromeLike {
  tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> };
  windows: { create(o: object): Promise<unknown> };
  runtime: { getURL(p: string): string; id: string };
  storage: { local: { get(k: string | null): Promise<Record<string, unknown>> } };
  scripting: { executeScript(o: object): Promise<{ result?: unknown }[]> };
}
declare const chrome: ChromeLike;

const root = fileURLToPath(new URL("../..", import.meta.url));
export const EXTENSION_DIR = join(root, "extension/.output/chrome-mv3");

/**
 * The build is made once per test run by `npm test` (`.ci/setup.mjs --extension`); when a test
 * file runs alone and finds no build, it builds once itself.
 */
export function ensureExtensionBuilt(): string {
  if (!existsSync(join(EXTENSION_DIR, "manifest.json"))) {
    execFileSync("pnpm", ["--filter", "@sightline/extension", "run", "build"], { cwd: root, stdio: "ignore" });
  }
  return EXTENSION_DIR;
}

export interface ExtensionBrowser {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  /** Clicks the extension's toolbar button on this page's tab (grants activeTab). */
  clickAction(page: Page): Promise<void>;
  /** The extension's tab id for a page (only visible once the extension has access to it). */
  tabIdOf(page: Page): Promise<number>;
  /** Opens the side panel page as its own window, acting on `tabId` (or, without it, as a side panel does: on the active tab). */
  openPanel(tabId?: number): Promise<Page>;
  close(): Promise<void>;
}

export async function launchWithExtension(): Promise<ExtensionBrowser> {
  const dir = ensureExtensionBuilt();
  const userDataDir = mkdtempSync(join(tmpdir(), "sightline-ext-"));
  // MV3 extensions load in Chromium's new headless mode (Playwright's default for headless
  // Chromium); --enable-unsafe-extension-debugging lets CDP press the toolbar button.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1100, height: 760 },
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`, "--enable-unsafe-extension-debugging"],
  });
  const worker = context.serviceWorkers().find((w) => w.url().startsWith("chrome-extension://")) ??
    (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  const browser = context.browser();
  if (!browser) throw new Error("no browser handle for CDP");
  const cdp = await browser.newBrowserCDPSession();

  async function tabTargetOf(page: Page): Promise<string> {
    const url = page.url();
    const { targetInfos } = (await cdp.send("Target.getTargets", { filter: [{ type: "tab" }] } as never)) as {
      targetInfos: { targetId: string; type: string; url: string }[];
    };
    const hits = targetInfos.filter((t) => t.type === "tab" && t.url === url);
    if (hits.length !== 1) throw new Error(`expected one tab at ${url}, found ${hits.length}`);
    return hits[0].targetId;
  }

  return {
    context,
    worker,
    extensionId,
    async clickAction(page) {
      await page.bringToFront();
      await cdp.send("Extensions.triggerAction" as never, { id: extensionId, targetId: await tabTargetOf(page) } as never);
    },
    async tabIdOf(page) {
      const url = page.url();
      const id = await worker.evaluate(async (u) => {
        const tabs = await chrome.tabs.query({});
        return tabs.find((t) => t.url === u)?.id ?? null;
      }, url);
      if (id === null) throw new Error(`the extension cannot see the tab at ${url} (no access granted)`);
      return id;
    },
    async openPanel(tabId) {
      const [page] = await Promise.all([
        context.waitForEvent("page", (p) => p.url().includes("/sidepanel.html")),
        worker.evaluate(
          (id) =>
            chrome.windows.create({
              url: chrome.runtime.getURL(id === null ? "/sidepanel.html" : `/sidepanel.html?tabId=${id}`),
              type: "popup",
              width: 440,
              height: 900,
              focused: false,
            }),
          tabId ?? null,
        ),
      ]);
      await page.setViewportSize({ width: 440, height: 900 });
      // Wait for the panel to say it started (its controls are wired after an async settings
      // read), not for a load event: on a loaded machine Playwright can attach to the new window
      // after its DOMContentLoaded and then wait for it forever (seen in CI).
      await page.locator("body[data-ready]").waitFor({ state: "attached", timeout: 15_000 });
      return page;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The person fills in the panel's settings (server and key), saves, and goes to the agent view. */
export async function saveBackendSettings(panel: Page, origin: string, key: string): Promise<void> {
  await panel.click('.tabs button[data-view="settings"]');
  await panel.fill("#backend-url", origin);
  await panel.fill("#api-key", key);
  await panel.click("#save-settings");
  await panel.waitForFunction(() => /Saved/.test(document.querySelector("#connection-result")?.textContent ?? ""));
  await panel.click('.tabs button[data-view="agent"]');
}
