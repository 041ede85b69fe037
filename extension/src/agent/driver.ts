// The PageDriver of the person's tab: page agent functions run in the extension's world of the
// tab (chrome.scripting), input and screenshots go through chrome.debugger, navigation through
// chrome.tabs (which never activates or focuses the tab).
import { browser } from "wxt/browser";
import { PAGE_AGENT_GLOBAL, type PageCallArgs, type PageCallName, type PageCallResult, type PageDriver } from "@sightline/shared/agent/perform";
import { ensureInjected, execWithDocument } from "../inject.js";
import * as cdp from "./debugger.js";
import * as pointer from "./tools.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Errors scripting gives while the tab is between documents: said the way isNavigationError knows. */
function asNavigation(err: unknown): unknown {
  const msg = String(err instanceof Error ? err.message : err);
  if (/Frame with ID \d+ (was removed|is showing error page)|The tab was closed|No tab with id|document.*(unloaded|destroyed)/i.test(msg)) {
    return new Error(`navigated: ${msg}`);
  }
  return err;
}

export class ExtensionDriver implements PageDriver {
  constructor(readonly tabId: number) {}

  async call<K extends PageCallName>(name: K, args: PageCallArgs<K>): Promise<PageCallResult<K>> {
    try {
      await ensureInjected(this.tabId);
      const { result } = await execWithDocument(
        this.tabId,
        (global: string, fn: string, a: unknown) => {
          const agent = (globalThis as unknown as Record<string, Record<string, (x: unknown) => unknown>>)[global];
          return agent[fn](a);
        },
        [PAGE_AGENT_GLOBAL, name, args] as [string, string, unknown],
      );
      return result as PageCallResult<K>;
    } catch (err) {
      throw asNavigation(err);
    }
  }

  click(x: number, y: number): Promise<void> {
    return cdp.mouseClick(this.tabId, x, y);
  }

  hover(x: number, y: number): Promise<void> {
    return pointer.hover(this.tabId, x, y);
  }

  drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    return pointer.drag(this.tabId, from, to);
  }

  typeText(text: string): Promise<void> {
    return cdp.typeText(this.tabId, text);
  }

  press(key: string): Promise<void> {
    return cdp.pressKey(this.tabId, key);
  }

  async navigate(url: string): Promise<void> {
    await browser.tabs.update(this.tabId, { url });
  }

  async back(): Promise<void> {
    await browser.tabs.goBack(this.tabId);
  }

  async forward(): Promise<void> {
    await browser.tabs.goForward(this.tabId);
  }

  async url(): Promise<string> {
    const tab = await browser.tabs.get(this.tabId);
    if (tab.url) return tab.url;
    if (cdp.isAttached(this.tabId)) {
      const r = await cdp.send<{ result: { value?: string } }>(this.tabId, "Runtime.evaluate", { expression: "location.href", returnByValue: true }).catch(() => null);
      if (r?.result.value) return r.result.value;
    }
    return "";
  }

  async documentId(): Promise<string> {
    try {
      return (await execWithDocument(this.tabId, () => 0, [])).documentId;
    } catch (err) {
      throw asNavigation(err);
    }
  }

  async settleNavigation(since: string): Promise<boolean> {
    // A navigation an action started shows as a loading tab; wait for its document (up to 10 s).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const tab = await browser.tabs.get(this.tabId);
      if (tab.status !== "loading") {
        try {
          return (await this.documentId()) !== since;
        } catch {
          // between documents: go round again
        }
      }
      if (Date.now() > deadline) return true;
      await sleep(50);
    }
  }

  async screenshot(): Promise<string> {
    if (cdp.isAttached(this.tabId)) return cdp.captureScreenshot(this.tabId);
    // Not yet let to act: the visible tab of its window can still be captured (activeTab).
    const tab = await browser.tabs.get(this.tabId);
    if (!tab.active) {
      throw new Error(
        "this tab is in the background: a screenshot of it needs the browser's debugger, which Sightline attaches once the person approves the agent's first action on the tab",
      );
    }
    const dataUrl = await browser.tabs.captureVisibleTab(tab.windowId, { format: "png" });
    return dataUrl.slice(dataUrl.indexOf(",") + 1);
  }
}
