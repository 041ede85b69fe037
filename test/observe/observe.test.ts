// POST /v1/observe end to end: the real server, the real pooled Chromium, fixture pages on
// loopback (127.0.0.1 allowed for the test; everything else keeps the default policy).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ObserveResponseSchema } from "@sightline/shared/contract";
import { observeConfig } from "../../server/src/observe/index.js";
import { UrlSigner } from "../../server/src/storage/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, observe, poolStats, type Json } from "./helpers.js";

const SECRET = "observe-test-signing-secret-0123456789";
let sl: Sightline;
let site: StaticServer;
let key: string;

beforeAll(async () => {
  site = await serveStatic(FIXTURES);
  sl = await startSightline({
    config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1", signingSecret: SECRET }) },
  });
  key = await sl.createKey(1000);
});
afterAll(async () => {
  await sl?.close();
  await site?.close();
});

const byText = (els: Json[], text: string) => els.find((e) => e.text === text);

describe("read mode", () => {
  it("is the default: Markdown of the main content, title and description, 1 credit, performance engine", async () => {
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, { url: site.url("/article.html") });
    expect(status).toBe(200);
    expect(ObserveResponseSchema.parse(json)).toBeTruthy();
    expect(json).toMatchObject({
      status: "success",
      url: site.url("/article.html"),
      engine: "performance",
      title: "How lighthouses work",
      description: "A short history of lighthouse optics.",
      credits_used: 1,
      credits_remaining: before - 1,
    });
    expect(json.content).toContain("## Keepers and automation");
    expect(json.content).toContain("The Fresnel lens, invented in 1822");
    expect(json.content).not.toContain("All rights reserved");
    expect(json).not.toHaveProperty("interactable_elements");
    expect(await sl.credits(key)).toBe(before - 1);
  });

  it("says what kind of page it read (page_type), and keeps a product's price and specifications", async () => {
    const article = await observe(sl, key, { url: site.url("/article.html") });
    expect(article.json.page_type).toBe("article");
    const { status, json } = await observe(sl, key, { url: site.url("/product.html") });
    expect(status).toBe(200);
    expect(ObserveResponseSchema.parse(json).page_type).toBe("product");
    expect(json.content).toContain("€89.00");
    expect(json.content).toMatch(/\| Weight \| 1\.4 kg \|/);
    expect(json.content).not.toContain("All rights reserved");
  });

  it("returns plain text with format=text and cuts content at contentLimit", async () => {
    const { json } = await observe(sl, key, { url: site.url("/article.html"), format: "text", options: { contentLimit: 120 } });
    expect(json.status).toBe("success");
    expect(json.content).not.toContain("##");
    expect(json.content.length).toBe(120);
    expect(json.content.startsWith("Lighthouses have guided ships")).toBe(true);
  });
});

describe("read mode: JavaScript off first, on only when needed", () => {
  it("returns the article the server sent even though the page's script replaces it", async () => {
    const { json } = await observe(sl, key, { url: site.url("/script-replaces.html"), format: "text" });
    expect(json).toMatchObject({ status: "success", title: "Salt marshes" });
    expect(json.content).toContain("Cordgrass roots hold that mud");
    expect(json.content).toContain("soften storm waves");
    expect(json.content).not.toContain("Subscribe to keep reading");
  });

  it("renders an app shell again with JavaScript and returns the content its script builds", async () => {
    const before = await sl.credits(key);
    const { json } = await observe(sl, key, { url: site.url("/app-shell.html"), format: "text" });
    expect(json).toMatchObject({ status: "success", title: "Field notes", credits_used: 1 });
    expect(json.content).toContain("Sea otters keep the forests standing");
    expect(json.content).not.toContain("enable JavaScript");
    expect(await sl.credits(key)).toBe(before - 1);
  });

  it("puts a streamed page's late parts in place (React's server streaming) instead of reading its skeleton", async () => {
    // The shell alone is long enough not to call for the JavaScript pass: the parts must be
    // revealed in the scripts-off reading itself.
    const { json } = await observe(sl, key, { url: site.url("/streamed.html"), format: "text" });
    expect(json).toMatchObject({ status: "success", title: "Kelp forests" });
    const at = (s: string) => json.content.indexOf(s);
    expect(at("Kelp forests grow")).toBeGreaterThanOrEqual(0);
    expect(at("Who lives there")).toBeGreaterThan(at("Kelp forests grow"));
    expect(at("Hundreds of species")).toBeGreaterThan(at("Who lives there"));
    expect(at("Sea otters keep the forests standing")).toBeGreaterThan(at("Hundreds of species"));
    expect(json.content).not.toContain("Loading");
    expect(json.content).not.toContain("All rights reserved");
  });

  it("cuts at a small contentLimit without mistaking the cut reading for an app shell", async () => {
    const { json } = await observe(sl, key, { url: site.url("/script-replaces.html"), format: "text", options: { contentLimit: 30 } });
    expect(json.content.length).toBe(30);
    expect(json.content.startsWith("Salt marshes")).toBe(true);
  });
});

describe("navigation", () => {
  it("follows a same-origin script redirect", async () => {
    const moved = await observe(sl, key, { url: site.url("/js-redirect.html") });
    expect(moved.json).toMatchObject({ status: "success", title: "How lighthouses work" });
  });

  it("reads what the server sent when the page's script bounces itself to nowhere (JavaScript off first)", async () => {
    const { status, json } = await observe(sl, key, { url: site.url("/bounce.html"), format: "text" });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: "success", title: "Tide tables" });
    expect(json.content).toContain("High tide at the harbour mouth");
  });

  it("answers Invalid URL, uncharged, rather than mapping Chromium's error page when the page bounces itself to nowhere", async () => {
    const before = await sl.credits(key);
    const bounce = await observe(sl, key, { url: site.url("/bounce.html"), mode: "map" });
    expect(bounce.status).toBe(400);
    expect(bounce.json).toMatchObject({ status: "error", error: "Invalid URL" });
    expect(bounce.json.message).toMatch(/navigated itself/);
    expect(await sl.credits(key)).toBe(before);
  });
});

describe("map mode", () => {
  it("returns ranked elements with 0-100 importance for 2 credits, inputs above buttons above links above headings", async () => {
    const before = await sl.credits(key);
    const { json } = await observe(sl, key, { url: site.url("/form.html"), mode: "map" });
    expect(ObserveResponseSchema.parse(json)).toBeTruthy();
    expect(json).toMatchObject({ status: "success", engine: "performance", credits_used: 2, viewport: { width: 1280, height: 800 } });
    expect(await sl.credits(key)).toBe(before - 2);
    const els: Json[] = json.interactable_elements;
    const email = els.find((e) => e.role === "textbox");
    const button = byText(els, "Subscribe");
    const link = byText(els, "Home");
    const heading = els.find((e) => e.role === "heading");
    expect(email).toMatchObject({ text: "Email", in_viewport: true, is_occluded: false });
    expect(button.role).toBe("button");
    expect(email.importance).toBeGreaterThan(button.importance);
    expect(button.importance).toBeGreaterThan(link.importance);
    expect(link.importance).toBeGreaterThan(heading.importance);
    for (const e of els) {
      expect(e.importance).toBeGreaterThanOrEqual(0);
      expect(e.importance).toBeLessThanOrEqual(100);
      expect(e).not.toHaveProperty("visual_cues");
      expect(e).not.toHaveProperty("attributes");
    }
    // sorted by importance
    expect(els.map((e) => e.importance)).toEqual([...els.map((e) => e.importance)].sort((a, b) => b - a));
    expect(button.bbox.width).toBeGreaterThan(50);
  });

  it("applies filter before limit, and adds visual_cues only when asked", async () => {
    const { json } = await observe(sl, key, {
      url: site.url("/form.html"),
      mode: "map",
      options: { filter: { allowed_roles: ["link", "button"] }, limit: 2, include_visual_cues: true },
    });
    const els: Json[] = json.interactable_elements;
    expect(els).toHaveLength(2);
    expect(els.every((e) => e.role === "link" || e.role === "button")).toBe(true);
    const button = byText(els, "Subscribe");
    expect(button.visual_cues).toEqual({ background_color_name: "blue", cursor_type: "pointer", is_prominent: true });
  });

  it("uses the precision engine for 10 credits when asked; performance never fetches images", async () => {
    site.requests.length = 0;
    const perf = await observe(sl, key, { url: site.url("/form.html"), mode: "map" });
    expect(site.requests).not.toContain("/photo.png");
    const prec = await observe(sl, key, { url: site.url("/form.html"), mode: "map", options: { render_quality: "precision" } });
    expect(site.requests).toContain("/photo.png");
    expect(prec.json).toMatchObject({ engine: "precision", credits_used: 10 });
    expect(perf.json).toMatchObject({ engine: "performance", credits_used: 2 });
    expect(prec.json.interactable_elements.length).toBe(perf.json.interactable_elements.length);
  });
});

describe("visual mode", () => {
  it("inlines a PNG with base64 and gives elements their attributes, for 10 credits", async () => {
    const { json } = await observe(sl, key, { url: site.url("/form.html"), mode: "visual", options: { screenshot_delivery: "base64" } });
    expect(ObserveResponseSchema.parse(json)).toBeTruthy();
    expect(json).toMatchObject({ engine: "precision", credits_used: 10, screenshot: { type: "base64", format: "png" } });
    const png = Buffer.from(json.screenshot.data, "base64");
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(json.screenshot.size_bytes).toBe(png.length);
    expect(png.readUInt32BE(16)).toBe(1280); // IHDR width = viewport
    const email = json.interactable_elements.find((e: Json) => e.role === "textbox");
    expect(email.attributes).toMatchObject({ placeholder: "you@example.com", type: "email" });
  });

  it("encodes JPEG when asked (Sightline's screenshot_format), and refuses bad format options uncharged", async () => {
    const { json } = await observe(sl, key, { url: site.url("/form.html"), mode: "visual", options: { screenshot_delivery: "base64", screenshot_format: "jpeg", screenshot_quality: 60 } });
    expect(ObserveResponseSchema.parse(json)).toBeTruthy();
    expect(json.screenshot).toMatchObject({ type: "base64", format: "jpeg" });
    const jpeg = Buffer.from(json.screenshot.data, "base64");
    expect(jpeg.subarray(0, 3).toString("hex")).toBe("ffd8ff"); // JPEG SOI marker
    expect(json.screenshot.size_bytes).toBe(jpeg.length);

    const before = await sl.credits(key);
    for (const options of [{ screenshot_format: "gif" }, { screenshot_format: "jpeg", screenshot_quality: 101 }, { screenshot_quality: 50 }]) {
      const bad = await observe(sl, key, { url: site.url("/form.html"), mode: "visual", options });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ status: "error", error: "Invalid options" });
    }
    expect(await sl.credits(key)).toBe(before);
  });

  it("stores the image behind a signed link valid 24 h that needs no API key; tampered and expired links are refused", async () => {
    const t0 = Date.now();
    const { json } = await observe(sl, key, { url: site.url("/form.html"), mode: "visual" });
    expect(json.screenshot).toMatchObject({ type: "url", format: "png" });
    expect(json.screenshot).not.toHaveProperty("data");
    const expires = Date.parse(json.screenshot.expires_at);
    expect(expires - t0).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - t0).toBeLessThanOrEqual(24 * 3600_000 + 60_000);

    const link = new URL(json.screenshot.url);
    expect(link.origin).toBe(sl.origin);
    const ok = await fetch(link);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect((await ok.arrayBuffer()).byteLength).toBe(json.screenshot.size_bytes);

    const tampered = new URL(link);
    tampered.searchParams.set("expires", String(expires + 3600_000));
    const bad = await fetch(tampered);
    expect(bad.status).toBe(403);
    expect(await bad.json()).toMatchObject({ status: "error", error: "Invalid signature", error_code: "forbidden" });

    // A link this server signed that has run out (signed with the same secret, expiry in the past).
    const id = decodeURIComponent(link.pathname.split("/").pop()!);
    const expired = new UrlSigner(Buffer.from(SECRET)).url(sl.origin, id, Date.now() - 1000);
    const gone = await fetch(expired);
    expect(gone.status).toBe(403);
    expect(await gone.json()).toMatchObject({ status: "error", error: "Link expired" });
  });
});

describe("errors of 7.1, never charged", () => {
  it.each([
    [{ url: "not a url" }, "Invalid URL"],
    [{ url: "ftp://127.0.0.1/x" }, "Invalid URL"],
    [{ url: "http://127.0.0.1/", mode: "scan" }, "Invalid mode"],
    [{ url: "http://127.0.0.1/", mode: "map", options: { render_quality: "best" } }, "Invalid render_quality"],
  ])("%j → 400 %s", async (body, error) => {
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, body);
    expect(status).toBe(400);
    expect(json).toMatchObject({ status: "error", error, error_code: "bad_request" });
    expect(json.message).toMatch(new RegExp(`^${error}: `));
    expect(await sl.credits(key)).toBe(before);
  });

  it("402 Insufficient credits when the mode costs more than the balance; nothing is rendered", async () => {
    const poor = await sl.createKey(5);
    site.requests.length = 0;
    const { status, json } = await observe(sl, poor, { url: site.url("/form.html"), mode: "visual" });
    expect(status).toBe(402);
    expect(json).toMatchObject({ error: "Insufficient credits", credits_remaining: 5 });
    expect(site.requests).toEqual([]);
    expect(await sl.credits(poor)).toBe(5);
  });

  it("a page that cannot be loaded is Invalid URL and costs nothing", async () => {
    const closed = await serveStatic(FIXTURES);
    const url = closed.url("/gone.html");
    await closed.close();
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, { url, mode: "map" });
    expect(status).toBe(400);
    expect(json.error).toBe("Invalid URL");
    expect(json.message).toMatch(/could not be reached|could not be loaded/);
    expect(await sl.credits(key)).toBe(before);
  });

  it("429 Rate limit exceeded with the observe error body, uncharged", async () => {
    const limited = await startSightline({ config: { rateLimitPerMinute: 1 } });
    try {
      const k = await limited.createKey(10);
      await observe(limited, k, { url: "http://127.0.0.1/", mode: "scan" }); // takes the one token
      const { status, headers, json } = await observe(limited, k, { url: site.url("/article.html") });
      expect(status).toBe(429);
      expect(json).toMatchObject({ status: "error", error: "Rate limit exceeded", error_code: "rate_limited", credits_remaining: 10 });
      expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it("leaves no context or page open after all of the above", () => {
    expect(poolStats(sl)).toMatchObject({ running: 0, queued: 0, openContexts: 0, openPages: 0, launches: 1 });
    // Requests after the first of their kind started on a spare; at most SIGHTLINE_BROWSER_SPARES
    // (2) are held (three kinds were asked for here: read, map, precision map).
    expect(poolStats(sl).spareUses).toBeGreaterThan(0);
    expect(poolStats(sl).spareContexts).toBeLessThanOrEqual(2);
  });
});
