// The egress proxy in front of a real Chromium context: with only 127.0.0.1 allowed, nothing
// on 127.0.0.2, `localhost` or [::1] (all loopback) is ever requested: not as a redirect hop,
// not as a subresource, not over fetch, WebSocket or an HTTPS tunnel.
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { parseAllowList, startEgressProxy, REFUSED_HEADER, type EgressProxy } from "@sightline/shared/net";

let browser: Browser;
let allowed: StaticServer; // 127.0.0.1: allowed
let refused: StaticServer; // 127.0.0.2: loopback, refused
let rawHits = 0;
let raw: Server; // a bare TCP listener on 127.0.0.2 (for tunnels)
let proxy: EgressProxy;
let context: BrowserContext;

beforeAll(async () => {
  refused = await serveStatic(new URL("./fixtures", import.meta.url).pathname, [], "127.0.0.2");
  allowed = await serveStatic(new URL("./fixtures", import.meta.url).pathname, [
    (req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      if (u.pathname === "/redirect-out") {
        res.writeHead(302, { location: refused.url("/target.html") }).end();
        return true;
      }
      if (u.pathname === "/leaky.html") {
        const port = new URL(allowed.origin).port;
        res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>leaky</title>
          <img src="${refused.url("/pixel.png")}">
          <link rel="stylesheet" href="http://localhost:${port}/via-localhost.css">
          <script src="${allowed.url("/fine.js")}"></script>
          <p>body</p>`);
        return true;
      }
      if (u.pathname === "/fine.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end("window.fine = 1;");
        return true;
      }
      return false;
    },
  ]);
  raw = createServer((s) => {
    rawHits++;
    s.destroy();
  });
  await new Promise<void>((r) => raw.listen(0, "127.0.0.2", r));
  browser = await launchChromium();
  proxy = await startEgressProxy(parseAllowList("127.0.0.1"));
  context = await browser.newContext({ proxy: { server: proxy.server } });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await proxy?.close();
  await allowed?.close();
  await refused?.close();
  raw?.close();
});

describe("egress proxy", () => {
  it("loads an allowed page but never requests its subresources on refused loopback hosts", async () => {
    const page = await context.newPage();
    const res = await page.goto(allowed.url("/leaky.html"), { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    expect(await page.evaluate("window.fine")).toBe(1);
    expect(allowed.requests).toContain("/fine.js");
    expect(allowed.requests).not.toContain("/via-localhost.css");
    expect(refused.requests).toEqual([]);
    expect(proxy.refusals.map((r) => r.message)).toEqual(
      expect.arrayContaining(["127.0.0.2: 127.0.0.2 is a loopback address", "localhost is a loopback name"]),
    );
    await page.close();
  });

  it("stops a redirect from an allowed page to a refused address", async () => {
    const page = await context.newPage();
    const res = await page.goto(allowed.url("/redirect-out"));
    expect(res?.status()).toBe(403);
    expect(res?.headers()[REFUSED_HEADER]).toBe("private");
    expect(res?.url()).toBe(refused.url("/target.html"));
    expect(refused.requests).toEqual([]);
    await page.close();
  });

  it("refuses fetch to [::1], WebSockets and HTTPS tunnels to refused hosts", async () => {
    const page = await context.newPage();
    await page.goto(allowed.url("/index.html"));
    const port = (raw.address() as AddressInfo).port;
    const results = await page.evaluate(`(async () => {
      const ws = await new Promise((res) => { const w = new WebSocket("ws://127.0.0.2:${port}/"); w.onopen = () => res("open"); w.onerror = () => res("error"); });
      const f6 = await fetch("http://[::1]:${port}/").then((r) => r.status, () => "failed");
      const tls = await fetch("https://127.0.0.2:${port}/").then((r) => r.status, () => "failed");
      const compat = await fetch("http://[::127.0.0.2]:${port}/").then((r) => r.status, () => "failed");
      return [ws, f6, tls, compat];
    })()`);
    expect(results).toEqual(["error", "failed", "failed", "failed"]);
    expect(rawHits).toBe(0);
    const targets = proxy.refusals.map((r) => r.target);
    expect(targets).toContain(`[::1]:${port}`);
    expect(targets).toContain(`127.0.0.2:${port}`);
    // IPv4-compatible IPv6 is refused by the policy, not merely unreachable
    expect(proxy.refusals.find((r) => r.target === `[::7f00:2]:${port}`)).toMatchObject({
      reason: "private",
      message: "[::7f00:2]: ::7f00:2 is a loopback address (127.0.0.2 in IPv4-compatible IPv6)",
    });
    await page.close();
  });
});
