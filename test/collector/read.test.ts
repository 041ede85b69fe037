// read(): article extraction with Readability (boilerplate out), Markdown and text formats,
// title/description, and the main-content fallback on a product listing.
import { describe, expect, it } from "vitest";
import { useFixturePage, readIn } from "./support.js";

const fx = useFixturePage();

describe("read() on an article", () => {
  it("returns GitHub-flavoured Markdown of the article without navigation or footer", async () => {
    await fx.page.goto(fx.server.url("/collector/article.html"));
    const r = await readIn(fx.page);
    expect(r.title).toBe("How tides work | Ocean Weekly");
    expect(r.description).toBe("The moon, the sun and the shape of the coast decide the tides.");
    expect(r.content).toContain("## Spring and neap tides");
    expect(r.content).toContain("**moon's gravity**");
    expect(r.content).toMatch(/^-\s+Spring tides: new and full moon$/m);
    expect(r.content).toMatch(/\| Place \| Range \(m\) \|/);
    expect(r.content).toMatch(/\| Bay of Fundy \| 16 +\|/);
    expect(r.content).not.toContain("All rights reserved");
    expect(r.content).not.toContain("About us");
    // the page itself is untouched (Readability ran on a clone)
    expect(await fx.page.locator("footer").count()).toBe(1);
  });

  it("returns plain text with paragraphs apart, and honours contentLimit", async () => {
    await fx.page.goto(fx.server.url("/collector/article.html"));
    const r = await readIn(fx.page, { format: "text" });
    expect(r.content).not.toMatch(/[#*|]/);
    expect(r.content).toMatch(/bulge, and a second bulge[\s\S]*\n\nAs the Earth turns/);
    const cut = await readIn(fx.page, { format: "text", contentLimit: 40 });
    expect(cut.content.length).toBeLessThanOrEqual(40);
  });
});

describe("read() on a product listing", () => {
  it("falls back to the main region instead of returning almost nothing", async () => {
    await fx.page.goto(fx.server.url("/collector/listing.html"));
    const r = await readIn(fx.page, { format: "text" });
    expect(r.title).toBe("Trail shoes – Summit Outfitters");
    expect(r.description).toBe("Trail running shoes for every terrain.");
    for (const product of ["Ridge Runner 3", "Scree Glide", "Fell Sprinter", "Canyon Trek GTX", "Alpine Dash", "Mesa Light"]) {
      expect(r.content).toContain(product);
    }
    expect(r.content).toContain("$149.00");
    // site navigation and footer stay out
    expect(r.content).not.toContain("Returns");
    expect(r.content).not.toContain("Women");
  });
});
