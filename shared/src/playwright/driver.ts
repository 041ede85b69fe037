// PageDriver over a Playwright page: the page agent runs in the page's main world next to the
// collector (both injected by page.evaluate, which a page's CSP does not block), input goes
// through Playwright's mouse and keyboard (CDP Input.*: trusted events).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { CDPSession, Page, Request } from "playwright-core";
import { PAGE_AGENT_GLOBAL, type PageCallArgs, type PageCallName, type PageCallResult, type PageDriver } from "../agent/index.js";
import { injectCollector } from "./bundle.js";

/** dist/page-agent.js beside this module (src/ or dist/ alike), or SIGHTLINE_PAGE_AGENT_PATH. */
export function pageAgentBundlePath(): string {
  return process.env.SIGHTLINE_PAGE_AGENT_PATH || fileURLToPath(new URL("../../dist/page-agent.js", import.meta.url));
}

let agentSource: Promise<string> | null = null;
function pageAgentSource(): Promise<string> {
  agentSource ??= readFile(pageAgentBundlePath(), "utf8").catch((err: NodeJS.ErrnoException) => {
    agentSource = null;
    throw err.code === "ENOENT" ? new Error(`Sightline page agent bundle not found at ${pageAgentBundlePath()}; build it with: pnpm --filter @sightline/shared run build`) : err;
  });
  return agentSource;
}

/** How long a navigation an action started may take to commit before we stop waiting. */
const NAVIGATION_WAIT_MS = 10_000;
const MISSING = "__sightline_page_agent_missing__";

export class PlaywrightDriver implements PageDriver {
  /** Main-frame navigations seen: documentId() is this count. */
  private navigations = 0;
  private pending: Request | null = null;

  constructor(readonly page: Page) {
    page.on("framenavigated", (frame) => {
      if (!frame.parentFrame()) this.navigations++;
    });
    page.on("request", (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) this.pending = req;
    });
    const done = (req: Request) => {
      if (req === this.pending) this.pending = null;
    };
    page.on("requestfailed", done);
    page.on("requestfinished", done);
  }

  async call<K extends PageCallName>(name: K, args: PageCallArgs<K>): Promise<PageCallResult<K>> {
    const run = () =>
      this.page.evaluate(
        ([g, n, a, missing]) => {
          const agent = (globalThis as unknown as Record<string, Record<string, (x: unknown) => unknown> | undefined>)[g];
          return agent ? agent[n](a) : missing;
        },
        [PAGE_AGENT_GLOBAL, name, args as unknown, MISSING] as const,
      );
    let out = await run();
    if (out === MISSING) {
      // A new document: the collector (whose ids the agent reads) and the agent go in together.
      await injectCollector(this.page);
      await this.page.evaluate(await pageAgentSource());
      out = await run();
    }
    return out as PageCallResult<K>;
  }

  click(x: number, y: number): Promise<void> {
    return this.page.mouse.click(x, y);
  }

  private cdp: Promise<CDPSession> | null = null;

  /**
   * Trusted key events for every character (keydown, keypress/input, keyup, as a person
   * typing), sent to CDP back to back and awaited once: one round trip, not three per key as
   * keyboard.type() takes. Line breaks are Enter presses.
   */
  async typeText(text: string): Promise<void> {
    this.cdp ??= this.page.context().newCDPSession(this.page);
    const cdp = await this.cdp;
    const sends: Promise<unknown>[] = [];
    for (const ch of text) {
      if (ch === "\n" || ch === "\r") {
        const enter = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 };
        sends.push(cdp.send("Input.dispatchKeyEvent", { type: "keyDown", ...enter, text: "\r" }));
        sends.push(cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...enter }));
        continue;
      }
      sends.push(cdp.send("Input.dispatchKeyEvent", { type: "keyDown", key: ch, text: ch, unmodifiedText: ch }));
      sends.push(cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: ch }));
    }
    await Promise.all(sends);
  }

  press(key: string): Promise<void> {
    return this.page.keyboard.press(key);
  }

  async navigate(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: "domcontentloaded" });
  }

  async back(): Promise<void> {
    await this.page.goBack({ waitUntil: "domcontentloaded" });
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  async documentId(): Promise<string> {
    return String(this.navigations);
  }

  async settleNavigation(since: string): Promise<boolean> {
    if (this.pending && String(this.navigations) === since) {
      await this.page.waitForEvent("framenavigated", { predicate: (f) => !f.parentFrame(), timeout: NAVIGATION_WAIT_MS }).catch(() => undefined);
    }
    if (String(this.navigations) === since) return false;
    await this.page.waitForLoadState("domcontentloaded").catch(() => undefined);
    return true;
  }

  async screenshot(): Promise<string> {
    return (await this.page.screenshot({ type: "png" })).toString("base64");
  }
}

