// One headless Chromium shared by all renders: launched on first use, relaunched after it dies,
// a fresh context per render (closed in finally), bounded concurrency, a bounded waiting line
// and a per-render time budget.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { BrowserCrashedError, PoolClosedError, RenderTimeoutError } from "./errors.js";
import { Slots } from "./slots.js";

/** Flags that keep Chromium quiet on a small machine and off the network on its own account
 * (background updates, sync, QUIC). Tests launch Chromium with these too. */
export const CHROMIUM_BASE_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** The rendering pool's flags: the base set, no extensions, and no network path but the proxy. */
export const CHROMIUM_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  "--disable-extensions",
  "--mute-audio",
  // WebRTC's UDP would bypass the egress proxy (and its host policy).
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

export interface PoolOptions {
  executablePath: string;
  /** Contexts rendering at once. */
  concurrency: number;
  /** Requests allowed to wait for a slot; more are turned away. */
  queueLimit: number;
  /** Extra Chromium flags. */
  args?: string[];
  /** How long a launch may take. */
  launchTimeoutMs?: number;
  /** How long closing a context may take before the browser is presumed wedged and restarted. */
  closeTimeoutMs?: number;
  log?: (level: "info" | "warn", msg: string, fields?: Record<string, unknown>) => void;
}

export interface PoolStats {
  running: number;
  queued: number;
  /** Browser launches so far (a relaunch after a crash counts). */
  launches: number;
  connected: boolean;
  /** Contexts and pages open right now (0 and 0 when idle: nothing leaked). */
  openContexts: number;
  openPages: number;
}

export interface RenderBudget {
  /** Time for the work once the browser is up; the context is closed when it runs out. */
  timeoutMs: number;
}

/** The headless default says "HeadlessChrome", which some sites refuse; present as desktop Chrome. */
export function desktopUserAgent(version: string): string {
  const major = /^\d+/.exec(version)?.[0] ?? "120";
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class BrowserPool {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private launches = 0;
  private closed = false;
  private readonly slots: Slots;
  /** A switch Chromium ignores, so this pool's browser process can be found (tests, ops). */
  private readonly marker = `--sightline-pool=${randomUUID()}`;

  constructor(private readonly opts: PoolOptions) {
    this.slots = new Slots(Math.max(1, opts.concurrency), Math.max(0, opts.queueLimit));
  }

  stats(): PoolStats {
    const contexts = this.browser?.isConnected() ? this.browser.contexts() : [];
    return {
      running: this.slots.running,
      queued: this.slots.queued,
      launches: this.launches,
      connected: !!this.browser?.isConnected(),
      openContexts: contexts.length,
      openPages: contexts.reduce((n, c) => n + c.pages().length, 0),
    };
  }

  /** The pid of the pool's browser process (the main one, not its renderers), if running. */
  browserPid(): number | null {
    if (!this.browser?.isConnected()) return null;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
        if (args.includes(this.marker) && !args.some((a) => a.startsWith("--type="))) return Number(entry);
      } catch {
        // the process ended while we looked
      }
    }
    return null;
  }

  /** The browser's version string (launches it if needed). */
  async version(): Promise<string> {
    return (await this.getBrowser()).version();
  }

  /**
   * Runs `work` in a fresh context; `deadline` (epoch ms) is when the budget runs out. Waits for
   * a slot (or throws PoolBusyError), launches the browser if needed (not counted in the
   * budget), and closes the context however `work` ends. Throws RenderTimeoutError when the
   * budget runs out and BrowserCrashedError when the browser dies meanwhile.
   */
  async withContext<T>(
    contextOptions: BrowserContextOptions,
    work: (context: BrowserContext, deadline: number) => Promise<T>,
    budget: RenderBudget,
  ): Promise<T> {
    const retryAfter = Math.max(1, Math.ceil(budget.timeoutMs / 1000));
    await this.slots.acquire(budget.timeoutMs, retryAfter);
    try {
      return await this.runInContext(contextOptions, work, budget);
    } finally {
      this.slots.release();
    }
  }

  private async runInContext<T>(
    contextOptions: BrowserContextOptions,
    work: (context: BrowserContext, deadline: number) => Promise<T>,
    budget: RenderBudget,
  ): Promise<T> {
    // A (re)launch has its own timeout; the render budget starts once the browser is there.
    const browser = await this.getBrowser();
    const deadline = Date.now() + budget.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let context: BrowserContext | null = null;
    let failure: Error | null = null;
    let onDisconnect: () => void = () => {};
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        failure = new RenderTimeoutError(budget.timeoutMs);
        reject(failure);
      }, budget.timeoutMs);
      onDisconnect = () => {
        failure ??= new BrowserCrashedError();
        reject(failure);
      };
    });
    stop.catch(() => {}); // observed through the race below
    browser.once("disconnected", onDisconnect);
    const job = (async () => {
      if (!browser.isConnected()) throw new BrowserCrashedError("the browser exited before the render started");
      const created = await browser.newContext({ userAgent: desktopUserAgent(browser.version()), ...contextOptions });
      context = created;
      if (failure) {
        // The budget ran out while the context was being made: nobody else will close it.
        await created.close().catch(() => {});
        throw failure;
      }
      return work(created, deadline);
    })();
    try {
      return await Promise.race([job, stop]);
    } catch (err) {
      // A Playwright "Target closed" error after the browser died is a crash, not a page error.
      if (!failure && !browser.isConnected()) throw new BrowserCrashedError();
      throw failure ?? err;
    } finally {
      clearTimeout(timer);
      browser.off("disconnected", onDisconnect);
      job.catch(() => {}); // it settles once the context is closed
      await this.closeContext(context, job);
    }
  }

  /** Closes a context; if that hangs, the browser is presumed wedged and is restarted. */
  private async closeContext(context: BrowserContext | null, job: Promise<unknown>): Promise<void> {
    const limit = this.opts.closeTimeoutMs ?? 5000;
    if (!context) {
      // The context may still be on its way (newContext in flight when the budget ran out).
      const late = await Promise.race([job.then(() => null, () => null), sleep(limit).then(() => null)]);
      void late;
      return;
    }
    const ctx: BrowserContext = context;
    const closed = await Promise.race([ctx.close().then(() => true, () => true), sleep(limit).then(() => false)]);
    if (!closed) {
      this.opts.log?.("warn", "browser context did not close in time; restarting the browser");
      const b = this.browser;
      this.browser = null;
      await b?.close().catch(() => {});
    }
  }

  private async getBrowser(): Promise<Browser> {
    if (this.closed) throw new PoolClosedError();
    if (this.browser?.isConnected()) return this.browser;
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const started = Date.now();
    const browser = await chromium.launch({
      executablePath: this.opts.executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(this.opts.args ?? []), this.marker],
      timeout: this.opts.launchTimeoutMs ?? 30_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.launches++;
    browser.on("disconnected", () => {
      if (this.browser === browser) this.browser = null;
      if (!this.closed) this.opts.log?.("warn", "browser disconnected; the next render relaunches it");
    });
    if (this.closed) {
      await browser.close().catch(() => {});
      throw new PoolClosedError();
    }
    this.browser = browser;
    this.opts.log?.("info", "browser launched", { ms: Date.now() - started, version: browser.version() });
    return browser;
  }

  /** Refuses new work, turns waiters away and closes the browser (running renders fail). */
  async close(): Promise<void> {
    this.closed = true;
    this.slots.close();
    const launching = this.launching;
    const browser = this.browser;
    this.browser = null;
    if (launching) await launching.then((b) => b.close(), () => {}).catch(() => {});
    await browser?.close().catch(() => {});
  }
}
