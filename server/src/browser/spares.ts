// Spare contexts: a render's context made before the render is asked for (its own resources
// such as the egress proxy, the recipe's routes, one blank page open), so the next render with
// the same recipe key skips Chromium's page start (the renderer process: ~215 ms of a ~560 ms
// warm read). A spare is never navigated, goes to one render only and dies with its browser.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

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

/** Things to close, last opened first; anything added after release() is closed at once. */
export class Holdings {
  private readonly items: Array<() => Promise<unknown>> = [];
  private released = false;
  private late: Promise<void> = Promise.resolve();

  add(close: () => Promise<unknown>): void {
    if (!this.released) this.items.push(close);
    else this.late = this.late.then(close).then(noop, noop);
  }

  async release(): Promise<void> {
    this.released = true;
    for (let close = this.items.pop(); close; close = this.items.pop()) await close().catch(noop);
  }

  /** Resolves once what arrived after release() is closed too. */
  idle(): Promise<void> {
    return this.late;
  }
}

const noop = () => {};

/** Resolves with `promise`, or with `fallback` after `ms` (the timer does not outlive it). */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Makes a context from `recipe` on `browser`: resources, context, routes, one page. Everything
 * made is added to `held` as soon as it exists, so whoever releases `held` closes it even when
 * this is cut short. `seen` learns of the context (before its page is open).
 */
export async function prepareContext<R>(
  browser: Browser,
  recipe: ContextRecipe<R>,
  base: BrowserContextOptions,
  held: Holdings,
  closeContext: (context: BrowserContext) => Promise<void>,
  seen: (context: BrowserContext) => void = () => {},
): Promise<PreparedContext<R>> {
  const resources = await recipe.open();
  held.add(() => resources.close());
  const context = await browser.newContext({ ...base, ...resources.options });
  seen(context);
  held.add(() => closeContext(context));
  await recipe.setup(context, resources.value);
  const page = await context.newPage();
  return { context, page, resources: resources.value };
}

/** One spare: being prepared, then ready; taken by one render or dropped. */
export class Spare<R = unknown> {
  readonly held = new Holdings();
  /** The prepared context, or null when preparing failed or the spare was dropped meanwhile. */
  readonly ready: Promise<PreparedContext<R> | null>;
  context: BrowserContext | null = null;
  taken = false;
  private broken = false;
  private disposing: Promise<void> | null = null;

  constructor(
    readonly key: string,
    readonly browser: Browser,
    make: (spare: Spare<R>) => Promise<PreparedContext<R>>,
    timeoutMs: number,
    onFailure: (err: unknown) => void,
  ) {
    const timedOut = Symbol("timeout");
    this.ready = (async () => {
      try {
        const made = await within<PreparedContext<R> | typeof timedOut>(make(this), timeoutMs, timedOut);
        if (made === timedOut) throw new Error(`the spare context was not ready within ${timeoutMs} ms`);
        if (this.disposing) {
          await this.held.idle(); // dropped while being made: what it made is closed as it came
          return null;
        }
        // A renderer that crashed or a context closed under it makes the spare useless.
        made.page.once("crash", () => (this.broken = true));
        made.page.once("close", () => (this.broken = true));
        made.context.once("close", () => (this.broken = true));
        return made;
      } catch (err) {
        if (!this.disposing) onFailure(err);
        await this.dispose();
        await this.held.idle();
        return null;
      }
    })();
  }

  /** True while the spare can still be handed out: its browser is up and its page intact. */
  usable(): boolean {
    return !this.broken && !this.disposing && this.browser.isConnected();
  }

  /** Closes the context (if made) and then its resources; once, however often it is called. */
  dispose(): Promise<void> {
    return (this.disposing ??= this.held.release());
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
  /** Contexts of spares not handed out (being prepared, ready or being closed). */
  private readonly owned = new Set<BrowserContext>();
  /** Preparations and closings under way (close() waits for them). */
  private readonly pending = new Set<Promise<unknown>>();
  /** When a render last asked for each key. */
  private readonly wanted = new Map<string, number>();
  private wants = 0;
  private closed = false;
  /** Renders that started on a spare. */
  uses = 0;

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

  /** Whether a context is a spare's (not handed out), for the pool's leak accounting. */
  owns(context: BrowserContext): boolean {
    return this.owned.has(context);
  }

  /** Spares on the shelf (ready or being prepared). */
  get size(): number {
    return this.spares.size;
  }

  /** Hands over the spare for `key` on `browser`, or null; the caller must dispose() it. */
  take<R>(key: string, browser: Browser): Spare<R> | null {
    const spare = this.spares.get(key);
    if (!spare) return null;
    this.spares.delete(key);
    if (spare.browser !== browser || !spare.usable()) {
      this.drop(spare);
      return null;
    }
    spare.taken = true;
    if (spare.context) this.owned.delete(spare.context);
    this.uses++;
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
      (s) =>
        prepareContext(browser, recipe, base, s.held, closeContext, (context) => {
          s.context = context;
          if (!s.taken) this.owned.add(context);
        }),
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
    this.track(
      spare.ready.then((made) => {
        if (!made && spare.context) this.owned.delete(spare.context); // it failed and was closed
      }),
    );
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
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
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
    this.track(
      spare.dispose().finally(() => {
        if (spare.context) this.owned.delete(spare.context);
      }),
    );
  }

  private track(p: Promise<unknown>): void {
    const settled = p.then(
      () => {},
      () => {},
    );
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }
}
