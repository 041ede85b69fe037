// Spare contexts: a render's context made before the render is asked for (its own resources
// such as the egress proxy, the recipe's routes, one blank page open), so the next render with
// the same recipe key skips Chromium's page start (the renderer process: ~215 ms of a ~560 ms
// warm read). A spare is never navigated, goes to one render only and dies with its browser.
// Each idle spare keeps a renderer process (and its proxy) alive until it is taken or dropped.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { CleanupStack, noop, settled, within } from "./cleanup-stack.js";

/** How a render's context is made, ahead of time (a spare) or on the spot. */
export interface ContextRecipe<R> {
  /** Equal keys promise the same options, routes and resource rules: a spare made from one
   *  recipe may serve any later render with the same key. */
  key: string;
  /** Starts the context's own resources (e.g. its egress proxy); says the options that use them. */
  open(): Promise<ContextResources<R>>;
  /** Readies a new context before its first page opens (routes). */
  setup(context: BrowserContext, resources: R): Promise<void>;
  /** False when a spare's resources show use (e.g. its proxy saw a request): it is discarded. */
  untouched?(resources: R): boolean;
}

export interface ContextResources<R> {
  value: R;
  options: BrowserContextOptions;
  close(): Promise<void>;
}

/** A context made from a recipe, with its one (blank) page. */
export interface PreparedContext<R> {
  context: BrowserContext;
  page: Page;
  resources: R;
}

/**
 * Makes a context from `recipe` on `browser`: resources, context, routes, one page. Everything
 * made is added to `held` as soon as it exists, so whoever releases `held` closes it even when
 * this is cut short; once `held` is released no further step starts (ReleasedError), and a step
 * on the held context (routes, the page) is not waited for. `seen` learns of the context (before
 * its page is open).
 */
export async function prepareContext<R>(
  browser: Browser,
  recipe: ContextRecipe<R>,
  base: BrowserContextOptions,
  held: CleanupStack,
  closeContext: (context: BrowserContext) => Promise<void>,
  seen: (context: BrowserContext) => void = noop,
): Promise<PreparedContext<R>> {
  held.throwIfReleased();
  const resources = await recipe.open();
  held.add(() => resources.close());
  held.throwIfReleased();
  const context = await browser.newContext({ ...base, ...resources.options });
  seen(context);
  held.add(() => closeContext(context));
  held.throwIfReleased();
  await held.unlessReleased(recipe.setup(context, resources.value));
  // newPage() in flight when its context closes never settles (playwright-core 1.64).
  const page = await held.unlessReleased(context.newPage());
  return { context, page, resources: resources.value };
}

/** Preparing, then ready; taken by one render (then the render's to close) or dropped. */
export type SpareState = "preparing" | "ready" | "taken" | "dropped";

/** One spare context. */
export class Spare<R = unknown> {
  readonly held = new CleanupStack();
  state: SpareState = "preparing";
  /** The prepared context, or null when preparing failed, timed out or the spare was dropped
   *  meanwhile (settles at once on dispose()). */
  readonly ready: Promise<PreparedContext<R> | null>;
  private readonly making: Promise<PreparedContext<R>>;
  private broken = false;
  private disposing: Promise<void> | null = null;
  private onDispose: () => void = noop;

  constructor(
    readonly key: string,
    readonly browser: Browser,
    make: (spare: Spare<R>) => Promise<PreparedContext<R>>,
    timeoutMs: number,
    onFailure: (err: unknown) => void,
  ) {
    const dropped = new Promise<"dropped">((resolve) => (this.onDispose = () => resolve("dropped")));
    const making = make(this);
    this.making = making;
    this.ready = (async () => {
      const outcome = await within<{ made: PreparedContext<R> } | { failed: unknown } | "dropped" | "timeout">(
        Promise.race([making.then((made) => ({ made }), (failed: unknown) => ({ failed })), dropped]),
        timeoutMs,
        "timeout",
      );
      if (outcome === "dropped" || this.disposing) return null; // dispose() closes what it made
      if (outcome === "timeout" || "failed" in outcome) {
        onFailure(outcome === "timeout" ? new Error(`the spare context was not ready within ${timeoutMs} ms`) : outcome.failed);
        await this.closed();
        return null;
      }
      const made = outcome.made;
      // A renderer that crashed or a context closed under it makes the spare useless.
      made.page.once("crash", () => (this.broken = true));
      made.page.once("close", () => (this.broken = true));
      made.context.once("close", () => (this.broken = true));
      if (this.state === "preparing") this.state = "ready";
      return made;
    })();
  }

  /** True while the spare can still be handed out: its browser is up and its page intact. */
  usable(): boolean {
    return !this.broken && !this.disposing && this.browser.isConnected();
  }

  /** Closes the context (if made) and then its resources; once, however often it is called.
   *  Whatever is still being made is closed as it arrives. */
  dispose(): Promise<void> {
    if (!this.disposing) {
      if (this.state !== "taken") this.state = "dropped";
      this.disposing = this.held.release();
      this.onDispose();
    }
    return this.disposing;
  }

  /** Disposes and resolves once everything the spare made is closed, late arrivals too. */
  async closed(): Promise<void> {
    await this.dispose();
    await settled(this.making); // prompt once released: no step is waited for after that
    await this.held.idle();
  }
}

const MAX_REMEMBERED_KEYS = 64;

export interface SpareShelfOptions {
  /** Spares kept at once, one per key at most (0: none). */
  max: number;
  /** A spare that is not ready by then is dropped. */
  prepareTimeoutMs: number;
  log?: (level: "info" | "warn", msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * The pool's spares, one per recipe key at most, `max` in all (the key a render asked for least
 * recently gives way). A spare is handed out once (take) and is then its render's to close.
 */
export class SpareShelf {
  private readonly spares = new Map<string, Spare>();
  /** The spare each spare context was made for (its state says whether it is still the shelf's). */
  private readonly contexts = new WeakMap<BrowserContext, Spare>();
  /** Preparations and closings under way (close() waits for them). */
  private readonly pending = new Set<Promise<void>>();
  /** When a render last asked for each key. */
  private readonly wanted = new Map<string, number>();
  private wants = 0;
  private closed = false;

  constructor(private readonly opts: SpareShelfOptions) {}

  /** Notes that a render wants `key` (the least wanted key's spare gives way first). */
  want(key: string): void {
    this.wanted.delete(key); // re-inserted last: the map stays in order of last want
    this.wanted.set(key, ++this.wants);
    // Keys are few in a server (one policy); callers that make new policies forget old keys.
    for (const old of this.wanted.keys()) {
      if (this.wanted.size <= MAX_REMEMBERED_KEYS) break;
      if (!this.spares.has(old)) this.wanted.delete(old);
    }
  }

  /** Whether a context is a spare's not handed out (being prepared, ready or being closed),
   *  for the pool's leak accounting. */
  owns(context: BrowserContext): boolean {
    const spare = this.contexts.get(context);
    return !!spare && spare.state !== "taken";
  }

  /** Spares on the shelf by state: ready now, or still being prepared. */
  counts(): { ready: number; preparing: number } {
    const n = { ready: 0, preparing: 0 };
    for (const spare of this.spares.values()) if (spare.state === "ready" || spare.state === "preparing") n[spare.state]++;
    return n;
  }

  /** Hands over the spare for `key` on `browser` (ready or still being prepared), or null; the
   *  caller must dispose() it. */
  take<R>(key: string, browser: Browser): Spare<R> | null {
    const spare = this.spares.get(key);
    if (!spare) return null;
    this.spares.delete(key);
    if (spare.browser !== browser || !spare.usable()) {
      this.drop(spare);
      return null;
    }
    spare.state = "taken";
    return spare as Spare<R>;
  }

  /** Starts preparing a spare for the recipe's key on `browser`, unless one is there. */
  fill<R>(
    recipe: ContextRecipe<R>,
    browser: Browser,
    base: BrowserContextOptions,
    closeContext: (context: BrowserContext) => Promise<void>,
  ): void {
    if (this.closed || this.opts.max <= 0 || !browser.isConnected() || this.spares.has(recipe.key)) return;
    if (this.spares.size >= this.opts.max && !this.evictFor(recipe.key)) return;
    const spare: Spare<R> = new Spare<R>(
      recipe.key,
      browser,
      (s) => prepareContext(browser, recipe, base, s.held, closeContext, (context) => this.contexts.set(context, s as Spare)),
      this.opts.prepareTimeoutMs,
      (err) => {
        if (this.spares.get(recipe.key) === spare) this.spares.delete(recipe.key);
        if (!this.closed && browser.isConnected()) {
          this.opts.log?.("warn", "a spare browser context could not be prepared; renders make their own", {
            err: err instanceof Error ? err.message : String(err),
          });
        }
      },
    );
    this.spares.set(recipe.key, spare as Spare);
    this.track(spare.ready);
  }

  /** Drops every spare of `browser` (it died or is being replaced). */
  dropBrowser(browser: Browser): void {
    for (const [key, spare] of this.spares) {
      if (spare.browser !== browser) continue;
      this.spares.delete(key);
      this.drop(spare);
    }
  }

  /** Drops every spare and waits until they and any preparation under way are closed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const spare of this.spares.values()) this.drop(spare);
    this.spares.clear();
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private evictFor(key: string): boolean {
    const rank = (k: string) => this.wanted.get(k) ?? 0;
    let victim: Spare | null = null;
    for (const spare of this.spares.values()) {
      if (!victim || rank(spare.key) < rank(victim.key)) victim = spare;
    }
    if (!victim || rank(victim.key) >= rank(key)) return false;
    this.spares.delete(victim.key);
    this.drop(victim);
    return true;
  }

  private drop(spare: Spare): void {
    this.track(spare.closed());
  }

  private track(p: Promise<unknown>): void {
    const done = settled(p);
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }
}
