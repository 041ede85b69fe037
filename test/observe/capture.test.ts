// `capture`, Sightline's extension of the contract: observe a page the caller already has
// (the browser extension's tab). Nothing is fetched from the page's origin.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, observe, type Json } from "./helpers.js";

let sl: Sightline;
let site: StaticServer; // stands for the page's origin; must never be contacted
let key: string;

beforeAll(async () => {
  site = await serveStatic(FIXTURES);
  // Even with the origin allowed, a capture must not fetch from it.
  sl = await startSightline({ config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1" }) } });
  key = await sl.createKey(1000);
});
afterAll(async () => {
  await sl?.close();
  await site?.close();
});

const raw = [
  { id: 1, tag: "input", rect: { x: 10, y: 10, width: 200, height: 30 }, attributes: { input_type: "search", placeholder: "Search flights", aria_label: "Search" }, text: "", in_viewport: true, is_occluded: false },
  { id: 2, tag: "button", rect: { x: 220, y: 10, width: 80, height: 30 }, attributes: {}, text: "Go", in_viewport: true, is_occluded: false, styles: { cursor: "pointer", background_color: "rgb(0, 100, 255)" } },
  { id: 3, tag: "a", rect: { x: 10, y: 60, width: 60, height: 18 }, attributes: { href: "https://intranet.example/help" }, text: "Help", in_viewport: true, is_occluded: false },
];

describe("capture", () => {
  it("read: returns the caller's content as given (cut at contentLimit), engine capture, 1 credit", async () => {
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, {
      url: "https://intranet.example/report",
      capture: { title: "Quarterly report", description: "Numbers", content: "# Report\n\nRevenue grew." },
      options: { contentLimit: 10 },
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ engine: "capture", credits_used: 1, title: "Quarterly report", description: "Numbers", content: "# Report\n\n" });
    expect(json).not.toHaveProperty("page_type"); // the caller's own content: nothing was read
    expect(await sl.credits(key)).toBe(before - 1);
  });

  it("read: extracts from the caller's HTML with scripts off and no request to the page's origin", async () => {
    site.requests.length = 0;
    const html = (await readFile(`${FIXTURES}/article.html`, "utf8")).replace(
      "</body>",
      `<img src="${site.url("/photo.png")}"><script>document.title = "changed by script"</script></body>`,
    );
    const { json } = await observe(sl, key, { url: site.url("/article.html"), capture: { html } });
    expect(json).toMatchObject({ status: "success", engine: "capture", title: "How lighthouses work" });
    expect(json.content).toContain("The Fresnel lens, invented in 1822");
    expect(site.requests).toEqual([]);
  });

  it("map: refines the caller's raw elements (limit applies), engine capture, 2 credits", async () => {
    const { json } = await observe(sl, key, { url: "https://intranet.example/", mode: "map", capture: { raw_elements: raw, viewport: { width: 800, height: 600 } }, options: { limit: 2 } });
    expect(json).toMatchObject({ status: "success", engine: "capture", credits_used: 2, viewport: { width: 800, height: 600 } });
    const els: Json[] = json.interactable_elements;
    expect(els).toHaveLength(2);
    expect(els[0]).toMatchObject({ id: 1, role: "searchbox" });
    expect(els[1]).toMatchObject({ id: 2, role: "button", text: "Go" });
  });

  it("map: lays out the caller's HTML and collects it when no raw elements are given", async () => {
    site.requests.length = 0;
    const html = await readFile(`${FIXTURES}/form.html`, "utf8");
    const { json } = await observe(sl, key, { url: site.url("/form.html"), mode: "map", capture: { html } });
    expect(json.engine).toBe("capture");
    expect(json.interactable_elements.map((e: Json) => e.text)).toEqual(expect.arrayContaining(["Email", "Subscribe", "Home"]));
    expect(site.requests).toEqual([]);
  });

  it("visual: returns the caller's screenshot with the refined elements and their attributes, 10 credits", async () => {
    const png = await readFile(`${FIXTURES}/photo.png`);
    const { json } = await observe(sl, key, {
      url: "https://intranet.example/",
      mode: "visual",
      capture: { raw_elements: raw, screenshot: { format: "png", data: png.toString("base64") } },
      options: { screenshot_delivery: "base64" },
    });
    expect(json).toMatchObject({ engine: "capture", credits_used: 10, screenshot: { type: "base64", format: "png", size_bytes: png.length, data: png.toString("base64") } });
    expect(json.interactable_elements[0].attributes).toMatchObject({ placeholder: "Search flights", type: "search" });
  });

  it("refuses a capture that lacks what the mode needs, uncharged", async () => {
    const before = await sl.credits(key);
    const cases = [
      { url: "https://intranet.example/", capture: { title: "only a title" } },
      { url: "https://intranet.example/", mode: "map", capture: { content: "text" } },
      { url: "https://intranet.example/", mode: "visual", capture: { raw_elements: raw } },
      { url: "https://intranet.example/", mode: "visual", capture: { raw_elements: raw, screenshot: { format: "png", data: "not base64!" } } },
    ];
    for (const body of cases) {
      const { status, json } = await observe(sl, key, body);
      expect(status).toBe(400);
      expect(json).toMatchObject({ status: "error", error: "Invalid field" });
      expect(json.message).toMatch(/^Invalid field: capture /);
    }
    expect(await sl.credits(key)).toBe(before);
  });
});
