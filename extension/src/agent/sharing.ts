// Which tabs the person shared with agents: the share itself, tabs a shared page opened (they
// join), tabs closed (they leave), and the list the bridge sends the server.
import { browser } from "wxt/browser";
import { AgentError, type AgentTab } from "@sightline/shared/agent/core";
import * as cdp from "./debugger.js";

export interface SharingHooks {
  /** The set of shared tabs changed: persist, broadcast, tell the server. */
  changed(): void;
  /** A shared tab's URL, title or the front tab changed: tell the server. */
  tabsChanged(): void;
  /** `tabId` stopped being shared: what waits on it is cancelled. */
  unshared(tabId: number): void;
}

export class Sharing {
  private shared = new Set<number>();
  /** Last committed URL of shared tabs (in memory: a worker that slept answers tabs.get's). */
  private readonly urls = new Map<number, string>();
  /** Tabs the agent opened (tab_open, or a link it clicked): the only ones it may close. */
  private readonly agentOpened = new Set<number>();
  /** Tabs shared pages opened: by which tab, when (the answer of the action that opened one names it). */
  private readonly joins: { tabId: number; source: number; at: number }[] = [];

  constructor(private readonly hooks: SharingHooks) {}

  /** The ids kept in session storage; tabs closed while the worker slept are dropped. */
  async restore(ids: number[]): Promise<void> {
    const alive = await Promise.all(ids.map((id) => browser.tabs.get(id).then(() => id, () => null)));
    this.shared = new Set(alive.filter((id): id is number => id !== null));
  }

  has(tabId: number): boolean {
    return this.shared.has(tabId);
  }

  get size(): number {
    return this.shared.size;
  }

  ids(): number[] {
    return [...this.shared];
  }

  /** The tab a call names, if it is shared; else a no_tab error. */
  tabOf(handle: string): number {
    const id = Number(handle);
    if (!Number.isInteger(id) || !this.shared.has(id)) throw new AgentError("no_tab", `tab "${handle}" is not shared with the agent`);
    return id;
  }

  listen(): void {
    // A tab a shared page itself opened (a target=_blank link, window.open) joins the share.
    // Not tabs.onCreated's openerTabId: Chromium also names the front tab the opener of a tab
    // the person opens with Ctrl+T or the new-tab button, and that tab is the person's own.
    browser.webNavigation.onCreatedNavigationTarget.addListener((d) => {
      if (!this.shared.has(d.sourceTabId) || this.shared.has(d.tabId)) return;
      this.shared.add(d.tabId);
      this.urls.set(d.tabId, d.url);
      this.joins.push({ tabId: d.tabId, source: d.sourceTabId, at: Date.now() });
      if (this.joins.length > 50) this.joins.shift();
      this.hooks.changed();
    });
    // Without host permissions tabs.get hides a joined tab's URL; the committed one is known.
    browser.webNavigation.onCommitted.addListener((d) => {
      if (d.frameId === 0 && this.shared.has(d.tabId)) this.urls.set(d.tabId, d.url);
    });
    browser.tabs.onRemoved.addListener((id) => {
      this.urls.delete(id);
      this.agentOpened.delete(id);
      if (this.shared.delete(id)) this.hooks.changed();
    });
    browser.tabs.onUpdated.addListener((id, info) => {
      if (this.shared.has(id) && (info.url !== undefined || info.title !== undefined || info.status === "complete")) this.hooks.tabsChanged();
    });
    browser.tabs.onActivated.addListener(() => this.hooks.tabsChanged());
  }

  /** The shared tabs as an agent sees them (not yet scrubbed of typed secrets). */
  async tabs(): Promise<AgentTab[]> {
    const out: AgentTab[] = [];
    for (const id of this.shared) {
      const t = await browser.tabs.get(id).catch(() => null);
      if (!t) continue;
      out.push({ tab: String(id), url: t.url || this.urls.get(id) || "", title: t.title ?? "", active: !!t.active });
    }
    return out;
  }

  /**
   * Tabs `source`'s page opened since `since` (during an agent's action there): the agent opened
   * them, so it may close them; the action's answer names them.
   */
  openedBy(source: number, since: number): { tab: string; url: string }[] {
    const out: { tab: string; url: string }[] = [];
    for (const j of this.joins) {
      if (j.source !== source || j.at < since || !this.shared.has(j.tabId)) continue;
      this.agentOpened.add(j.tabId);
      out.push({ tab: String(j.tabId), url: this.urls.get(j.tabId) ?? "" });
    }
    return out;
  }

  /** tab_open: a new tab beside `from`, in front (the person sees where the agent works); it joins the share. */
  async open(from: number, url: string): Promise<number> {
    const src = await browser.tabs.get(from);
    const t = await browser.tabs.create({ url, openerTabId: from, windowId: src.windowId, index: src.index + 1, active: true });
    if (t.id === undefined) throw new AgentError("failed", "the browser opened no tab");
    this.shared.add(t.id);
    this.urls.set(t.id, url);
    this.agentOpened.add(t.id);
    this.hooks.changed();
    return t.id;
  }

  /** tab_select: the tab comes to the front of its window, so calls without a tab go to it. */
  async select(tabId: number): Promise<void> {
    await browser.tabs.update(tabId, { active: true });
  }

  /** tab_close: only a tab the agent opened; one the person opened is theirs to close. */
  async close(tabId: number): Promise<void> {
    if (!this.agentOpened.has(tabId)) {
      throw new AgentError("not_actionable", `tab ${tabId} is one the person opened; the agent may close only tabs it opened (tab_open, or a link it followed)`);
    }
    await browser.tabs.remove(tabId);
    // Gone from the share now, not when onRemoved comes: the answer lists the tabs left.
    this.urls.delete(tabId);
    this.agentOpened.delete(tabId);
    if (this.shared.delete(tabId)) this.hooks.changed();
  }

  /** The person shares a tab, or stops sharing it (the debugger lets go of it). */
  async share(tabId: number, on: boolean): Promise<void> {
    if (on) this.shared.add(tabId);
    else {
      this.shared.delete(tabId);
      await cdp.detach(tabId);
      this.hooks.unshared(tabId);
    }
    this.hooks.changed();
  }
}
