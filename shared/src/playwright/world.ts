// Sightline's own JavaScript world in a Playwright page: the one place Node code runs Sightline
// code in a page (the SDK helpers, the headless MCP's driver, the server's renders). The
// collector, the page agent and the waits run in an isolated world made over CDP, never in the
// page's main world: the two share the DOM but not one JavaScript object, so no page script can
// reach or replace Sightline's functions, its globals (the collector's `sightline` and its state
// with the node → id map, the page agent's global) or the built-ins they call
// (Object.defineProperty, Function.prototype.call, Element.prototype.getBoundingClientRect… are
// that world's own). The extension gets the same from chrome.scripting's ISOLATED world
// (extension/src/inject.ts).
//
// Made with Page.createIsolatedWorld, on demand, in the main frame only (rather than an init
// script with a worldName in every frame, tracked with Runtime.executionContextCreated):
// - the collector and the page agent work from the top document and reach same-origin frames
//   through contentDocument; Blink then gives this world a context of its own in that frame, so
//   frame content is read from the isolated world too, and cross-origin frames are not read;
// - nothing runs in documents Sightline never reads (ad frames, pages never snapshotted);
// - no Runtime.enable, so the page's console traffic is not copied to a second session. A
//   navigation destroys the world's context; CDP answers the next call on its id with "Cannot
//   find context with specified id" (ids are never reused, so a stale id cannot reach another
//   document), and the world is made again for the new document with the bundles injected again.
// CDP evaluation is not subject to the page's CSP and runs with the page's JavaScript disabled
// (javaScriptEnabled: false; timers do not fire there, as in the main world). Cost: one CDP
// session per page, also used for typing; one round trip per call, two more for a new document.
import type { CDPSession, Frame, Page } from "playwright-core";

/** The world's name (what DevTools shows in its context list). */
export const WORLD_NAME = "__sightline_world__";

/** A script run once per document before the calls that need it (a bundle: collector, page agent). */
export interface WorldScript {
  /** What it is: a script with the same key and other source replaces the one injected. */
  key: string;
  source(): Promise<string>;
}

interface Context {
  id: number;
  /** Per script key: the source injected (or being injected) in this context. */
  injected: Map<string, { source: string; done: Promise<void> }>;
}

interface Evaluated {
  result?: { value?: unknown; description?: string };
  exceptionDetails?: { text?: string; exception?: { description?: string } };
}

/** The page navigated (or closed) between making the context and using it. */
const GONE = /Cannot find context with specified id|No frame with given id|No frame for given id/i;
/** The page navigated while a call ran: the message Playwright gives, which callers retry on. */
const DESTROYED = /context was destroyed|Inspected target navigated|Execution context was destroyed/i;

const worlds = new WeakMap<Page | Frame, SightlineWorld>();

interface FrameTree {
  frame: { id: string; url: string; name?: string };
  childFrames?: FrameTree[];
}

export class SightlineWorld {
  private session: Promise<CDPSession> | null = null;
  private frameId: string | null = null;
  private current: Promise<Context> | null = null;
  /** What `current` resolved to. */
  private live: Context | null = null;

  /** `frame`: a child frame this world is made in (cross-origin frames, issue 33); else the page's main frame. */
  private constructor(
    readonly page: Page,
    private readonly frame: Frame | null = null,
  ) {}

  /** The page's world (one per page, so every helper shares its session and its injections). */
  static of(page: Page): SightlineWorld {
    let w = worlds.get(page);
    if (!w) worlds.set(page, (w = new SightlineWorld(page)));
    return w;
  }

  /**
   * The world of a child frame whose document the top one cannot reach (another origin). An
   * out-of-process frame (another site) has a CDP session of its own; a frame of another origin
   * on the same site shares the page's session and is found in its frame tree by URL and name.
   */
  static ofFrame(frame: Frame): SightlineWorld {
    let w = worlds.get(frame);
    if (!w) worlds.set(frame, (w = new SightlineWorld(frame.page(), frame)));
    return w;
  }

  /** The page's CDP session (Chromium only), opened once; a child frame's own, when it has one. */
  cdp(): Promise<CDPSession> {
    this.session ??= this.openSession().catch((err: unknown) => {
      this.session = null;
      const msg = err instanceof Error ? err.message : String(err);
      throw new Error(/only available in Chromium|not supported/i.test(msg) ? "Sightline runs its code in an isolated world made over CDP: it needs a Chromium page" : msg);
    });
    return this.session;
  }

  private async openSession(): Promise<CDPSession> {
    const context = this.page.context();
    if (!this.frame) return context.newCDPSession(this.page);
    try {
      return await context.newCDPSession(this.frame);
    } catch {
      // Not out of process: the page's session, and the frame's id from its frame tree.
      const cdp = await context.newCDPSession(this.page);
      const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: FrameTree };
      const url = this.frame.url();
      const name = this.frame.name();
      const find = (t: FrameTree): string | null => {
        for (const c of t.childFrames ?? []) {
          if (c.frame.url === url && (c.frame.name ?? "") === name) return c.frame.id;
          const deeper = find(c);
          if (deeper) return deeper;
        }
        return null;
      };
      this.frameId = find(frameTree);
      if (!this.frameId) throw new Error(`Sightline: frame ${url} is not in the page's frame tree`);
      return cdp;
    }
  }

  /** Injects `scripts` into the world of the current document (each once per document). */
  async inject(scripts: readonly WorldScript[]): Promise<void> {
    await this.call("() => undefined", [], scripts);
  }

  /**
   * Runs `fn` (a function's source) with `args` (JSON values) in the world of the main frame's
   * current document, after `scripts`, and returns its (awaited) result by value.
   */
  async call<R = unknown>(fn: string, args: readonly unknown[] = [], scripts: readonly WorldScript[] = []): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const ctx = await this.context();
      try {
        for (const s of scripts) await this.injectOne(ctx, s);
        return (await this.run(ctx, fn, args)) as R;
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        if (GONE.test(msg) || DESTROYED.test(msg)) this.forget(ctx);
        // A new document since the context was made: make the world again for it, and retry.
        if (GONE.test(msg) && attempt < 2) continue;
        if (DESTROYED.test(msg)) throw new Error("Execution context was destroyed, most likely because of a navigation");
        throw err;
      }
    }
  }

  private context(): Promise<Context> {
    if (!this.current) {
      const made = this.create();
      this.current = made;
      made.then(
        (ctx) => (this.live = ctx),
        () => {
          if (this.current === made) this.current = null;
        },
      );
    }
    return this.current;
  }

  /** Drops `ctx` when it is still the current one: the next call makes the world again. */
  private forget(ctx: Context): void {
    if (this.live === ctx) {
      this.live = null;
      this.current = null;
    }
  }

  private async create(): Promise<Context> {
    const cdp = await this.cdp();
    for (let attempt = 0; ; attempt++) {
      this.frameId ??= ((await cdp.send("Page.getFrameTree")) as { frameTree: { frame: { id: string } } }).frameTree.frame.id;
      try {
        const made = (await cdp.send("Page.createIsolatedWorld", { frameId: this.frameId, worldName: WORLD_NAME, grantUniveralAccess: false })) as { executionContextId: number };
        return { id: made.executionContextId, injected: new Map() };
      } catch (err) {
        // The main frame was replaced (a prerendered page, a process swap): ask again once.
        if (attempt > 0 || !GONE.test(String(err)) || this.frame) throw err;
        this.frameId = null;
      }
    }
  }

  private injectOne(ctx: Context, script: WorldScript): Promise<void> {
    return script.source().then((source) => {
      const had = ctx.injected.get(script.key);
      if (had?.source === source) return had.done;
      const done = this.evaluate(ctx, source).then(() => undefined);
      ctx.injected.set(script.key, { source, done });
      done.catch(() => {
        if (ctx.injected.get(script.key)?.done === done) ctx.injected.delete(script.key);
      });
      return done;
    });
  }

  private async evaluate(ctx: Context, expression: string): Promise<unknown> {
    const cdp = await this.cdp();
    return answer(await cdp.send("Runtime.evaluate", { expression, contextId: ctx.id, returnByValue: true, silent: true }));
  }

  private async run(ctx: Context, fn: string, args: readonly unknown[]): Promise<unknown> {
    const cdp = await this.cdp();
    return answer(
      await cdp.send("Runtime.callFunctionOn", {
        functionDeclaration: fn,
        executionContextId: ctx.id,
        arguments: args.map((value) => (value === undefined ? {} : { value })),
        returnByValue: true,
        awaitPromise: true,
        silent: true,
      }),
    );
  }
}

function answer(r: Evaluated): unknown {
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new Error(`Sightline (in the page): ${d.exception?.description ?? d.text ?? "an exception"}`);
  }
  return r.result?.value;
}
