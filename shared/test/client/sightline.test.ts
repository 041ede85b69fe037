// The client against a scripted loopback HTTP server: status handling, retries, network
// errors and timeouts as a caller sees them. (The real Sightline server: test/sdk/.)
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Sightline,
  SightlineError,
  SightlineNetworkError,
  SightlineTimeoutError,
  parseRetryAfter,
  retryDelay,
  DEFAULT_RETRY,
} from "@sightline/shared/client";

type Reply = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };
let script: Reply[] = [];
const seen: { auth: string | undefined; body: string; path: string }[] = [];
let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ auth: req.headers.authorization, body, path: req.url ?? "" });
      const r = script.shift() ?? { status: 200, body: { status: "success" } };
      const send = () =>
        res
          .writeHead(r.status, { "content-type": "application/json", ...r.headers })
          .end(typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {}));
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));

const fast = { baseDelayMs: 5, maxDelayMs: 2000 };
const req = { url: "https://example.test/", raw_elements: [] };

describe("Sightline client", () => {
  it("posts JSON with the bearer key and returns the parsed body", async () => {
    script = [{ status: 200, body: { status: "success", elements: [], credits_remaining: 9 } }];
    seen.length = 0;
    const c = new Sightline({ baseUrl: `${origin}/`, apiKey: "k1" });
    const res = await c.snapshot(req);
    expect(res.credits_remaining).toBe(9);
    expect(seen[0]).toMatchObject({ auth: "Bearer k1", path: "/v1/snapshot" });
    expect(JSON.parse(seen[0].body)).toEqual(req);
  });

  it("turns an error body into a SightlineError with status, error, error_code, credits", async () => {
    script = [{ status: 402, body: { status: "error", error: "Insufficient credits", message: "no credits left", error_code: "insufficient_credits", credits_remaining: 0 } }];
    seen.length = 0;
    const err = await new Sightline({ baseUrl: origin, apiKey: "k", retry: fast }).observe({ url: "https://x.test" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SightlineError);
    expect(err).toMatchObject({ kind: "http", status: 402, error: "Insufficient credits", error_code: "insufficient_credits", credits_remaining: 0, attempts: 1 });
    expect(seen).toHaveLength(1); // 402 is never retried
    expect(seen[0].path).toBe("/v1/observe");
  });

  it("retries 429 honouring Retry-After, then succeeds", async () => {
    script = [
      { status: 429, body: { status: "error", error: "Rate limit exceeded", error_code: "rate_limited" }, headers: { "retry-after": "0" } },
      { status: 503, body: { status: "error", error: "Service busy", error_code: "service_unavailable" } },
      { status: 200, body: { status: "success", elements: [] } },
    ];
    seen.length = 0;
    const res = await new Sightline({ baseUrl: origin, apiKey: "k", retry: fast }).snapshot(req);
    expect(res.status).toBe("success");
    expect(seen).toHaveLength(3);
  });

  it("gives up after the bounded retries and reports retryAfter and attempts", async () => {
    const limited = { status: 429, body: { status: "error", error: "Rate limit exceeded", error_code: "rate_limited" }, headers: { "retry-after": "0" } };
    script = [limited, limited, limited];
    seen.length = 0;
    const err = await new Sightline({ baseUrl: origin, apiKey: "k", retry: { ...fast, retries: 2 } }).snapshot(req).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryAfter: 0, attempts: 3, isRateLimited: true });
    expect(seen).toHaveLength(3);
  });

  it("does not wait for a Retry-After longer than the policy allows", async () => {
    script = [{ status: 429, body: { status: "error", error: "Rate limit exceeded" }, headers: { "retry-after": "3600" } }];
    seen.length = 0;
    const err = await new Sightline({ baseUrl: origin, apiKey: "k", retry: fast }).snapshot(req).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryAfter: 3600, attempts: 1 });
    expect(seen).toHaveLength(1);
  });

  it("never retries other statuses (400, 401, 500)", async () => {
    for (const status of [400, 401, 500]) {
      script = [{ status, body: { status: "error", error: "x" } }];
      seen.length = 0;
      const err = await new Sightline({ baseUrl: origin, apiKey: "k", retry: fast }).snapshot(req).catch((e: unknown) => e);
      expect(err).toMatchObject({ status });
      expect(seen).toHaveLength(1);
    }
  });

  it("reports a non-JSON error body by its status", async () => {
    script = [{ status: 502, body: "<html>bad gateway</html>" }];
    const err = await new Sightline({ baseUrl: origin, apiKey: "k" }).snapshot(req).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "http", status: 502, error: null });
  });

  it("raises invalid_response for a 2xx that is not a JSON object", async () => {
    script = [{ status: 200, body: "not json" }];
    const err = await new Sightline({ baseUrl: origin, apiKey: "k" }).snapshot(req).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "invalid_response", status: 200 });
  });

  it("times out with SightlineTimeoutError", async () => {
    script = [{ status: 200, body: { status: "success" }, delayMs: 1500 }];
    const err = await new Sightline({ baseUrl: origin, apiKey: "k", timeoutMs: 100 }).snapshot(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SightlineTimeoutError);
    expect(err).toMatchObject({ kind: "timeout", status: null, timeoutMs: 100 });
  });

  it("raises SightlineNetworkError with ECONNREFUSED when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await new Sightline({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k" }).snapshot(req).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SightlineNetworkError);
    expect(err).toMatchObject({ kind: "network", code: "ECONNREFUSED", status: null });
  });

  it("stops on the caller's AbortSignal", async () => {
    script = [{ status: 200, body: { status: "success" }, delayMs: 1500 }];
    const ac = new AbortController();
    const p = new Sightline({ baseUrl: origin, apiKey: "k" }).snapshot(req, { signal: ac.signal }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 50);
    expect(await p).toMatchObject({ kind: "aborted" });
  });
});

describe("retry policy", () => {
  it("parses Retry-After seconds and HTTP dates", () => {
    expect(parseRetryAfter("3")).toBe(3);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5);
  });
  it("backs off exponentially within bounds and stops after the last retry", () => {
    const p = { ...DEFAULT_RETRY, retries: 3 };
    expect(retryDelay(0, null, p, () => 0)).toBe(125);
    expect(retryDelay(0, null, p, () => 1)).toBe(250);
    expect(retryDelay(2, null, p, () => 1)).toBe(1000);
    expect(retryDelay(3, null, p)).toBeNull();
    expect(retryDelay(0, 2, p, () => 0)).toBe(2000);
    expect(retryDelay(0, 60, p)).toBeNull();
  });
});
