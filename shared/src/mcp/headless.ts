// The headless backend: the agent works in its own Chromium (Debian's, or CHROMIUM_PATH), one
// browser context whose pages are the tabs; pages a page opens (popups, target=_blank) join.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { AgentError, performAction, screenshotWithMarks, waitOnPage, type ActionResult, type AgentAction, type AgentBackend, type AgentTab, type MarkBox, type ReadPage } from "../agent/index.js";
import type { SnapshotRequest } from "../contract/index.js";
import { collectorScript } from "../playwright/bundle.js";
import { PlaywrightDriver } from "../playwright/driver.js";
import { collectPage } from "../playwright/snapshot.js";
import { SightlineWorld } from "../playwright/world.js";

/** read() in Sightline's isolated world, where the collector and the page agent run (playwright/world.ts). */
const READ = "(o) => globalThis.sightline.read(o)";

export interface HeadlessOptions {
  /** A running browser to use (tests); else one is launched by `launch`. */
  browser: Browser;
  /** Close the browser with the backend (true when the backend launched it). */
  ownsBrowser?: boolean;
  viewport?: { width: number; height: number };
}

interface Tab {
  handle: string;
  page: Page;
  driver: PlaywrightDriver;
}

export class HeadlessBackend implements AgentBackend {
  private readonly tabsByHandle = new Map<string, Tab>();
  private next = 1;
  /** The tab the agent last worked in: "active" in tabs(). */
  private current: string | null = null;

  private constructor(
    private readonly opts: HeadlessOptions,
    private readonly context: BrowserContext,
  ) {
    context.on("page", (page) => this.adopt(page));
  }

  static async start(opts: HeadlessOptions): Promise<HeadlessBackend> {
    const context = await opts.browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
    const backend = new HeadlessBackend(opts, context);
    await context.newPage(); // adopted by the "page" listener
    return backend;
  }

  private adopt(page: Page): Tab {
    for (const t of this.tabsByHandle.values()) if (t.page === page) return t;
    const tab: Tab = { handle: `h${this.next++}`, page, driver: new PlaywrightDriver(page) };
    this.tabsByHandle.set(tab.handle, tab);
    // A page the agent's page opened becomes the one it works in, as a person would see it.
    if (this.current !== null) this.current = tab.handle;
    this.current ??= tab.handle;
    page.on("close", () => {
      this.tabsByHandle.delete(tab.handle);
      if (this.current === tab.handle) this.current = [...this.tabsByHandle.keys()].pop() ?? null;
    });
    return tab;
  }

  private tab(handle: string): Tab {
    const t = this.tabsByHandle.get(handle);
    if (!t) throw new AgentError("no_tab", `no tab "${handle}"; call tabs to list them`);
    this.current = handle;
    return t;
  }

  async tabs(): Promise<AgentTab[]> {
    const out: AgentTab[] = [];
    for (const t of this.tabsByHandle.values()) {
      out.push({ tab: t.handle, url: t.page.url(), title: await t.page.title().catch(() => ""), active: t.handle === this.current });
    }
    return out;
  }

  capture(handle: string): Promise<SnapshotRequest> {
    return collectPage(this.tab(handle).page);
  }

  async read(handle: string): Promise<ReadPage> {
    const { page } = this.tab(handle);
    const r = await SightlineWorld.of(page).call<{ title: string; description: string; content: string }>(READ, [{ format: "markdown" }], [collectorScript()]);
    return { url: page.url(), title: r.title, description: r.description, content: r.content };
  }

  screenshot(handle: string, marks: MarkBox[]): Promise<string> {
    return screenshotWithMarks(this.tab(handle).driver, marks);
  }

  act(handle: string, action: AgentAction): Promise<ActionResult> {
    return performAction(this.tab(handle).driver, action);
  }

  hiddenText(handle: string): Promise<string[]> {
    return this.tab(handle).driver.call("hiddenText", {});
  }

  wait(handle: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    return waitOnPage(this.tab(handle).driver, opts);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    if (this.opts.ownsBrowser) await this.opts.browser.close().catch(() => undefined);
  }
}
