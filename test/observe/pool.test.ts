// The browser pool with the real Chromium: reuse, bounded concurrency and queue, timeouts,
// relaunch after the browser is killed, and nothing left open afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool, PoolBusyError, RenderTimeoutError, BrowserCrashedError, renderUrl } from "../../server/src/browser/index.js";
import { DEFAULT_POLICY } from "@sightline/shared/net";
import { CHROMIUM_PATH } from "../support/chromium.js";

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: CHROMIUM_PATH, concurrency: 2, queueLimit: 1 });
});
afterAll(async () => {
  await pool?.close();
});

const title = (html: string) => async (ctx: import("playwright-core").BrowserContext) => {
  const page = await ctx.newPage();
  await page.setContent(html);
  return page.title();
};

describe("browser pool", () => {
  it("launches lazily, reuses one browser and closes every context it opened", async () => {
    expect(pool.stats()).toMatchObject({ launches: 0, connected: false });
    const titles = await Promise.all(
      ["a", "b", "c"].map((t) => pool.withContext({}, title(`<title>${t}</title>`), { timeoutMs: 20_000 })),
    );
    expect(titles).toEqual(["a", "b", "c"]);
    expect(pool.stats()).toMatchObject({ launches: 1, connected: true, running: 0, queued: 0, openContexts: 0, openPages: 0 });
    expect(pool.stats()).toMatchObject({ spareContexts: 0, spareUses: 0 });
  });

  it("keeps no spare context when spares are off (the default of the pool itself)", async () => {
    const render = () =>
      renderUrl(pool, { url: "data:text/html,<title>plain</title>", engine: "performance", policy: DEFAULT_POLICY, timeoutMs: 20_000 }, ({ page }) => page.title());
    expect(await render()).toBe("plain");
    expect(await render()).toBe("plain"); // with spares on, this one would take the first one's
    expect(pool.stats()).toMatchObject({ spareContexts: 0, spareUses: 0, openContexts: 0, openPages: 0 });
  });

  it("turns a request away when both slots are busy and one is already waiting", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const hold = () => pool.withContext({}, async () => gate, { timeoutMs: 20_000 });
    const running = [hold(), hold(), hold()]; // two run, one waits
    await new Promise((r) => setTimeout(r, 200));
    expect(pool.stats()).toMatchObject({ running: 2, queued: 1 });
    const busy = await pool.withContext({}, async () => "never", { timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PoolBusyError);
    release();
    await Promise.all(running);
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0, openContexts: 0 });
  });

  it("stops a render that outlasts its budget and closes its context", async () => {
    const err = await pool
      .withContext({}, async (ctx) => {
        const page = await ctx.newPage();
        await page.evaluate("new Promise(() => {})"); // never settles
      }, { timeoutMs: 1500 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderTimeoutError);
    expect(pool.stats()).toMatchObject({ running: 0, openContexts: 0, openPages: 0 });
  });

  it("fails the render whose browser is killed, then relaunches for the next one", async () => {
    const launches = pool.stats().launches;
    const pid = pool.browserPid();
    expect(pid).toBeGreaterThan(0);
    const err = await pool
      .withContext({}, async (ctx) => {
        const page = await ctx.newPage();
        await page.setContent("<title>doomed</title>");
        process.kill(pid!, "SIGKILL");
        await page.evaluate("new Promise(() => {})");
      }, { timeoutMs: 20_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrowserCrashedError);
    const next = await pool.withContext({}, title("<title>after</title>"), { timeoutMs: 20_000 });
    expect(next).toBe("after");
    expect(pool.stats()).toMatchObject({ launches: launches + 1, openContexts: 0, running: 0 });
    expect(pool.browserPid()).not.toBe(pid);
  });
});
