// Server-side request forgery through /v1/observe, with loopback addresses only: 127.0.0.1 is
// allowed for the test, and every other spelling of loopback must be refused — on the first
// URL, on a redirect hop and on a subresource — without a single request reaching it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, observe } from "./helpers.js";

let sl: Sightline;
let strict: Sightline; // default policy: no private host at all
let site: StaticServer; // 127.0.0.1, allowed
let other: StaticServer; // 127.0.0.2, loopback, refused
let key: string;

beforeAll(async () => {
  other = await serveStatic(FIXTURES, [], "127.0.0.2");
  site = await serveStatic(FIXTURES, [
    (req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/redirect-out") {
        res.writeHead(302, { location: other.url("/article.html") }).end();
        return true;
      }
      if (path === "/redirect-in") {
        res.writeHead(302, { location: "/article.html" }).end();
        return true;
      }
      if (path === "/leaky.html") {
        const port = new URL(site.origin).port;
        res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Leaky</title>
          <link rel="stylesheet" href="http://localhost:${port}/via-localhost.css">
          <script src="${other.url("/script.js")}"></script>
          <iframe src="http://[::1]:${port}/framed.html"></iframe>
          <img src="${other.url("/photo.png")}">
          <img src="/photo.png">
          <button onclick="fetch('${other.url("/fetched")}')">Go</button>
          <script>fetch("${other.url("/xhr")}").catch(() => {});</script>`);
        return true;
      }
      return false;
    },
  ]);
  sl = await startSightline({ config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1" }) } });
  strict = await startSightline();
  key = await sl.createKey(1000);
});
afterAll(async () => {
  await sl?.close();
  await strict?.close();
  await site?.close();
  await other?.close();
});

describe("the first URL", () => {
  const port = () => new URL(site.origin).port;
  it.each([
    ["127.0.0.2", () => other.url("/article.html"), /127\.0\.0\.2 is a loopback address/],
    ["localhost", () => `http://localhost:${port()}/article.html`, /localhost is a loopback name/],
    ["[::1]", () => `http://[::1]:${port()}/article.html`, /::1 is a loopback address/],
    ["[::ffff:127.0.0.1]", () => `http://[::ffff:127.0.0.1]:${port()}/article.html`, /loopback address \(127\.0\.0\.1 in IPv4-mapped IPv6\)/],
    // IPv4-compatible IPv6 (::/96): the URL parser writes it as [::7f00:1]
    ["[::127.0.0.1]", () => `http://[::127.0.0.1]:${port()}/article.html`, /::7f00:1 is a loopback address \(127\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["2130706433", () => `http://2130706433:${port()}/article.html`, /non-canonical spelling of 127\.0\.0\.1/],
    ["0x7f000001", () => `http://0x7f000001:${port()}/article.html`, /non-canonical spelling of 127\.0\.0\.1/],
    ["127.1", () => `http://127.1:${port()}/article.html`, /non-canonical spelling of 127\.0\.0\.1/],
  ])("refuses %s with Invalid URL, uncharged and unrequested", async (_name, url, why) => {
    site.requests.length = 0;
    other.requests.length = 0;
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, { url: url(), mode: "map" });
    expect(status).toBe(400);
    expect(json).toMatchObject({ status: "error", error: "Invalid URL", error_code: "bad_request" });
    expect(json.message).toMatch(why);
    expect(json.message).toMatch(/SIGHTLINE_ALLOW_PRIVATE_HOSTS/);
    expect(site.requests).toEqual([]);
    expect(other.requests).toEqual([]);
    expect(await sl.credits(key)).toBe(before);
  });

  it.each([
    ["http://[::169.254.169.254]/latest/meta-data/", /::a9fe:a9fe is a link-local \(cloud metadata\) address \(169\.254\.169\.254 in IPv4-compatible IPv6\)/],
    ["http://[::10.0.0.1]/", /::a00:1 is a private \(RFC 1918\) address \(10\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["http://[64:ff9b::169.254.169.254]/", /link-local \(cloud metadata\) address \(169\.254\.169\.254 in NAT64 IPv6\)/],
    ["http://[2002:a9fe:a9fe::]/", /link-local \(cloud metadata\) address \(169\.254\.169\.254 in 6to4 IPv6\)/],
  ])("refuses %s under the default policy before connecting", async (url, why) => {
    const k = await strict.createKey(10);
    const { status, json } = await observe(strict, k, { url });
    expect(status).toBe(400);
    expect(json.error).toBe("Invalid URL");
    expect(json.message).toMatch(why);
    expect(await strict.credits(k)).toBe(10);
  });

  it("refuses even 127.0.0.1 under the default policy", async () => {
    const k = await strict.createKey(10);
    const { status, json } = await observe(strict, k, { url: site.url("/article.html") });
    expect(status).toBe(400);
    expect(json.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(await strict.credits(k)).toBe(10);
  });
});

describe("after the first URL", () => {
  it("follows a redirect within allowed hosts", async () => {
    const { json } = await observe(sl, key, { url: site.url("/redirect-in") });
    expect(json).toMatchObject({ status: "success", title: "How lighthouses work" });
  });

  it("stops a redirect from an allowed page to a refused address: Invalid URL, uncharged, never requested", async () => {
    other.requests.length = 0;
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, { url: site.url("/redirect-out") });
    expect(status).toBe(400);
    expect(json.error).toBe("Invalid URL");
    expect(json.message).toContain(`the page redirected to ${other.url("/article.html")}`);
    expect(other.requests).toEqual([]);
    expect(await sl.credits(key)).toBe(before);
  });

  it("renders a page but never requests its subresources, frames or fetches on refused addresses", async () => {
    site.requests.length = 0;
    other.requests.length = 0;
    const { status, json } = await observe(sl, key, { url: site.url("/leaky.html"), mode: "map", options: { render_quality: "precision" } });
    expect(status).toBe(200);
    expect(json.interactable_elements.some((e: { text: string }) => e.text === "Go")).toBe(true);
    // the allowed host gets its requests (the control), the refused ones get none
    expect(site.requests).toEqual(expect.arrayContaining(["/leaky.html", "/photo.png"]));
    expect(site.requests).not.toContain("/via-localhost.css");
    expect(site.requests).not.toContain("/framed.html");
    expect(other.requests).toEqual([]);
  });
});
