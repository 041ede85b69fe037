// Spare contexts with the real Chromium: a render with the same key starts on a context made
// ahead of it, which nobody used before (no cookie, storage, cache or proxy refusal of an earlier
// render), enforces the same host policy, dies with its browser, and is closed with the pool,
// its egress proxy too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { BrowserPool, RenderTimeoutError, renderUrl, type ContextRecipe, type RenderedPage } from "../../server/src/browser/index.js";
import { EgressRefusal, parseAllowList } from "@sightline/shared/net";
import { CHROMIUM_PATH } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, until } from "./helpers.js";

let pool: BrowserPool;
let site: StaticServer; // 127.0.0.1, allowed
let other: StaticServer; // 127.0.0.2, refused
let listeningBefore = 0;
const policy = parseAllowList("127.0.0.1");

/** Listening TCP servers of this process (the egress proxies are among them). */
const listening = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;

beforeAll(async () => {
  other = await serveStatic(FIXTURES, [], "127.0.0.2");
  site = await serveStatic(FIXTURES, [
    (req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/visit.html") {
        // A cookie from the server, a cacheable stylesheet, and an image on a refused host.
        res.writeHead(200, { "content-type": "text/html", "set-cookie": "visit=1; Path=/; Max-Age=3600" }).end(
          `<!doctype html><title>Visit</title><link rel="stylesheet" href="/kept.css"><script src="${other.url("/x.js")}"></script><p>hello</p>`,
        );
        return true;
      }
      if (path === "/kept.css") {
        res.writeHead(200, { "content-type": "text/css", "cache-control": "public, max-age=3600" }).end("p { color: red }");
        return true;
      }
      if (path === "/redirect-out") {
        res.writeHead(302, { location: other.url("/article.html") }).end();
        return true;
      }
      if (path === "/hang") {
        req.socket.once("close", () => res.destroy()); // never answers; ends with the client
        return true;
      }
      return false;
    },
  ]);
  listeningBefore = listening();
  pool = new BrowserPool({ executablePath: CHROMIUM_PATH, concurrency: 2, queueLimit: 2, spares: 2 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
  await other?.close();
});

/** What a page can see once loaded: its cookies and storage, and its proxy's refusals. */
interface Traces {
  cookie: string;
  stored: string | null;
  contextCookies: number;
  refusals: number;
  proxy: string;
}

async function traces({ page, proxy }: RenderedPage): Promise<Traces> {
  const seen = (await page.evaluate(`({ cookie: document.cookie, stored: localStorage.getItem("left") })`)) as Pick<Traces, "cookie" | "stored">;
  return { ...seen, contextCookies: (await page.context().cookies()).length, refusals: proxy.refusals.length, proxy: proxy.server };
}

/** Renders /visit.html, reports what it finds once loaded, then leaves a cookie and storage. */
const visit = (javaScript = true) =>
  renderUrl(pool, { url: site.url("/visit.html"), engine: "performance", policy, timeoutMs: 20_000, javaScript }, async (r) => {
    const found = await traces(r);
    await r.page.evaluate(`document.cookie = "left=1; Max-Age=3600"; localStorage.setItem("left", "1")`);
    return { found, left: await traces(r), proxy: r.proxy };
  });

/** A fresh context's view of /visit.html: only the server's cookie and its own one refusal (the
 *  script on 127.0.0.2), nothing an earlier render left behind. */
const FRESH = { cookie: "visit=1", stored: null, contextCookies: 1, refusals: 1 };

/** `n` spares on the shelf (or at least `n`) and all of them ready, none still being prepared. */
const sparesReady = (n: number, atLeast = false, p = pool) => {
  const { sparesReady: ready, sparesPreparing } = p.stats();
  return sparesPreparing === 0 && (atLeast ? ready >= n : ready === n);
};

const cssFetches = () => site.requests.filter((p) => p === "/kept.css").length;
const text = (path: string, javaScript: boolean) =>
  renderUrl(pool, { url: site.url(path), engine: "performance", policy, timeoutMs: 20_000, javaScript }, ({ page }) =>
    page.evaluate("document.body.innerText") as Promise<string>,
  );

describe("spare contexts", () => {
  it("start the next render with the same key, which sees nothing of the renders before it", async () => {
    const first = await visit();
    expect(first.found).toEqual({ ...FRESH, proxy: first.left.proxy });
    expect(first.left).toMatchObject({ cookie: "visit=1; left=1", stored: "1", contextCookies: 2 });
    expect(pool.stats()).toMatchObject({ spareUses: 0, openContexts: 0, openPages: 0 });
    await until(() => sparesReady(1));

    const proxies = new Set([first.proxy]);
    for (let i = 1; i <= 2; i++) {
      const next = await visit();
      expect(pool.stats().spareUses).toBe(i);
      // Brand new: no cookie, storage or refusal of the render before, and its own proxy (the
      // object: a closed proxy's port may be reused).
      expect(next.found).toMatchObject(FRESH);
      expect(proxies.has(next.proxy)).toBe(false);
      proxies.add(next.proxy);
      expect(pool.stats()).toMatchObject({ openContexts: 0, openPages: 0 });
      await until(() => sparesReady(1));
    }
    // Nothing cached across renders either: every render fetched the stylesheet itself.
    expect(cssFetches()).toBe(3);
  });

  it("go to one of two renders that ask at once", async () => {
    const uses = pool.stats().spareUses;
    const [a, b] = await Promise.all([visit(), visit()]);
    expect(pool.stats().spareUses).toBe(uses + 1);
    expect(a.found).toMatchObject(FRESH);
    expect(b.found).toMatchObject(FRESH);
    expect(a.proxy).not.toBe(b.proxy);
    await until(() => sparesReady(1));
  });

  it("are kept per key: JavaScript off has its own spare, which keeps the page's scripts off", async () => {
    const uses = pool.stats().spareUses;
    expect(await text("/script-replaces.html", false)).toContain("Cordgrass"); // no spare for this key yet
    expect(pool.stats().spareUses).toBe(uses);
    await until(() => sparesReady(2));
    expect(await text("/script-replaces.html", false)).toContain("Cordgrass"); // on the spare: still no scripts
    expect(pool.stats().spareUses).toBe(uses + 1);
    expect(await text("/script-replaces.html", true)).toContain("Subscribe to keep reading"); // the other key's spare
    expect(pool.stats().spareUses).toBe(uses + 2);
    await until(() => sparesReady(2));

    // Another policy object (even an equal one) is another key and gets no spare of these; with
    // two spares at most, the key asked for least recently (JavaScript off) gives way to it.
    const own = parseAllowList("127.0.0.1");
    const article = (p: typeof policy, javaScript = true) =>
      renderUrl(pool, { url: site.url("/article.html"), engine: "performance", policy: p, timeoutMs: 20_000, javaScript }, async () => {});
    await article(own);
    expect(pool.stats().spareUses).toBe(uses + 2);
    await until(() => pool.stats().sparesPreparing === 0);
    await article(own);
    expect(pool.stats().spareUses).toBe(uses + 3);
    await article(policy, false);
    expect(pool.stats().spareUses).toBe(uses + 3);
    expect(pool.stats()).toMatchObject({ openContexts: 0, openPages: 0 });
  });

  it("enforce the host policy like a fresh context: a redirect to a refused address is refused, never requested", async () => {
    await visit(); // make sure the JavaScript-on key is the one with a spare
    await until(() => sparesReady(1, true));
    const uses = pool.stats().spareUses;
    other.requests.length = 0;
    const err = await renderUrl(pool, { url: site.url("/redirect-out"), engine: "performance", policy, timeoutMs: 20_000 }, async () => "loaded").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EgressRefusal);
    expect(pool.stats().spareUses).toBe(uses + 1);
    expect(other.requests).toEqual([]);
  });

  it("keep the render budget: a render on a spare that outlasts it times out and leaves nothing open", async () => {
    await until(() => sparesReady(1, true));
    const uses = pool.stats().spareUses;
    const err = await renderUrl(pool, { url: site.url("/hang"), engine: "performance", policy, timeoutMs: 1500 }, async () => "loaded").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RenderTimeoutError);
    expect(pool.stats().spareUses).toBe(uses + 1);
    expect(pool.stats()).toMatchObject({ running: 0, openContexts: 0, openPages: 0 });
  });

  it("die with their browser: a killed browser drops them (proxies closed); the next render relaunches", async () => {
    await until(() => sparesReady(1, true));
    expect(listening()).toBeGreaterThan(listeningBefore); // the spares' proxies
    const { launches, spareUses } = pool.stats();
    const pid = pool.browserPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, "SIGKILL");
    await until(() => !pool.stats().connected && listening() === listeningBefore); // proxies closed

    const next = await visit();
    expect(next.found).toMatchObject(FRESH);
    expect(pool.stats()).toMatchObject({ launches: launches + 1, spareUses, openContexts: 0, running: 0 });
    await until(() => sparesReady(1)); // made again, on the new browser
    expect(pool.browserPid()).not.toBe(pid);
  });

  it("are closed with the pool, even one still being prepared, and no proxy is left listening", async () => {
    await until(() => sparesReady(1));
    await text("/article.html", false); // a spare for JavaScript off starts being prepared now
    await pool.close();
    expect(pool.stats()).toMatchObject({ connected: false });
    expect(listening()).toBe(listeningBefore);
  });
});

/** A recipe whose resources are counted, and whose setup the test can hold up. */
function counted(key: string, setup: (context: BrowserContext) => Promise<void> = async () => {}) {
  const counts = { opened: 0, closed: 0 };
  const recipe: ContextRecipe<null> = {
    key,
    open: async () => {
      counts.opened++;
      return { value: null, options: {}, close: async () => void counts.closed++ };
    },
    setup,
  };
  return { recipe, counts };
}
const never = () => new Promise<void>(() => {});

describe("spare contexts that are slow or cut short", () => {
  let slow: BrowserPool;
  beforeAll(() => {
    // Waits that, if the pool fell back on them, would outlast the test (it fails by timeout).
    slow = new BrowserPool({ executablePath: CHROMIUM_PATH, concurrency: 1, queueLimit: 0, spares: 1, sparePrepareTimeoutMs: 600_000, closeTimeoutMs: 600_000 });
  });
  afterAll(() => slow?.close());

  it("do not hold up a render: a spare still being prepared gives way and the render makes its own context", async () => {
    let hangNext = false;
    const { recipe, counts } = counted("stuck", async () => {
      if (!hangNext) return;
      hangNext = false;
      await never(); // the spare made after the first render never gets ready
    });
    await slow.withRecipe(recipe, async () => void (hangNext = true), { timeoutMs: 20_000 });
    const { spareUses } = slow.stats();
    // A budget far below the spare's prepare timeout: made on the spot, not a 504.
    expect(await slow.withRecipe(recipe, async ({ page }) => page.evaluate("1 + 1"), { timeoutMs: 10_000 })).toBe(2);
    expect(slow.stats()).toMatchObject({ spareUses, running: 0, openContexts: 0, openPages: 0 });
    // The stuck spare was dropped; all but the new spare's resources are closed.
    await until(() => counts.closed === counts.opened - 1);
  });

  it("make nothing after the budget ran out: a context whose setup outlasts the budget never gets its page", async () => {
    let release = () => {};
    const setupDone = new Promise<void>((resolve) => (release = resolve));
    let slowNext = true;
    let newPages = 0;
    const { recipe, counts } = counted("late", async (context) => {
      if (!slowNext) return;
      slowNext = false;
      const newPage = context.newPage.bind(context);
      context.newPage = () => {
        newPages++;
        return newPage();
      };
      await setupDone; // the routes are still being set when the budget runs out
    });
    // No spare for this key yet: the render makes its context, which is slow.
    const err = await slow.withRecipe(recipe, async () => "rendered", { timeoutMs: 800 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderTimeoutError);
    expect(slow.stats()).toMatchObject({ running: 0, openContexts: 0, openPages: 0 });
    release();
    await setupDone;
    await new Promise((r) => setTimeout(r, 0));
    expect(newPages).toBe(0);
    await until(() => counts.closed === counts.opened - 1); // all but the next spare's
  });

  it("are made again only after the request's last render when the caller says more renders follow", async () => {
    const { recipe, counts } = counted("deferred");
    let done = () => {};
    const requestDone = new Promise<void>((resolve) => (done = resolve));
    await slow.withRecipe(recipe, async () => {}, { timeoutMs: 20_000, refillAfter: requestDone });
    expect(counts.opened).toBe(1); // its own context only: no spare started yet
    done();
    await until(() => counts.opened === 2);
    await until(() => sparesReady(1, false, slow));
  });

  it("do not hold up shutdown: the pool closes while a spare's page is still opening", async () => {
    const { recipe, counts } = counted("closing", async () => {
      // The spare's setup is done and its page is about to open: close the pool then.
      if (counts.opened === 2) setImmediate(() => void (closing = slow.close()));
    });
    let closing: Promise<void> | null = null;
    await slow.withRecipe(recipe, async () => {}, { timeoutMs: 20_000 });
    await until(() => closing !== null);
    await closing;
    expect(counts.closed).toBe(counts.opened);
    expect(slow.stats()).toMatchObject({ connected: false });
  });
});
