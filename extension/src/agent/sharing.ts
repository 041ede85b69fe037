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
      this.hooks.changed();
    });
    // Without host permissions tabs.get hides a joined tab's URL; the committed one is known.
    browser.webNavigation.onCommitted.addListener((d) => {
      if (d.frameId === 0 && this.shared.has(d.tabId)) this.urls.set(d.tabId, d.url);
    });
    browser.tabs.onRemoved.addListener((id) => {
      this.urls.delete(id);
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
