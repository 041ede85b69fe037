// PageDriver over a Playwright page: the page agent runs next to the collector in Sightline's
// isolated world (world.ts: out of the page's scripts' reach, not blocked by its CSP), input goes
// through the world's CDP session (Input.*: trusted events) and Playwright's keyboard.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Page, Request } from "playwright-core";
import type { PageDriver, RequestWatch } from "../../perform/driver.js";
import { PAGE_AGENT_GLOBAL, type PageCallArgs, type PageCallName, type PageCallResult } from "../../perform/page-calls.js";
import { collectorScript } from "../../../playwright/bundle.js";
import { SightlineWorld, type WorldScript } from "../../../playwright/world.js";

/** dist/page-agent.js of this package (from src/ or dist/ alike), or SIGHTLINE_PAGE_AGENT_PATH. */
export function pageAgentBundlePath(): string {
  return process.env.SIGHTLINE_PAGE_AGENT_PATH || fileURLToPath(new URL("../../../../dist/page-agent.js", import.meta.url));
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
/** The collector (whose ids the agent reads) and the agent, injected together into each new document. */
const AGENT_SCRIPTS: WorldScript[] = [collectorScript(), { key: "page-agent", source: pageAgentSource }];
const AGENT_CALL = "(g, n, a) => globalThis[g][n](a)";

/** Where a page call goes: the top document's world (`main`), or another one (a cross-origin frame's). */
export interface CallRouter {
  call<K extends PageCallName>(name: K, args: PageCallArgs<K>, main: <N extends PageCallName>(name: N, args: PageCallArgs<N>) => Promise<PageCallResult<N>>): Promise<PageCallResult<K>>;
}

export class PlaywrightDriver implements PageDriver {
  /** Main-frame navigations seen: documentId() is this count. */
  private navigations = 0;
  private pending: Request | null = null;
  /** The requests of the action being watched (watchRequests), fed by the listeners above. */
  private requests: { started: number; inFlight: Set<Request>; wake: (() => void) | null } | null = null;
  private readonly world: SightlineWorld;

  constructor(readonly page: Page) {
    this.world = SightlineWorld.of(page);
    page.on("framenavigated", (frame) => {
      if (!frame.parentFrame()) this.navigations++;
    });
    page.on("request", (req) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) this.pending = req;
      const w = this.requests;
      if (w) {
        w.started++;
        w.inFlight.add(req);
      }
    });
    const done = (req: Request) => {
      if (req === this.pending) this.pending = null;
      const w = this.requests;
      if (w?.inFlight.delete(req) && w.inFlight.size === 0) w.wake?.();
    };
    page.on("requestfailed", done);
    page.on("requestfinished", done);
  }

  /** Sends calls about elements of cross-origin frames to their frame's world (./frames.ts). */
  router: CallRouter | null = null;

  async call<K extends PageCallName>(name: K, args: PageCallArgs<K>): Promise<PageCallResult<K>> {
    const main = <N extends PageCallName>(n: N, a: PageCallArgs<N>) => this.callIn(this.world, n, a);
    return this.router ? this.router.call(name, args, main) : main(name, args);
  }

  /** A page-agent call in `world` (the page's, or a frame's), the agent injected there first. */
  callIn<K extends PageCallName>(world: SightlineWorld, name: K, args: PageCallArgs<K>): Promise<PageCallResult<K>> {
    return world.call<PageCallResult<K>>(AGENT_CALL, [PAGE_AGENT_GLOBAL, name, args], AGENT_SCRIPTS);
  }

  /**
   * A trusted left click (move, press, release, as page.mouse.click sends them), the three
   * events sent to CDP back to back and awaited once: one round trip, not three.
   */
  async click(x: number, y: number): Promise<void> {
    const cdp = await this.world.cdp();
    const at = { x, y, modifiers: 0 };
    await Promise.all([
      cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", ...at, button: "none", buttons: 0 }),
      cdp.send("Input.dispatchMouseEvent", { type: "mousePressed", ...at, button: "left", buttons: 1, clickCount: 1 }),
      cdp.send("Input.dispatchMouseEvent", { type: "mouseReleased", ...at, button: "left", buttons: 0, clickCount: 1 }),
    ]);
  }

  hover(x: number, y: number): Promise<void> {
    return this.page.mouse.move(x, y);
  }

  /** Playwright's mouse on Chromium also carries native drag and drop (it intercepts the drag). */
  async drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    const { mouse } = this.page;
    await mouse.move(from.x, from.y);
    await mouse.down();
    // A first small step starts the drag (libraries wait for a few pixels of movement).
    await mouse.move(from.x + Math.sign(to.x - from.x) * 5, from.y + Math.sign(to.y - from.y) * 5, { steps: 2 });
    await mouse.move(to.x, to.y, { steps: 10 });
    await mouse.up();
  }

  /**
   * Trusted key events for every character (keydown, keypress/input, keyup, as a person
   * typing), sent to CDP back to back and awaited once: one round trip, not three per key as
   * keyboard.type() takes. Line breaks are Enter presses.
   */
  async typeText(text: string): Promise<void> {
    const cdp = await this.world.cdp();
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

  async forward(): Promise<void> {
    await this.page.goForward({ waitUntil: "domcontentloaded" });
  }

  async url(): Promise<string> {
    return this.page.url();
  }

  async documentId(): Promise<string> {
    return String(this.navigations);
  }

  /** Every request of the page (any frame) from now on, by Playwright's request events. */
  watchRequests(): RequestWatch {
    const w: { started: number; inFlight: Set<Request>; wake: (() => void) | null } = { started: 0, inFlight: new Set(), wake: null };
    this.requests = w;
    return {
      started: () => w.started,
      idle: (ms) =>
        w.inFlight.size === 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, ms);
              w.wake = () => {
                clearTimeout(timer);
                resolve();
              };
            }),
      stop: () => {
        if (this.requests === w) this.requests = null;
      },
    };
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

