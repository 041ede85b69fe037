// The headless backend: the agent works in its own Chromium (Debian's, or CHROMIUM_PATH), one
// browser context whose pages are the tabs; pages a page opens (popups, target=_blank) join.
// Every request of the context goes through an egress proxy holding it to the host policy
// (./egress.ts): by default, like /v1/observe, nothing private, loopback or link-local.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { checkNavigableUrl, type ActionResult, type AgentAction, type AgentTab } from "../../core/actions.js";
import { AgentError } from "../../core/errors.js";
import { performAction } from "../../perform/perform.js";
import { screenshotWithMarks, waitOnPage } from "../../perform/page-ops.js";
import type { AgentBackend, CaptureOptions, MarkBox, ReadPage } from "../../session/backend.js";
import type { SnapshotRequest } from "../../../contract/index.js";
import { collectorScript } from "../../../playwright/bundle.js";
import { PlaywrightDriver } from "./driver.js";
import { collectPage } from "../../../playwright/snapshot.js";
import { DEFAULT_POLICY, startEgressProxy, type EgressProxy, type HostPolicy, type Lookup } from "../../../net/index.js";
import { checkAgentUrl, NavigationWatch } from "./egress.js";
import { SightlineWorld } from "../../../playwright/world.js";

/** read() in Sightline's isolated world, where the collector and the page agent run (playwright/world.ts). */
const READ = "(o) => globalThis.sightline.read(o)";

/** A navigation's summary: the elements in the viewport (a fifth of the time on a page of
 *  thousands of controls). */
const SUMMARY = { viewportOnly: true };

export interface HeadlessOptions {
  /** A running browser to use (tests); else one is launched by `launch`. */
  browser: Browser;
  /** Close the browser with the backend (true when the backend launched it). */
  ownsBrowser?: boolean;
  viewport?: { width: number; height: number };
  /** Where the agent's pages may go (SIGHTLINE_ALLOW_PRIVATE_HOSTS parsed); default: public
   *  addresses only. Held to on every request: navigations, redirects, subresources. */
  policy?: HostPolicy;
  /** The resolver the policy checks names with (tests); the system's otherwise. */
  lookup?: Lookup;
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
    private readonly proxy: EgressProxy,
  ) {
    context.on("page", (page) => this.adopt(page));
  }

  static async start(opts: HeadlessOptions): Promise<HeadlessBackend> {
    const proxy = await startEgressProxy(opts.policy ?? DEFAULT_POLICY, { lookup: opts.lookup });
    let context: BrowserContext;
    try {
      // Playwright adds `<-loopback>` to the bypass list, so loopback goes through the proxy too.
      context = await opts.browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, proxy: { server: proxy.server } });
    } catch (err) {
      await proxy.close();
      throw err;
    }
    const backend = new HeadlessBackend(opts, context, proxy);
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

  capture(handle: string, opts: CaptureOptions = {}): Promise<SnapshotRequest> {
    const collector = { frames: true, ...(opts.textVisibility ? { textVisibility: true } : {}), ...(opts.summary ? SUMMARY : {}) };
    return collectPage(this.tab(handle).page, { collector });
  }

  async read(handle: string): Promise<ReadPage> {
    const { page } = this.tab(handle);
    // markHidden: every run the person cannot see comes back wrapped in ⟦hidden⟧ marks.
    const r = await SightlineWorld.of(page).call<{ title: string; description: string; content: string }>(READ, [{ format: "markdown", markHidden: true }], [collectorScript()]);
    return { url: page.url(), title: r.title, description: r.description, content: r.content };
  }

  screenshot(handle: string, marks: MarkBox[]): Promise<string> {
    return screenshotWithMarks(this.tab(handle).driver, marks);
  }

  async act(handle: string, action: AgentAction): Promise<ActionResult> {
    const { page, driver } = this.tab(handle);
    let asked: string | null = null;
    if (action.kind === "navigate") {
      asked = checkNavigableUrl(action.url).href;
      // As typed: a host spelled `2130706433` or `127.1` is refused before URL parsing hides it.
      await checkAgentUrl(action.url, this.opts.policy ?? DEFAULT_POLICY, this.opts.lookup);
    }
    const watch = new NavigationWatch(page, this.proxy, asked);
    try {
      const result = await performAction(driver, action);
      const refused = watch.refusal();
      if (refused) throw refused;
      return result;
    } catch (err) {
      throw watch.refusal() ?? err;
    } finally {
      watch.stop();
    }
  }

  hiddenText(handle: string): Promise<string[]> {
    return this.tab(handle).driver.call("hiddenText", {});
  }

  wait(handle: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    return waitOnPage(this.tab(handle).driver, opts);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.proxy.close();
    if (this.opts.ownsBrowser) await this.opts.browser.close().catch(() => undefined);
  }
}
