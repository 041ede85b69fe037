// The background service worker: the only part that touches tabs. It injects the collector and
// the page agent on demand (activeTab + scripting), takes screenshots through a rate-limited
// queue, and answers only the extension's own pages.
import { browser, type Browser } from "wxt/browser";
import { createRateQueue } from "./rate-queue.js";
import { explainTabError } from "./tab-errors.js";
import { ensureInjected, exec } from "./inject.js";
import { Supervisor } from "./agent/supervisor.js";
import type { Box, Envelope, PageScroll, PanelReply, PanelRequest, PanelResults, ReadResult, TabInfo } from "./messages.js";
import { MESSAGE_TAG } from "./messages.js";
import type { SnapshotRequest } from "@sightline/shared/contract";

type Sender = Browser.runtime.MessageSender;

/** True only for the extension's own pages (side panel, opened as a panel or as a tab). */
export function isOwnPage(sender: Sender, runtimeId: string, extensionOrigin: string): boolean {
  if (sender.id !== runtimeId) return false;
  const url = sender.url ?? "";
  // Content scripts share our id but report the web page's URL: refused here.
  return url.startsWith(extensionOrigin) && (sender.origin === undefined || `${sender.origin}/` === extensionOrigin);
}

const screenshots = createRateQueue({
  perSecond: 2,
  retries: 4,
  isQuotaError: (e) => /MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND|quota/i.test(String(e)),
});

async function resolveTab(tabId?: number): Promise<TabInfo> {
  let tab: Browser.tabs.Tab | undefined;
  if (typeof tabId === "number") tab = await browser.tabs.get(tabId);
  else {
    // Without the "tabs" permission a tab's URL is visible only once the person granted access
    // (toolbar click), so the active tab is taken as it is; reading it says what to do.
    const own = browser.runtime.getURL("/");
    const notOurs = (t: Browser.tabs.Tab) => !(t.url ?? "").startsWith(own);
    [tab] = (await browser.tabs.query({ active: true, lastFocusedWindow: true })).filter(notOurs);
    // The panel opened as a tab itself: fall back to the most recently used other tab.
    if (!tab) {
      const all = (await browser.tabs.query({})).filter(notOurs);
      all.sort((a, b) => Number(!!b.url) - Number(!!a.url) || (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
      tab = all[0];
    }
  }
  if (!tab || tab.id === undefined) throw new Error("No web page tab to read. Open a page and try again.");
  return { tabId: tab.id, windowId: tab.windowId, url: tab.url ?? "", title: tab.title ?? "" };
}

type Sightline = {
  collect(o?: unknown): Promise<SnapshotRequest>;
  read(o?: unknown): Promise<ReadResult>;
};
type Overlay = {
  overlay(b: Box[] | null, s?: PageScroll): number;
  highlight(b: Box | null, s?: PageScroll): boolean;
  scrollTo(b: Box, s?: PageScroll): boolean;
  image(id?: number): Promise<string>;
};

let supervisor: Supervisor | null = null;

async function handle(req: PanelRequest): Promise<PanelResults[PanelRequest["type"]]> {
  switch (req.type) {
    case "agent-state":
    case "agent-share":
    case "agent-decide":
    case "agent-allow-site":
    case "agent-mode":
    case "agent-reconnect":
      if (!supervisor) throw new Error("The agent bridge is not running.");
      return supervisor.request(req);
    case "tab":
      return resolveTab(req.tabId);
    case "collect":
      await ensureInjected(req.tabId);
      return exec(req.tabId, async () => {
        const s = (globalThis as unknown as { sightline: Sightline }).sightline;
        const body = await s.collect();
        return { ...body, scroll: { x: window.scrollX, y: window.scrollY } };
      }, []);
    case "read":
      await ensureInjected(req.tabId);
      return exec(req.tabId, async () => {
        const s = (globalThis as unknown as { sightline: Sightline }).sightline;
        return s.read({ format: "markdown" });
      }, []);
    case "screenshot": {
      const tab = await browser.tabs.get(req.tabId);
      if (!tab.active) throw new Error("The tab must be the visible tab of its window for a screenshot. Switch to it and try again.");
      const dataUrl = await screenshots.run(() => browser.tabs.captureVisibleTab(tab.windowId, { format: "png" }));
      return { dataUrl, format: "png" };
    }
    case "page-image":
      await ensureInjected(req.tabId);
      return { dataUrl: await exec(req.tabId, (id?: number) => (globalThis as unknown as { __sightlineOverlay: Overlay }).__sightlineOverlay.image(id ?? undefined), [req.id ?? null] as never) };
    case "overlay":
      await ensureInjected(req.tabId);
      return { shown: await exec(req.tabId, (b: Box[] | null, s?: PageScroll) => (globalThis as unknown as { __sightlineOverlay: Overlay }).__sightlineOverlay.overlay(b, s ?? undefined), [req.boxes, req.scroll ?? null] as never) };
    case "highlight":
      await ensureInjected(req.tabId);
      return { found: await exec(req.tabId, (b: Box | null, s?: PageScroll) => (globalThis as unknown as { __sightlineOverlay: Overlay }).__sightlineOverlay.highlight(b, s ?? undefined), [req.box, req.scroll ?? null] as never) };
    case "scroll-to":
      await ensureInjected(req.tabId);
      return { found: await exec(req.tabId, (b: Box, s?: PageScroll) => (globalThis as unknown as { __sightlineOverlay: Overlay }).__sightlineOverlay.scrollTo(b, s ?? undefined), [req.box, req.scroll ?? null] as never) };
  }
}

export function startBackground(): void {
  // The API key lives in storage.local: keep it from every script that runs inside a tab,
  // even the extension's own injected ones (Chromium; Firefox has no such switch).
  const local = browser.storage.local as { setAccessLevel?: (o: { accessLevel: string }) => Promise<void> };
  void local.setAccessLevel?.({ accessLevel: "TRUSTED_CONTEXTS" })?.catch(() => undefined);

  const runtimeId = browser.runtime.id;
  const origin = browser.runtime.getURL("/");

  // The toolbar button grants activeTab for the current tab (the click is the person's consent)
  // and opens the side panel for it. (openPanelOnActionClick would open the panel without the
  // onClicked event, and Chromium then does not always grant activeTab.)
  void browser.sidePanel?.setPanelBehavior?.({ openPanelOnActionClick: false })?.catch(() => undefined);
  browser.action.onClicked.addListener((tab) => {
    const sidePanel = browser.sidePanel as typeof browser.sidePanel | undefined;
    if (sidePanel?.open && tab.windowId !== undefined) {
      sidePanel.open({ windowId: tab.windowId }).catch(() => undefined);
      return;
    }
    // Firefox: the side panel is a sidebar.
    const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void> } }).sidebarAction;
    sidebar?.open().catch(() => undefined);
  });

  browser.runtime.onMessage.addListener((msg: unknown, sender: Sender, sendResponse: (r: unknown) => void) => {
    const env = msg as Partial<Envelope> | null;
    if (!env || env.tag !== MESSAGE_TAG || !env.request || !isOwnPage(sender, runtimeId, origin)) return false;
    handle(env.request).then(
      (data) => sendResponse({ ok: true, data } satisfies PanelReply<PanelRequest["type"]>),
      (err: unknown) => sendResponse({ ok: false, error: explainTabError(err) } satisfies PanelReply<PanelRequest["type"]>),
    );
    return true;
  });
  // No onMessageExternal / onConnectExternal listener: other extensions and web pages get nothing.

  // Agents: the bridge to the configured server, shared tabs and approvals (src/agent/).
  supervisor = new Supervisor();
  supervisor.start();
}
