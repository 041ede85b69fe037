// The egress proxy beyond loopback (remote browsers reach it over the network) asks for its
// own random credentials, so nobody else on that network can use it as a proxy.
import { createServer } from "node:http";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { parseAllowList, startEgressProxy } from "../../src/net/index.js";

let origin: ReturnType<typeof createServer>;
let port = 0;
beforeAll(async () => {
  origin = createServer((_req, res) => res.end("hello"));
  await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
  port = (origin.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => origin.close(() => r())));

const viaProxy = (proxy: string, auth?: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const u = new URL(proxy);
    const req = request({ host: u.hostname, port: u.port, path: `http://127.0.0.1:${port}/`, headers: auth ? { "proxy-authorization": auth } : {} }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });

test("a proxy with credentials refuses requests without them (407) and forwards those with them", async () => {
  const proxy = await startEgressProxy(parseAllowList("127.0.0.1"), { auth: true });
  try {
    expect(proxy.credentials).not.toBeNull();
    expect((await viaProxy(proxy.server)).status).toBe(407);
    expect((await viaProxy(proxy.server, "Basic c2lnaHRsaW5lOndyb25n")).status).toBe(407);
    const { username, password } = proxy.credentials!;
    const ok = await viaProxy(proxy.server, `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`);
    expect(ok).toEqual({ status: 200, body: "hello" });
    expect(proxy.forwarded).toBe(1);
  } finally {
    await proxy.close();
  }
});

test("on loopback (browsers on this machine) no credentials are needed", async () => {
  const proxy = await startEgressProxy(parseAllowList("127.0.0.1"));
  try {
    expect(proxy.credentials).toBeNull();
    expect((await viaProxy(proxy.server)).status).toBe(200);
  } finally {
    await proxy.close();
  }
});
