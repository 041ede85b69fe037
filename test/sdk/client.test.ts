// The client SDK against the real Sightline server on loopback: every error type a caller
// can meet, the 429 retry, and API mode ranking like local mode for the same capture.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { Sightline, SightlineError, SightlineNetworkError, SightlineTimeoutError } from "@sightline/shared/client";
import { collectPage, localReranker, refineLocally, snapshot, snapshotRequest } from "@sightline/shared/playwright";
import { startSightline, type Sightline as TestServer } from "../support/sightline-server.js";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const tiny = {
  url: "https://shop.test/",
  raw_elements: [{ id: 1, tag: "button", text: "Buy", rect: { x: 10, y: 10, width: 80, height: 30 } }],
};

let sl: TestServer;
let browser: Browser;
let site: StaticServer;
beforeAll(async () => {
  [sl, browser, site] = await Promise.all([startSightline(), launchChromium(), serveStatic(fixtures)]);
});
afterAll(async () => {
  await Promise.all([sl?.close(), browser?.close(), site?.close()]);
});

const catchErr = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a failure"); }, (e: unknown) => e);

describe("client against the real server", () => {
  it("snapshot returns ranked elements and the balance after the charge", async () => {
    const key = await sl.createKey(5);
    const res = await new Sightline({ baseUrl: sl.origin, apiKey: key }).snapshot(tiny);
    expect(res.status).toBe("success");
    expect(res.elements.map((e) => e.id)).toEqual([1]);
    expect(res.credits_used).toBe(1);
    expect(res.credits_remaining).toBe(4);
    expect(await sl.credits(key)).toBe(4);
  });

  it("401: unknown key", async () => {
    const err = await catchErr(new Sightline({ baseUrl: sl.origin, apiKey: "sk_nope" }).snapshot(tiny));
    expect(err).toBeInstanceOf(SightlineError);
    expect(err).toMatchObject({ kind: "http", status: 401, error_code: "unauthorized", isUnauthorized: true, attempts: 1 });
  });

  it("402: no credits left, with credits_remaining", async () => {
    const key = await sl.createKey(0);
    const err = await catchErr(new Sightline({ baseUrl: sl.origin, apiKey: key }).snapshot(tiny));
    expect(err).toMatchObject({ status: 402, error_code: "insufficient_credits", credits_remaining: 0, isOutOfCredits: true });
  });

  it("403: inactive account", async () => {
    const key = await sl.createKey(5, { active: false });
    const err = await catchErr(new Sightline({ baseUrl: sl.origin, apiKey: key }).snapshot(tiny));
    expect(err).toMatchObject({ status: 403, error_code: "forbidden" });
    expect(await sl.credits(key)).toBe(5);
  });

  it("400: the contract's message in `error`, not retried, not charged", async () => {
    const key = await sl.createKey(5);
    const err = await catchErr(new Sightline({ baseUrl: sl.origin, apiKey: key }).snapshot({ url: "https://x.test/" } as never));
    expect(err).toMatchObject({ status: 400, error_code: "bad_request", credits_remaining: 5, attempts: 1 });
    expect((err as SightlineError).error).toMatch(/^Missing required field/);
  });

  it("network error: connection refused", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const err = await catchErr(new Sightline({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k" }).snapshot(tiny));
    expect(err).toBeInstanceOf(SightlineNetworkError);
    expect(err).toMatchObject({ kind: "network", code: "ECONNREFUSED", status: null });
  });

  it("timeout: a server that accepts and never answers", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const { port } = silent.address() as AddressInfo;
    try {
      const err = await catchErr(new Sightline({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", timeoutMs: 200 }).snapshot(tiny));
      expect(err).toBeInstanceOf(SightlineTimeoutError);
      expect(err).toMatchObject({ kind: "timeout", timeoutMs: 200 });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it("API mode ranks a captured page exactly like local mode", async () => {
    const key = await sl.createKey(10);
    const client = new Sightline({ baseUrl: sl.origin, apiKey: key });
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    try {
      for (const [path, goal] of [["/form.html", "enter your email address"], ["/change.html", "go to checkout"], ["/form.html", undefined]] as const) {
        await page.goto(site.url(path));
        const req = snapshotRequest(await collectPage(page), { goal, limit: 100 });
        const api = await client.snapshot(req);
        // The test server reads no environment, so it loads the committed model: so does this.
        const local = refineLocally(req, undefined, localReranker({}));
        expect(api.elements.length).toBeGreaterThan(3);
        expect(api.elements.map((e) => e.id)).toEqual(local.elements.map((e) => e.id));
        expect(api.elements.map((e) => e.importance)).toEqual(local.elements.map((e) => e.importance));
      }
      // The page helper in API mode charges one credit and says how many are left.
      const snap = await snapshot(page, { client, goal: "create an account" });
      expect(snap).toMatchObject({ mode: "api", credits_used: 1, credits_remaining: 6 });
    } finally {
      await page.close();
    }
  });
});

describe("429 retry against a server with a tiny rate limit", () => {
  let limited: TestServer;
  beforeAll(async () => {
    // 30 requests per minute: a burst of 30, then one token every 2 s (Retry-After: 2).
    limited = await startSightline({ config: { rateLimitPerMinute: 30 } });
  });
  afterAll(() => limited?.close());

  it("waits out Retry-After and succeeds; gives up when retries are off", async () => {
    const key = await limited.createKey(100);
    // Spend the burst with plain requests until the server says 429.
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) {
      const r = await fetch(`${limited.origin}/v1/snapshot`, { method: "POST", headers: limited.headers(key), body: JSON.stringify(tiny) });
      status = r.status;
      await r.arrayBuffer();
    }
    expect(status).toBe(429);

    const noRetry = await catchErr(new Sightline({ baseUrl: limited.origin, apiKey: key, retry: { retries: 0 } }).snapshot(tiny));
    expect(noRetry).toMatchObject({ status: 429, error_code: "rate_limited", attempts: 1, isRateLimited: true });
    expect((noRetry as SightlineError).retryAfter).toBeGreaterThan(0);

    const retries: number[] = [];
    const client = new Sightline({ baseUrl: limited.origin, apiKey: key, onRetry: (r) => retries.push(r.status) });
    const res = await client.snapshot(tiny);
    expect(res.status).toBe("success");
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.every((s) => s === 429)).toBe(true);
  });
});
