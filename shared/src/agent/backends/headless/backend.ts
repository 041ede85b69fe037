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
import { TabDialogs } from "./dialogs.js";
import { performUpload, uploadFile } from "./files.js";
import { TabDownloads } from "./downloads.js";
import { CrossFrames } from "./frames.js";
import { fileNameOf, mimeOf } from "../../core/uploads.js";

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
  /** The only folder uploads may come from (default: SIGHTLINE_UPLOAD_DIR; unset: no uploads). */
  uploadDir?: string;
  /** The folder downloads are saved into (default: SIGHTLINE_DOWNLOAD_DIR; unset: downloads are off, nothing is kept). */
  downloadDir?: string;
}

interface Tab {
  handle: string;
  page: Page;
  driver: PlaywrightDriver;
  /** Its JavaScript dialogs: kept open for the agent to answer (./dialogs.ts). */
  dialogs: TabDialogs;
  /** Its downloads: saved into the download folder, or refused (./downloads.ts). */
  downloads: TabDownloads;
  /** Its cross-origin frames: collected and acted on in worlds of their own (./frames.ts). */
  frames: CrossFrames;
  /** The title last read (a page blocked by a dialog cannot be asked). */
  title: string;
}

/** What a dialog answered outside any action did: the page's changes in the next second. */
async function settleAfterDialog(driver: PlaywrightDriver): Promise<ActionResult> {
  const doc = await driver.documentId();
  const token = await driver.call("watchStart", {}).catch(() => null);
  const changes = token ? await driver.call("watchSettle", { token, quietMs: 150, maxMs: 1000 }).catch(() => -1) : -1;
  const navigated = (await driver.settleNavigation(doc)) || (token !== null && changes < 0);
  const url = await driver.url();
  return { outcome: navigated ? "navigated" : changes > 0 ? "dom_changed" : "nothing_changed", url, method: "browser", mutations: Math.max(0, changes) };
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
    const driver = new PlaywrightDriver(page);
    const frames = new CrossFrames(page, (world, name, args) => driver.callIn(world, name, args));
    driver.router = frames;
    const tab: Tab = { handle: `h${this.next++}`, page, driver, frames, dialogs: new TabDialogs(page), downloads: new TabDownloads(page, this.opts.downloadDir ?? (process.env.SIGHTLINE_DOWNLOAD_DIR || undefined)), title: "" };
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
      const dialog = t.dialogs.info();
      if (!dialog) t.title = await t.dialogs.guard(() => t.page.title()).catch(() => t.title);
      out.push({ tab: t.handle, url: t.page.url(), title: t.title, active: t.handle === this.current, ...(dialog ? { dialog } : {}) });
    }
    return out;
  }

  capture(handle: string, opts: CaptureOptions = {}): Promise<SnapshotRequest> {
    // Cross-origin frames are collected in worlds of their own and joined in (./frames.ts).
    const { page, dialogs, frames } = this.tab(handle);
    const collector = { frames: true, ...(opts.textVisibility ? { textVisibility: true } : {}), ...(opts.summary ? SUMMARY : {}) };
    return dialogs.guard(async () => frames.merge(await collectPage(page, { collector }), collector));
  }

  async read(handle: string): Promise<ReadPage> {
    const { page, dialogs } = this.tab(handle);
    // markHidden: every run the person cannot see comes back wrapped in ⟦hidden⟧ marks.
    const r = await dialogs.guard(() =>
      SightlineWorld.of(page).call<{ title: string; description: string; content: string }>(READ, [{ format: "markdown", markHidden: true }], [collectorScript()]),
    );
    return { url: page.url(), title: r.title, description: r.description, content: r.content };
  }

  screenshot(handle: string, marks: MarkBox[]): Promise<string> {
    const { driver, dialogs } = this.tab(handle);
    return dialogs.guard(() => screenshotWithMarks(driver, marks));
  }

  async act(handle: string, action: AgentAction): Promise<ActionResult> {
    const { page, driver, dialogs, downloads } = this.tab(handle);
    const told = async (r: ActionResult): Promise<ActionResult> => {
      // What the action downloaded (or what an earlier one was still downloading): named in the answer.
      const files = await downloads.settle();
      return files.length ? { ...r, downloads: files } : r;
    };
    if (action.kind === "dialog") return told(await dialogs.answer(action.accept, action.text, () => settleAfterDialog(driver)));
    dialogs.refuse();
    const before = new Set(this.tabsByHandle.keys());
    const result = await told(await this.actOn(handle, page, driver, dialogs, action));
    // A page the action opened (target=_blank, window.open) joined the tabs: the answer names it.
    const opened = [...this.tabsByHandle.values()].filter((t) => !before.has(t.handle)).map((t) => ({ tab: t.handle, url: t.page.url() }));
    return opened.length ? { ...result, opened } : result;
  }

  private async actOn(handle: string, page: Page, driver: PlaywrightDriver, dialogs: TabDialogs, action: AgentAction): Promise<ActionResult> {
    let asked: string | null = null;
    if (action.kind === "navigate") {
      asked = checkNavigableUrl(action.url).href;
      // As typed: a host spelled `2130706433` or `127.1` is refused before URL parsing hides it.
      await checkAgentUrl(action.url, this.opts.policy ?? DEFAULT_POLICY, this.opts.lookup);
    }
    if (action.kind === "upload") {
      // Inline bytes (a remote agent's file), or a file of the upload folder.
      const file =
        action.content !== undefined
          ? { name: fileNameOf(action.path), mimeType: mimeOf(action.path) || "application/octet-stream", buffer: Buffer.from(action.content, "base64") }
          : (await uploadFile(this.opts.uploadDir ?? process.env.SIGHTLINE_UPLOAD_DIR, action.path)).path;
      return dialogs.run(() => performUpload(page, driver, action.id, file));
    }
    const watch = new NavigationWatch(page, this.proxy, asked);
    try {
      const result = await dialogs.run(() => performAction(driver, action));
      const refused = watch.refusal();
      if (refused) throw refused;
      return result;
    } catch (err) {
      const refused = watch.refusal();
      if (refused) throw refused;
      // navigate to a file the server sends as an attachment: Chromium downloads it, the page stays.
      if (action.kind === "navigate" && /Download is starting/i.test(String(err))) {
        await this.tabsByHandle.get(handle)?.downloads.arrival(5_000);
        return { outcome: "nothing_changed", url: page.url(), method: "browser", mutations: 0 };
      }
      throw err;
    } finally {
      watch.stop();
    }
  }

  /** A new page of the agent's context (it becomes the current tab), then navigated like `navigate`. */
  async openTab(url: string): Promise<AgentTab> {
    checkNavigableUrl(url);
    await checkAgentUrl(url, this.opts.policy ?? DEFAULT_POLICY, this.opts.lookup);
    const page = await this.context.newPage();
    const tab = this.adopt(page);
    this.current = tab.handle;
    try {
      await this.act(tab.handle, { kind: "navigate", url });
    } catch (err) {
      await page.close().catch(() => undefined);
      throw err;
    }
    return { tab: tab.handle, url: page.url(), title: await page.title().catch(() => ""), active: true };
  }

  async selectTab(handle: string): Promise<void> {
    await this.tab(handle).page.bringToFront();
  }

  /** Every tab of the headless browser is the agent's own; the last one stays (there is always a tab). */
  async closeTab(handle: string): Promise<void> {
    const { page } = this.tab(handle);
    if (this.tabsByHandle.size === 1) throw new AgentError("not_actionable", "this is the agent's only tab; navigate it instead");
    await page.close();
  }

  hiddenText(handle: string): Promise<string[]> {
    const { driver, dialogs } = this.tab(handle);
    return dialogs.guard(() => driver.call("hiddenText", {}));
  }

  wait(handle: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    const { driver, dialogs } = this.tab(handle);
    return dialogs.guard(() => waitOnPage(driver, opts));
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.proxy.close();
    if (this.opts.ownsBrowser) await this.opts.browser.close().catch(() => undefined);
  }
}
