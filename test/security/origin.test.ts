// Item 9 of issue 30: a hostile web origin on the person's machine. A request whose Host is not
// one of the server's names (DNS rebinding: evil.example resolved to 127.0.0.1) is refused 421;
// a browser page may not use /mcp unless its origin is configured; CORS still serves the
// extension's panel on the REST API and exposes Mcp-Session-Id where it applies; screenshot
// links are built from configuration, never from the Host header; the ledger is mode 0600.
import { request as httpRequest } from "node:http";
import { chmod, stat, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ErrorBodySchema } from "@sightline/shared/contract";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { loadConfig } from "@sightline/server";
import { EXTENSION_ORIGIN, wsUrl } from "./fake-extension.js";

/** A request with headers fetch() will not send (Host). */
function raw(origin: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const u = new URL(origin);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: Number(u.port), path, method: opts.method ?? (opts.body ? "POST" : "GET"), headers: { ...opts.headers, ...(opts.body ? { "content-type": "application/json" } : {}) } },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});
const mcpHeaders = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, accept: "application/json, text/event-stream", ...extra });

// A 1×1 PNG, for a visual observe of a capture (no browser needed).
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const visualCapture = JSON.stringify({
  url: "https://shop.example/",
  mode: "visual",
  capture: { screenshot: { format: "png", data: PNG }, raw_elements: [{ id: 1, tag: "button", text: "Buy", rect: { x: 1, y: 1, width: 50, height: 20 } }] },
});

describe("Host", () => {
  let sl: Sightline;
  let key: string;
  let port: string;
  beforeAll(async () => {
    sl = await startSightline({ config: { allowedHosts: ["sightline.test", ".corp.example"] } });
    key = await sl.createKey(10);
    port = new URL(sl.origin).port;
  });
  afterAll(() => sl?.close());

  it("refuses Host: evil.example with 421 in the contract's shape, on /ready, the API and /mcp", async () => {
    for (const [path, init] of [
      ["/ready", {}],
      ["/v1/snapshot", { body: JSON.stringify({ url: "https://a.example/", raw_elements: [] }), headers: { authorization: `Bearer ${key}` } }],
      ["/mcp", { body: initialize, headers: mcpHeaders(key) }],
      ["/openapi.json", {}],
    ] as const) {
      const r = await raw(sl.origin, path, { ...init, headers: { ...init.headers, host: `evil.example:${port}` } });
      expect(r.status, path).toBe(421);
      const body = ErrorBodySchema.parse(JSON.parse(r.body));
      expect(body).toMatchObject({ status: "error", error: "Misdirected request", error_code: "misdirected_request" });
    }
    // Nothing was charged, no session was opened, and the browser was not launched by /ready.
    expect(await sl.credits(key)).toBe(10);
    expect(sl.server.browsers.stats().launches).toBe(0);
  });

  it("answers the loopback names with the port, the configured names, and /health whatever the Host", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST.:${port}`, `sightline.test:${port}`, "sightline.test", `wiki.corp.example:${port}`]) {
      expect((await raw(sl.origin, "/openapi.json", { headers: { host } })).status, host).toBe(200);
    }
    for (const host of [`localhost:${Number(port) + 1}`, "localhost", "corp.example", "127.0.0.2", `sightline.test.evil.example:${port}`]) {
      expect((await raw(sl.origin, "/openapi.json", { headers: { host } })).status, host).toBe(421);
    }
    expect((await raw(sl.origin, "/health", { headers: { host: "evil.example" } })).status).toBe(200);
  });

  it("refuses the bridge's WebSocket upgrade for Host: evil.example", async () => {
    const ws = new WebSocket(wsUrl(sl.origin), { origin: EXTENSION_ORIGIN, headers: { host: `evil.example:${port}` } });
    const status = await new Promise<number>((resolve) => {
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => undefined);
    });
    expect(status).toBe(421);
  });

  it("refuses to start on every interface without SIGHTLINE_PUBLIC_URL, and allows that URL's host", async () => {
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/HOST=0.0.0.0 listens on every interface: set SIGHTLINE_PUBLIC_URL/);
    expect(() => loadConfig({ HOST: "::" })).toThrow(/SIGHTLINE_PUBLIC_URL/);
    const pub = await startSightline({ env: { SIGHTLINE_PUBLIC_URL: "https://api.example.com" } });
    try {
      expect((await raw(pub.origin, "/openapi.json", { headers: { host: "api.example.com" } })).status).toBe(200);
      expect((await raw(pub.origin, "/openapi.json", { headers: { host: "api.example.com:443" } })).status).toBe(200);
      expect((await raw(pub.origin, "/openapi.json", { headers: { host: "api.example.com:8443" } })).status).toBe(421);
    } finally {
      await pub.close();
    }
  });
});

describe("Origin and CORS", () => {
  let sl: Sightline;
  let key: string;
  beforeAll(async () => {
    sl = await startSightline({ env: { SIGHTLINE_ALLOWED_ORIGINS: "http://app.example" } });
    key = await sl.createKey(10);
  });
  afterAll(() => sl?.close());

  it("refuses POST /mcp from Origin: http://evil.example (403, a JSON-RPC error), before the key is checked", async () => {
    const r = await raw(sl.origin, "/mcp", { body: initialize, headers: mcpHeaders(key, { origin: "http://evil.example" }) });
    expect(r.status).toBe(403);
    const body = JSON.parse(r.body) as { jsonrpc: string; error: { message: string; data: { error_code: string } } };
    expect(body.jsonrpc).toBe("2.0");
    expect(body.error.data.error_code).toBe("forbidden");
    expect(body.error.message).toMatch(/Origin not allowed: http:\/\/evil\.example may not use \/mcp/);
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    expect(r.headers["mcp-session-id"]).toBeUndefined();
    // The extension is not an MCP client either; its preflight is refused too.
    const pre = await raw(sl.origin, "/mcp", { method: "OPTIONS", headers: { origin: EXTENSION_ORIGIN, "access-control-request-method": "POST" } });
    expect(pre.status).toBe(403);
    expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("serves a configured origin on /mcp and exposes Mcp-Session-Id to it", async () => {
    const pre = await raw(sl.origin, "/mcp", {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "DELETE", "access-control-request-headers": "authorization, mcp-session-id" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("http://app.example");
    expect(String(pre.headers["access-control-allow-methods"])).toMatch(/DELETE/);
    const r = await raw(sl.origin, "/mcp", { body: initialize, headers: mcpHeaders(key, { origin: "http://app.example" }) });
    expect(r.status).toBe(200);
    expect(r.headers["mcp-session-id"]).toBeTruthy();
    expect(r.headers["access-control-allow-origin"]).toBe("http://app.example");
    expect(String(r.headers["access-control-expose-headers"]).split(/,\s*/)).toContain("Mcp-Session-Id");
  });

  it("keeps CORS on the REST API for the extension's panel", async () => {
    const pre = await raw(sl.origin, "/v1/snapshot", {
      method: "OPTIONS",
      headers: { origin: EXTENSION_ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    const r = await raw(sl.origin, "/v1/snapshot", {
      body: JSON.stringify({ url: "https://a.example/", raw_elements: [] }),
      headers: { origin: EXTENSION_ORIGIN, authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("screenshot links", () => {
  it("are built from the listen address, not from a forged Host header", async () => {
    // Host checks off, so the forged Host gets through to the route.
    const sl = await startSightline({ config: { allowedHosts: ["*"] } });
    try {
      const key = await sl.createKey(20);
      const r = await raw(sl.origin, "/v1/observe", { body: visualCapture, headers: { authorization: `Bearer ${key}`, host: "evil.example" } });
      expect(r.status, r.body).toBe(200);
      const url = (JSON.parse(r.body) as { screenshot: { url: string } }).screenshot.url;
      expect(url.startsWith(`${sl.origin}/v1/screenshots/`), url).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      await sl.close();
    }
  });

  it("are built from SIGHTLINE_PUBLIC_URL when it is set", async () => {
    const sl = await startSightline({ env: { SIGHTLINE_PUBLIC_URL: "https://api.example.com/" } });
    try {
      const key = await sl.createKey(20);
      const r = await raw(sl.origin, "/v1/observe", { body: visualCapture, headers: { authorization: `Bearer ${key}`, host: "api.example.com" } });
      expect(r.status, r.body).toBe(200);
      expect((JSON.parse(r.body) as { screenshot: { url: string } }).screenshot.url).toMatch(/^https:\/\/api\.example\.com\/v1\/screenshots\//);
    } finally {
      await sl.close();
    }
  });
});

describe("files in the data dir", () => {
  it("writes ledger.json and its journal mode 0600, and tightens a ledger an older version left 0644", async () => {
    const sl = await startSightline();
    try {
      const key = await sl.createKey(5);
      await fetch(`${sl.origin}/v1/snapshot`, { method: "POST", headers: sl.headers(key), body: JSON.stringify({ url: "https://a.example/", raw_elements: [] }) });
      await sl.server.ledger.flush();
      expect((await stat(join(sl.dataDir, "ledger.json"))).mode & 0o777).toBe(0o600);
      expect((await stat(join(sl.dataDir, "ledger.json.journal"))).mode & 0o777).toBe(0o600);
    } finally {
      await sl.close();
    }
    const dir = await mkdtemp(join(tmpdir(), "sightline-old-"));
    try {
      await writeFile(join(dir, "ledger.json"), JSON.stringify({ version: 1, rev: 1, accounts: [] }));
      await chmod(join(dir, "ledger.json"), 0o644);
      const old = await startSightline({ dataDir: dir });
      await old.createKey(1);
      await old.close();
      expect((await stat(join(dir, "ledger.json"))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
