// Every error row of the contract (7.2 body, 7.3 statuses) over real HTTP, and that no error
// charges a credit.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { call, expectError, page } from "./http.js";

let sl: Sightline;
beforeAll(async () => {
  sl = await startSightline({ config: { bodyLimitBytes: 64 * 1024 } });
});
afterAll(() => sl.close());

const snap = (key: string | undefined, body: unknown, headers?: Record<string, string>) => call(sl.origin, "/v1/snapshot", { key, body, headers });

describe("authentication (spec 5)", () => {
  test("no Authorization header → 401 without credits_remaining", async () => {
    const e = expectError(await snap(undefined, page(1)), 401, "Unauthorized");
    expect(e.credits_remaining).toBeUndefined();
  });
  test("unknown key and malformed header → 401", async () => {
    expectError(await snap("sl_not-a-real-key", page(1)), 401, "Unauthorized: invalid API key");
    expectError(await snap(undefined, page(1), { authorization: "Basic abc" }), 401, "Unauthorized");
  });
  test("inactive account → 403 with its balance, and no charge", async () => {
    const key = await sl.createKey(7, { active: false });
    const e = expectError(await snap(key, page(1)), 403, "Account inactive");
    expect(e.credits_remaining).toBe(7);
    expect(await sl.credits(key)).toBe(7);
  });
});

describe("credits", () => {
  test("no credits left → 402 with credits_remaining 0", async () => {
    const key = await sl.createKey(1);
    expect((await snap(key, page(2))).status).toBe(200);
    const e = expectError(await snap(key, page(2)), 402, "Insufficient credits");
    expect(e.credits_remaining).toBe(0);
    expect(e.error_code).toBe("insufficient_credits");
  });
});

describe("bad requests → 400 with error_code bad_request and no charge", () => {
  let key: string;
  beforeAll(async () => {
    key = await sl.createKey(100);
  });
  const cases: [string, unknown, string][] = [
    ["truncated JSON", '{"url":"https://a.b","raw_elements":[{"id":1', "Invalid JSON payload: "],
    ["not JSON at all", "hello", "Invalid JSON payload: "],
    ["a JSON string instead of an object", '"just a string"', "Invalid JSON payload: "],
    ["a JSON array instead of an object", "[1,2]", "Invalid JSON payload: "],
    ["__proto__ key", '{"__proto__":{"x":1},"url":"https://a.b","raw_elements":[]}', "Invalid JSON payload: "],
    ["missing url", { raw_elements: [] }, "Missing required field"],
    ["missing raw_elements", { url: "https://a.b" }, "Missing required field"],
    ["empty body", "", "Missing required field"],
    ["raw_elements not an array", { url: "https://a.b", raw_elements: { id: 1 } }, "Invalid element format"],
    ["element without rect", { url: "https://a.b", raw_elements: [{ id: 1, tag: "a" }] }, "Invalid element format"],
    ["element id a string", { url: "https://a.b", raw_elements: [{ id: "1", rect: { x: 0, y: 0, width: 1, height: 1 } }] }, "Invalid element format"],
    ["element rect width a string", { url: "https://a.b", raw_elements: [{ id: 1, rect: { x: 0, y: 0, width: "10", height: 1 } }] }, "Invalid element format"],
    ["viewport width 0", { ...page(1), viewport: { width: 0, height: 800 } }, "Invalid viewport dimensions"],
    ["viewport height negative", { ...page(1), viewport: { width: 100, height: -1 } }, "Invalid viewport dimensions"],
    ["viewport width a string", { ...page(1), viewport: { width: "wide", height: 800 } }, "Invalid viewport dimensions"],
    ["limit 0", { ...page(1), options: { limit: 0 } }, "Invalid options"],
    ["goal a number", { ...page(1), goal: 42 }, "Invalid field"],
  ];
  test.each(cases)("%s", async (_name, body, prefix) => {
    const e = expectError(await snap(key, body), 400, prefix);
    expect(e.error_code).toBe("bad_request");
    expect(e.credits_remaining).toBe(100);
    expect(e.message).toBe(e.error); // snapshot errors: `error` is the full message
  });
  test("none of them charged", async () => {
    expect(await sl.credits(key)).toBe(100);
  });
  test("a form-encoded body is still read as JSON (curl -d without a Content-Type)", async () => {
    const r = await snap(key, JSON.stringify(page(1)), { "content-type": "application/x-www-form-urlencoded" });
    expect(r.status).toBe(200);
  });
});

test("body over the limit → 413 with the balance, no charge", async () => {
  const key = await sl.createKey(5);
  const big = { ...page(1), padding: "x".repeat(100 * 1024) };
  const e = expectError(await snap(key, big), 413, "Payload too large");
  expect(e.credits_remaining).toBe(5);
  expect(await sl.credits(key)).toBe(5);
});

test("rate limit → 429 `Rate limit exceeded` with Retry-After, per key, no charge", async () => {
  const limited = await startSightline({ config: { rateLimitPerMinute: 3 } });
  try {
    const [a, b] = [await limited.createKey(10), await limited.createKey(10)];
    const call1 = (key: string) => call(limited.origin, "/v1/snapshot", { key, body: page(1) });
    for (let i = 0; i < 3; i++) expect((await call1(a)).status).toBe(200);
    const r = await call1(a);
    const e = expectError(r, 429, "Rate limit exceeded");
    expect(e.credits_remaining).toBe(7);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(20); // 3/min refills a token every 20 s
    expect((await call1(b)).status).toBe(200); // another key has its own bucket
    expect(await limited.credits(a)).toBe(7);
  } finally {
    await limited.close();
  }
});

describe("routing", () => {
  test("unknown path → JSON 404", async () => {
    const r = await call(sl.origin, "/v2/nothing");
    expect(expectError(r, 404).error_code).toBe("not_found");
    expect(r.headers.get("content-type")).toMatch(/application\/json/);
  });
  test("wrong method → JSON 405 with Allow", async () => {
    const r = await call(sl.origin, "/v1/snapshot", { method: "GET" });
    expectError(r, 405);
    expect(r.headers.get("allow")).toContain("POST");
    expectError(await call(sl.origin, "/health", { method: "DELETE" }), 405);
  });
  test("X-Request-Id: a caller's id is echoed, otherwise one is made", async () => {
    const mine = await call(sl.origin, "/nothing", { headers: { "x-request-id": "trace-123" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-123");
    expect(mine.body.request_id).toBe("trace-123");
    const made = await call(sl.origin, "/health");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("CORS for the extension and browser callers", () => {
  test("preflight from a chrome-extension:// origin is answered without a key", async () => {
    const res = await fetch(`${sl.origin}/v1/snapshot`, {
      method: "OPTIONS",
      headers: { origin: "chrome-extension://abcdefghijklmnop", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
  test("errors carry CORS headers too, so a page can read them", async () => {
    const r = await call(sl.origin, "/v1/snapshot", { body: page(1), headers: { origin: "https://app.example" } });
    expect(r.status).toBe(401);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});

test("GET /health needs no key", async () => {
  const r = await call(sl.origin, "/health");
  expect(r.status).toBe(200);
  expect(r.body.status).toBe("ok");
});

test("logs: one structured line per request with its id; never the key or the body", async () => {
  const lines: string[] = [];
  const logged = await startSightline({ logLines: lines });
  try {
    const key = await logged.createKey(2);
    const secretText = "very-secret-page-text";
    await call(logged.origin, "/v1/snapshot", { key, body: { ...page(1), goal: secretText }, headers: { "x-request-id": "log-test-1" } });
    await call(logged.origin, "/v1/snapshot", { key: `${key}-wrong`, body: page(1), headers: { "x-request-id": "log-test-2" } });
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const first = entries.find((e) => e.req_id === "log-test-1");
    expect(first).toMatchObject({ method: "POST", path: "/v1/snapshot", msg: "request" });
    expect(typeof first?.ms).toBe("number");
    expect(typeof first?.account).toBe("string");
    expect(entries.find((e) => e.req_id === "log-test-2")).toMatchObject({ status: 401 });
    const all = lines.join("\n");
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(3, 20));
    expect(all).not.toContain(secretText);
  } finally {
    await logged.close();
  }
});
