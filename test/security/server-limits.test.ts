// Item 7 of issue 30, the limits an account or an unauthenticated client runs into: open MCP
// sessions per account (the oldest idle one is closed for a new one; when all have a call
// running the new one is refused with a clear 429), and failed authentications per client
// (401s and failed bridge hellos), past which the client gets 429 in the contract's shape.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBodySchema } from "@sightline/shared/contract";
import type { AgentBackend } from "@sightline/shared/agent";
import { CLOSE } from "@sightline/shared/bridge";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { httpClient, type McpClient } from "../agent/mcp-client.js";
import { connectExtension, until } from "./fake-extension.js";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};

describe("open MCP sessions per account", () => {
  let sl: Sightline;
  let key: string;
  // The person's browser: one tab; `wait` holds until the test lets it go (a call in flight).
  let letGo: () => void = () => undefined;
  let held = new Promise<void>((r) => (letGo = r));
  let waiting = 0;
  const backend: AgentBackend = {
    tabs: async () => [{ tab: "t1", url: "https://example.test/", title: "Example", active: true }],
    capture: () => Promise.reject(new Error("not used")),
    read: () => Promise.reject(new Error("not used")),
    screenshot: () => Promise.reject(new Error("not used")),
    act: () => Promise.reject(new Error("not used")),
    wait: async () => {
      waiting++;
      await held;
      waiting--;
      return true;
    },
  };
  const clients: McpClient[] = [];

  beforeAll(async () => {
    sl = await startSightline({
      config: { mcpSessionsPerAccount: 2 },
      bridge: { backendFor: () => backend, release: () => undefined, close: async () => undefined },
    });
    key = await sl.createKey(10);
  });
  afterAll(async () => {
    letGo();
    for (const c of clients) await c.close().catch(() => undefined);
    await sl?.close();
  });

  const open = async () => {
    const c = await httpClient(sl.origin, key);
    clients.push(c);
    return c;
  };

  it("closes the account's least recently used idle session when a new one would pass the limit", async () => {
    const first = await open();
    const second = await open();
    expect((await first.call("tabs")).isError).toBeFalsy();
    expect((await second.call("tabs")).isError).toBeFalsy();
    const third = await open(); // first is the least recently used: it goes
    expect((await third.call("tabs")).isError).toBeFalsy();
    expect((await second.call("tabs")).isError).toBeFalsy();
    const gone = await first.call("tabs").then(() => "answered", (e: Error) => e.message);
    expect(gone).toMatch(/Session not found/);
  });

  it("refuses a new session with a clear 429 JSON-RPC error while every open one has a call running", async () => {
    held = new Promise<void>((r) => (letGo = r));
    const [, a, b] = clients;
    const running = [a.call("wait", { text: "never" }), b.call("wait", { text: "never" })];
    await until(() => waiting === 2); // both calls are running in the server
    const res = await fetch(`${sl.origin}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string; data: { error_code: string } } };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.data.error_code).toBe("rate_limited");
    expect(body.error.message).toMatch(/already has 2 MCP sessions open, each with a call running/);
    letGo();
    for (const r of await Promise.all(running)) expect(r.isError).toBeFalsy();
    // Idle again: a new session is opened (closing the oldest idle one).
    expect((await (await open()).call("tabs")).isError).toBeFalsy();
  });
});

describe("failed authentication per client", () => {
  let sl: Sightline;
  let key: string;
  beforeAll(async () => {
    sl = await startSightline({ config: { authFailuresPerMinute: 5 } });
    key = await sl.createKey(10);
  });
  afterAll(() => sl?.close());

  const snapshot = (k: string, origin?: string) =>
    fetch(`${sl.origin}/v1/snapshot`, {
      method: "POST",
      headers: { ...sl.headers(k), ...(origin ? { origin } : {}) },
      body: JSON.stringify({ url: "https://a.example/", raw_elements: [] }),
    });

  it("answers a 401 flood with 429 in the contract's error shape, before looking at the key", async () => {
    const evil = "http://evil.example";
    for (let i = 0; i < 5; i++) expect((await snapshot(`sl_guess${i}`, evil)).status).toBe(401);
    const refused = await snapshot("sl_guess5", evil);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    const body = ErrorBodySchema.parse(await refused.json());
    expect(body).toMatchObject({ status: "error", error_code: "rate_limited" });
    expect(body.error).toMatch(/^Rate limit exceeded: too many failed authentication attempts from this client; retry in \d+ s$/);
    expect(body.request_id).toBe(refused.headers.get("x-request-id"));
    // Locked out: even a valid key is not looked at from this client until the bucket refills.
    expect((await snapshot(key, evil)).status).toBe(429);
    // A web page cannot reach /mcp's key check at all (its Origin is refused first, uncounted).
    const page = await fetch(`${sl.origin}/mcp`, { method: "POST", headers: { authorization: "Bearer sl_x", "content-type": "application/json", origin: evil }, body: "{}" });
    expect(page.status).toBe(403);
  });

  it("does not lock out the person's own tools on the same loopback address (a web page cannot choose its Origin)", async () => {
    expect((await snapshot(key)).status).toBe(200); // the agent: no Origin
    expect((await snapshot(key, "chrome-extension://abcdefghijklmnop")).status).toBe(200); // the panel
  });

  it("counts /mcp's 401s with the REST API's, per client (here another loopback address)", async () => {
    // 127.0.0.2 is loopback too: a client of its own, so the agent on 127.0.0.1 is untouched.
    const from2 = (path: string, k: string, body: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(sl.origin);
        const req = httpRequest(
          { host: u.hostname, port: Number(u.port), path, method: "POST", localAddress: "127.0.0.2", headers: { authorization: `Bearer ${k}`, "content-type": "application/json", accept: "application/json, text/event-stream" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    for (let i = 0; i < 5; i++) expect(await from2("/mcp", `sl_mcp${i}`, "{}")).toBe(401);
    expect(await from2("/v1/snapshot", key, JSON.stringify({ url: "https://a.example/", raw_elements: [] }))).toBe(429);
    expect((await snapshot(key)).status).toBe(200);
  });

  it("counts failed bridge hellos too, and then closes 4429 before looking at the key", async () => {
    const origin = "chrome-extension://zzzzzzzzzzzzzzzz";
    for (let i = 0; i < 5; i++) expect((await connectExtension(sl.origin, `sl_bad${i}`, { origin }).closed).code).toBe(CLOSE.unauthorized);
    const locked = await connectExtension(sl.origin, key, { origin }).closed;
    expect(locked.code).toBe(CLOSE.rateLimited);
    expect(locked.reason).toMatch(/too many failed attempts from this client; retry in \d+ s/);
    expect((await snapshot(key, origin)).status).toBe(429); // the same client on the REST API
  });
});
