// The pool's limits seen through /v1/observe: one render slot and no waiting line, a short
// render budget, and the browser killed mid-request. Every failure is an error body and costs
// nothing; the next request works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, browserPid, observe, observePool, poolStats, until } from "./helpers.js";

let sl: Sightline;
let site: StaticServer;
let key: string;
let releaseHang: (() => void) | null = null;
let listeningBefore = 0;

/** Listening TCP servers of this process (the server, the spares' egress proxies). */
const listening = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;

beforeAll(async () => {
  site = await serveStatic(FIXTURES, [
    async (req, res) => {
      if (!req.url?.startsWith("/hang")) return false;
      // Answers only when the test lets it (or when the server closes the socket).
      await new Promise<void>((resolve) => {
        releaseHang = resolve;
        req.socket.once("close", resolve);
      });
      if (!res.destroyed) res.writeHead(200, { "content-type": "text/html" }).end("<title>late</title>");
      return true;
    },
  ]);
  listeningBefore = listening();
  sl = await startSightline({
    config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1", concurrency: 1, queueLimit: 0, renderTimeoutMs: 10_000 }) },
  });
  key = await sl.createKey(100);
  // launch the browser now, so the tests below start from a warm pool
  await observe(sl, key, { url: site.url("/index.html") });
});
afterAll(async () => {
  releaseHang?.();
  await sl?.close();
  await site?.close();
});

describe("render limits", () => {
  it("answers 503 with Retry-After when the slot is busy and the queue is full; the slow one times out with 504", async () => {
    const before = await sl.credits(key);
    const slow = observe(sl, key, { url: site.url("/hang"), mode: "map" });
    await until(() => poolStats(sl).running === 1 && site.requests.includes("/hang"));
    const busy = await observe(sl, key, { url: site.url("/index.html") });
    expect(busy.status).toBe(503);
    expect(busy.json).toMatchObject({ status: "error", error: "Service busy", error_code: "service_unavailable" });
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);

    const timedOut = await slow;
    expect(timedOut.status).toBe(504);
    expect(timedOut.json).toMatchObject({ status: "error", error: "Render timeout", error_code: "timeout" });
    expect(timedOut.json.message).toMatch(/10000 ms/);
    expect(await sl.credits(key)).toBe(before);
    expect(poolStats(sl)).toMatchObject({ running: 0, openContexts: 0, openPages: 0 });
    expect(poolStats(sl).spareContexts).toBeLessThanOrEqual(2); // one per key: read, map
  });

  it("fails the request whose browser is killed (502, uncharged), then relaunches for the next", async () => {
    const launches = poolStats(sl).launches;
    const pid = browserPid(sl);
    expect(pid).toBeGreaterThan(0);
    site.requests.length = 0;
    const before = await sl.credits(key);
    const doomed = observe(sl, key, { url: site.url("/hang"), mode: "visual" });
    await until(() => site.requests.includes("/hang"));
    process.kill(pid!, "SIGKILL");
    const failed = await doomed;
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ status: "error", error: "Render failed", error_code: "render_failed" });
    expect(failed.json.message).toMatch(/browser/);
    expect(await sl.credits(key)).toBe(before);

    // The spares died with the browser: the next request makes its own context.
    const { spareUses } = poolStats(sl);
    const next = await observe(sl, key, { url: site.url("/article.html") });
    expect(next.status).toBe(200);
    expect(next.json.title).toBe("How lighthouses work");
    expect(await sl.credits(key)).toBe(before - 1);
    expect(poolStats(sl)).toMatchObject({ launches: launches + 1, running: 0, openContexts: 0, openPages: 0, spareUses });
    expect(browserPid(sl)).not.toBe(pid);
  });

  it("closes its browser and its spare contexts when the server closes", async () => {
    const pid = browserPid(sl);
    expect(pid).toBeGreaterThan(0);
    const pool = observePool(sl);
    await until(() => pool.stats().spareContexts === 1); // the read's, made after the last request
    expect(listening()).toBeGreaterThan(listeningBefore + 1); // the server and the spare's proxy
    await sl.close();
    expect(pool.stats()).toMatchObject({ connected: false });
    expect(listening()).toBe(listeningBefore);
    const alive = () => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until(() => !alive(), 10_000);
    expect(alive()).toBe(false);
  });
});
