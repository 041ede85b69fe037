// One headless Chromium shared by all renders: launched on first use, relaunched after it dies,
// a fresh context per render (closed in finally), bounded concurrency, a bounded waiting line,
// both shared fairly between accounts (slots.ts), a per-render time budget, and spare contexts
// made ahead of renders (spares.ts).
//
// Remote browsers (`endpoints`, SIGHTLINE_BROWSER_ENDPOINTS): instead of launching Chromium the
// pool connects to Playwright browser servers (`npm run browser-server`, `playwright
// launch-server` or a farm speaking the same protocol), one connection per endpoint, made on
// first use. Each render goes to the endpoint with the fewest renders running (connecting to it
// if needed); an endpoint that cannot be reached is skipped for a few seconds. A connection that
// drops fails the renders on it (BrowserCrashedError, so uncharged) and the next render
// reconnects or goes to another endpoint. Everything else is the same as with a local browser:
// timeouts, context cleanup, spares, and the egress proxy every context goes through (the
// proxy runs here, beside the server; `proxyHost` is where remote browsers reach it).
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { PROXY_ONLY_CHROMIUM_ARGS } from "@sightline/shared/net";
import { BrowserCrashedError, PoolBusyError, PoolClosedError, RenderTimeoutError } from "./errors.js";
import { Slots, type SlotTicket } from "./slots.js";
import { CleanupStack, settled, within } from "./cleanup-stack.js";
import { SpareShelf, prepareContext, type ContextRecipe, type PreparedContext } from "./spares.js";

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
  ...PROXY_ONLY_CHROMIUM_ARGS,
];

export interface PoolOptions {
  executablePath: string;
  /** Contexts rendering at once. */
  concurrency: number;
  /** Requests allowed to wait for a slot; more are turned away. */
  queueLimit: number;
  /** How long a tenant below its fair share waits before another tenant's newest render is
   *  stopped for it (slots.ts; default 2000). */
  preemptAfterMs?: number;
  /** Extra Chromium flags. */
  args?: string[];
  /** How long a launch may take. */
  launchTimeoutMs?: number;
  /** How long closing a context may take before the browser is presumed wedged and restarted. */
  closeTimeoutMs?: number;
  /** Spare contexts kept ready for withRecipe renders, one per recipe key at most (default 0). */
  spares?: number;
  /** A spare not ready by then is dropped (default: twice closeTimeoutMs, at least 10 s). */
  sparePrepareTimeoutMs?: number;
  log?: (level: "info" | "warn", msg: string, fields?: Record<string, unknown>) => void;
  /** Playwright browser-server WebSocket endpoints to connect to instead of launching Chromium. */
  endpoints?: readonly string[];
  /** Address the per-render egress proxies listen on and remote browsers reach them at
   *  (default 127.0.0.1: browsers on this machine). */
  proxyHost?: string;
}

/** A remote browser server and this pool's connection to it. */
interface Remote {
  endpoint: string;
  browser: Browser | null;
  connecting: Promise<Browser> | null;
  /** Renders using (or about to use) this endpoint. */
  running: number;
  /** Not tried again before this (epoch ms) after a failed connect. */
  downUntil: number;
}

/** How long an endpoint that refused a connection is left alone. */
const ENDPOINT_RETRY_MS = 3000;

export interface PoolStats {
  running: number;
  queued: number;
  /** Browser launches so far (a relaunch after a crash counts). */
  launches: number;
  connected: boolean;
  /** Contexts and pages of renders open right now, spares not counted (0 and 0 when idle:
   *  nothing leaked). */
  openContexts: number;
  openPages: number;
  /** Spare contexts held for the next renders (at most one per recipe key; 0 after close). */
  spareContexts: number;
  /** Spares ready to be taken now, and spares still being prepared. */
  sparesReady: number;
  sparesPreparing: number;
  /** Renders that started on a spare context so far. */
  spareUses: number;
}

export interface RenderBudget {
  /** Time for the work once the browser is up; the context is closed when it runs out. */
  timeoutMs: number;
  /** Who the render is for (the account): slots are shared fairly between tenants (slots.ts).
   *  Renders without one share the tenant "". */
  tenant?: string;
  /** withRecipe: the recipe's spare is made again only once this settles (more renders of the
   *  same request follow, and making a spare meanwhile would slow them on a small machine). */
  refillAfter?: Promise<unknown>;
}

/** Playwright's words for a call cut off because its page, context or browser went away. */
const TARGET_GONE = /has been closed|Target closed|Browser closed|Connection closed|browser has disconnected/i;

/** Longest a render waits for a spare still being prepared (usually ~300 ms from done) before
 *  it drops it and makes its own context; a quarter of the budget at most. */
const SPARE_WAIT_MS = 1000;

/** The headless default says "HeadlessChrome", which some sites refuse; present as desktop Chrome. */
export function desktopUserAgent(version: string): string {
  const major = /^\d+/.exec(version)?.[0] ?? "120";
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

export class BrowserPool {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private launches = 0;
  private closed = false;
  private readonly slots: Slots;
  private readonly shelf: SpareShelf;
  /** Renders that started on a spare context. */
  private spareUses = 0;
  /** A switch Chromium ignores, so this pool's browser process can be found (tests, ops). */
  private readonly marker = `--sightline-pool=${randomUUID()}`;
  /** Remote browser servers, when configured (then nothing is launched). */
  private readonly remotes: Remote[];

  constructor(private readonly opts: PoolOptions) {
    this.remotes = (opts.endpoints ?? []).map((endpoint) => ({ endpoint, browser: null, connecting: null, running: 0, downUntil: 0 }));
    this.slots = new Slots(Math.max(1, opts.concurrency), Math.max(0, opts.queueLimit), { preemptAfterMs: opts.preemptAfterMs });
    this.shelf = new SpareShelf({
      max: Math.max(0, opts.spares ?? 0),
      // Making a spare is two browser steps (new context, first page) of the kind closeTimeoutMs
      // bounds; far past both, the browser is wedged rather than slow.
      prepareTimeoutMs: opts.sparePrepareTimeoutMs ?? Math.max(5000, opts.closeTimeoutMs ?? 5000) * 2,
      log: opts.log,
    });
  }

  /** Where the egress proxies of renders listen (remote browsers connect to them there). */
  get proxyHost(): string {
    return this.opts.proxyHost ?? "127.0.0.1";
  }

  /** Browsers connected now: the local one, or the remote connections. */
  private liveBrowsers(): Browser[] {
    const all = this.remotes.length > 0 ? this.remotes.map((r) => r.browser) : [this.browser];
    return all.filter((b): b is Browser => !!b?.isConnected());
  }

  /** True for a browser this pool still uses (not replaced after a crash or a wedge). */
  private current(browser: Browser): boolean {
    return this.remotes.length > 0 ? this.remotes.some((r) => r.browser === browser) : this.browser === browser;
  }

  /** Remote endpoints and their state (ops, /ready, tests). */
  endpointStats(): { endpoint: string; connected: boolean; running: number }[] {
    return this.remotes.map((r) => ({ endpoint: r.endpoint, connected: !!r.browser?.isConnected(), running: r.running }));
  }

  stats(): PoolStats {
    const all = this.liveBrowsers().flatMap((b) => b.contexts());
    const contexts = all.filter((c) => !this.shelf.owns(c));
    const spares = this.shelf.counts();
    return {
      running: this.slots.running,
      queued: this.slots.queued,
      launches: this.launches,
      connected: this.liveBrowsers().length > 0,
      openContexts: contexts.length,
      openPages: contexts.reduce((n, c) => n + c.pages().length, 0),
      spareContexts: all.length - contexts.length,
      sparesReady: spares.ready,
      sparesPreparing: spares.preparing,
      spareUses: this.spareUses,
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

  /**
   * Whether a browser can render now: connected, or launched (connected) within `timeoutMs`.
   * For /ready: a load balancer sends no traffic to an instance without a browser.
   */
  async reachable(timeoutMs = 5000): Promise<boolean> {
    if (this.closed) return false;
    if (this.liveBrowsers().length > 0) return true;
    const up = this.acquireBrowser().then(
      ({ browser, done }) => {
        done();
        return browser.isConnected();
      },
      () => false,
    );
    return within(up, timeoutMs, false);
  }

  /** The browser's version string (launches it if needed). */
  async version(): Promise<string> {
    const { browser, done } = await this.acquireBrowser();
    done();
    return browser.version();
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
    return this.inSlot(budget, (ticket) =>
      this.runBudgeted(
        budget,
        ticket,
        async (browser, held) => {
          const context = await browser.newContext({ ...this.baseOptions(browser), ...contextOptions });
          held.add(() => this.closeContext(context));
          return context;
        },
        work,
      ),
    );
  }

  /**
   * Like withContext, for a context made from `recipe` with one page open: a spare with the
   * recipe's key when there is one (made ahead, never used by anyone), else made on the spot.
   * A spare still being prepared is waited for briefly (SPARE_WAIT_MS), never past the budget.
   * Afterwards (or once budget.refillAfter settles) a new spare for the key is prepared in the
   * background (when spares are on); not earlier: on 2 cores, making a spare while its taker
   * renders slowed that render (a one-off in-process measurement, read of the bench article
   * with 500 ms pauses: 873 vs 337 ms).
   */
  async withRecipe<R, T>(
    recipe: ContextRecipe<R>,
    work: (prepared: PreparedContext<R>, deadline: number) => Promise<T>,
    budget: RenderBudget,
  ): Promise<T> {
    this.shelf.want(recipe.key);
    const ran: { on?: Browser } = {};
    try {
      return await this.inSlot(budget, (ticket) =>
        this.runBudgeted(
          budget,
          ticket,
          async (browser, held) => {
            ran.on = browser;
            const spare = this.shelf.take<R>(recipe.key, browser);
            if (spare) {
              held.add(() => spare.dispose());
              // Not waited for past the budget (release cuts it) nor long: a slow spare gives way.
              const wait = Math.min(SPARE_WAIT_MS, budget.timeoutMs / 4);
              const made = await held.unlessReleased(within(spare.ready, wait, null));
              if (made && spare.usable() && (recipe.untouched?.(made.resources) ?? true)) {
                this.spareUses++;
                return made;
              }
              void spare.dispose(); // not ready, broken or dropped: make a context as if there were none
            }
            return prepareContext(browser, recipe, this.baseOptions(browser), held, (c) => this.closeContext(c));
          },
          work,
        ),
      );
    } finally {
      const browser = ran.on;
      if (browser) void settled(budget.refillAfter ?? Promise.resolve()).then(() => this.refill(recipe, browser));
    }
  }

  /** Starts preparing a spare for the recipe's key on the current browser (not if it changed). */
  private refill<R>(recipe: ContextRecipe<R>, browser: Browser): void {
    if (this.closed || !this.current(browser) || !browser.isConnected()) return;
    this.shelf.fill(recipe, browser, this.baseOptions(browser), (c) => this.closeContext(c));
  }

  private baseOptions(browser: Browser): BrowserContextOptions {
    return { userAgent: desktopUserAgent(browser.version()) };
  }

  private async inSlot<T>(budget: RenderBudget, run: (ticket: SlotTicket) => Promise<T>): Promise<T> {
    const retryAfter = Math.max(1, Math.ceil(budget.timeoutMs / 1000));
    const ticket = await this.slots.acquire(budget.tenant ?? "", budget.timeoutMs, retryAfter);
    try {
      return await run(ticket);
    } finally {
      ticket.release();
    }
  }

  /**
   * Opens what `work` needs (`open` adds all it makes to `held`), runs it within the budget and
   * closes everything however it ends.
   */
  private async runBudgeted<C, T>(
    budget: RenderBudget,
    ticket: SlotTicket,
    open: (browser: Browser, held: CleanupStack) => Promise<C>,
    work: (opened: C, deadline: number) => Promise<T>,
  ): Promise<T> {
    // A (re)launch has its own timeout; the render budget starts once the browser is there.
    const { browser, done } = await this.acquireBrowser();
    try {
      return await this.budgeted(browser, budget, ticket, open, work);
    } finally {
      done();
    }
  }

  private async budgeted<C, T>(
    browser: Browser,
    budget: RenderBudget,
    ticket: SlotTicket,
    open: (browser: Browser, held: CleanupStack) => Promise<C>,
    work: (opened: C, deadline: number) => Promise<T>,
  ): Promise<T> {
    const deadline = Date.now() + budget.timeoutMs;
    const held = new CleanupStack();
    let timer: NodeJS.Timeout | undefined;
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
      // Another account's waiting request takes the slot back (slots.ts): stopped like a timeout.
      ticket.onPreempt((err) => {
        failure ??= err;
        reject(failure);
      });
    });
    stop.catch(() => {}); // observed through the race below
    browser.once("disconnected", onDisconnect);
    const opening = (async () => {
      if (!browser.isConnected()) throw new BrowserCrashedError("the browser exited before the render started");
      return open(browser, held);
    })();
    const job = opening.then((opened) => {
      // The budget ran out while the context was being made: the finally below closes it.
      if (failure) throw failure;
      return work(opened, deadline);
    });
    try {
      return await Promise.race([job, stop]);
    } catch (err) {
      // A Playwright "Target closed" error after the browser died is a crash, not a page error.
      // Over a remote connection the pending calls fail a moment before "disconnected" fires:
      // give it that moment when the error says the target is gone.
      if (!failure && browser.isConnected() && TARGET_GONE.test(err instanceof Error ? err.message : String(err))) {
        await within(new Promise<void>((r) => browser.once("disconnected", () => r())), 500, undefined);
      }
      if (!failure && !browser.isConnected()) throw new BrowserCrashedError();
      throw failure ?? err;
    } finally {
      clearTimeout(timer);
      browser.off("disconnected", onDisconnect);
      job.catch(() => {}); // it settles once the context is closed
      // Released first, so an opening cut short by the budget starts no further step; what it
      // still had in flight (newContext) is closed as it arrives, and waited for a while so it is
      // closed by the time the render answers.
      await held.release();
      const wait = this.opts.closeTimeoutMs ?? 5000;
      await within(settled(opening).then(() => held.idle()), wait, undefined);
    }
  }

  /** Closes a context; if that hangs, its browser is presumed wedged and is restarted. */
  private async closeContext(context: BrowserContext): Promise<void> {
    const closed = await within(
      context.close().then(
        () => true,
        () => true,
      ),
      this.opts.closeTimeoutMs ?? 5000,
      false,
    );
    const b = context.browser();
    if (!closed && b && this.current(b)) {
      this.opts.log?.("warn", "browser context did not close in time; restarting the browser");
      if (this.browser === b) this.browser = null;
      for (const r of this.remotes) if (r.browser === b) r.browser = null; // reconnects on next use
      this.shelf.dropBrowser(b);
      await b.close().catch(() => {});
    }
  }

  /** A browser for one render; `done()` when the render is over (spreads remote renders). */
  private async acquireBrowser(): Promise<{ browser: Browser; done: () => void }> {
    if (this.remotes.length === 0) return { browser: await this.getBrowser(), done: () => undefined };
    if (this.closed) throw new PoolClosedError();
    const tried = new Set<Remote>();
    let lastError: unknown = null;
    for (;;) {
      const now = Date.now();
      // Fewest renders first; an endpoint that failed lately only when nothing else is left.
      const pick = this.remotes
        .filter((r) => !tried.has(r))
        .sort((a, b) => Number(a.downUntil > now) - Number(b.downUntil > now) || a.running - b.running)[0];
      if (!pick) {
        const why = lastError instanceof Error ? lastError.message.split("\n")[0] : String(lastError);
        throw new PoolBusyError(`no browser server could be reached (${why})`, Math.ceil(ENDPOINT_RETRY_MS / 1000));
      }
      tried.add(pick);
      pick.running++;
      let released = false;
      const done = () => {
        if (!released) pick.running--;
        released = true;
      };
      try {
        return { browser: await this.connectRemote(pick), done };
      } catch (err) {
        done();
        if (err instanceof PoolClosedError) throw err;
        lastError = err;
      }
    }
  }

  private connectRemote(r: Remote): Promise<Browser> {
    if (r.browser?.isConnected()) return Promise.resolve(r.browser);
    r.connecting ??= (async () => {
      const started = Date.now();
      try {
        const browser = await chromium.connect(r.endpoint, { timeout: Math.min(this.opts.launchTimeoutMs ?? 30_000, 10_000) });
        this.launches++;
        browser.on("disconnected", () => {
          if (r.browser === browser) r.browser = null;
          this.shelf.dropBrowser(browser);
          if (!this.closed) this.opts.log?.("warn", "browser server connection lost; the next render reconnects", { endpoint: r.endpoint });
        });
        if (this.closed) {
          await browser.close().catch(() => {});
          throw new PoolClosedError();
        }
        r.browser = browser;
        r.downUntil = 0;
        this.opts.log?.("info", "browser server connected", { endpoint: r.endpoint, ms: Date.now() - started, version: browser.version() });
        return browser;
      } catch (err) {
        if (!(err instanceof PoolClosedError)) {
          r.downUntil = Date.now() + ENDPOINT_RETRY_MS;
          this.opts.log?.("warn", "browser server unreachable", { endpoint: r.endpoint, err: err instanceof Error ? err.message.split("\n")[0] : String(err) });
        }
        throw err;
      } finally {
        r.connecting = null;
      }
    })();
    return r.connecting;
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
      this.shelf.dropBrowser(browser); // a spare belongs to the browser that made it
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

  /** Refuses new work, turns waiters away, closes the spares (their proxies too) and the
   *  browser (running renders fail). */
  async close(): Promise<void> {
    this.closed = true;
    this.slots.close();
    const spares = this.shelf.close();
    const launching = this.launching;
    const browser = this.browser;
    this.browser = null;
    if (launching) await launching.then((b) => b.close(), () => {}).catch(() => {});
    await browser?.close().catch(() => {});
    // Remote: disconnect (the browser servers keep running for other instances).
    for (const r of this.remotes) {
      const b = r.browser;
      r.browser = null;
      if (r.connecting) await r.connecting.then((c) => c.close(), () => {}).catch(() => {});
      await b?.close().catch(() => {});
    }
    await within(spares, this.opts.closeTimeoutMs ?? 5000, undefined);
  }
}
