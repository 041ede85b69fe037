// read(): article extraction with Readability (boilerplate out), Markdown and text formats,
// title/description, and the main-content fallback on a product listing.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { collectorBundle, useFixturePage, readIn } from "./support.js";

const fx = useFixturePage();

/** Opens a fixture page and reads it. */
async function readFixture(path: string, options: Record<string, unknown> = {}) {
  await fx.page.goto(fx.server.url(path));
  return readIn(fx.page, options);
}

describe("read() on an article", () => {
  it("returns GitHub-flavoured Markdown of the article without navigation or footer", async () => {
    const r = await readFixture("/collector/article.html");
    expect(r.title).toBe("How tides work"); // the headline, not the site name
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
    const r = await readFixture("/collector/article.html", { format: "text" });
    expect(r.content).not.toMatch(/[#*|]/);
    expect(r.content).toMatch(/bulge, and a second bulge[\s\S]*\n\nAs the Earth turns/);
    const cut = await readIn(fx.page, { format: "text", contentLimit: 40 });
    expect(cut.content.length).toBeLessThanOrEqual(40);
  });
});

describe("read() on a product listing", () => {
  it("falls back to the main region instead of returning almost nothing", async () => {
    const r = await readFixture("/collector/listing.html", { format: "text" });
    // Undeclared: a run of like cards, each with a link, holds most of the main region.
    expect(r.page_type).toBe("listing");
    expect(r.title).toBe("Trail shoes – Summit Outfitters"); // the h1 is not in the document title: Readability's title
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

// Real-world markup styles, written for these tests: what a reader would notice on each.
describe("read() keeps the story and drops what the live page overlays or surrounds it with", () => {
  it("news article: no cookie banner, sticky menu, share bar, related list, newsletter or comment form", async () => {
    const r = await readFixture("/collector/read/news.html");
    expect(r.title).toBe("Harbour town votes to restore its tidal mill");
    expect(r.description).toBe("After two years of debate, Wrenmouth agreed to bring its 18th-century tidal mill back to work.");
    expect(r.page_type).toBe("article");
    expect(r.content).toContain("voted on Tuesday to restore the eighteenth-century tidal mill");
    expect(r.content).toContain("estimated at £1.2 million");
    expect(r.content).toContain("## What happens next");
    expect(r.content).toMatch(/^1\.\s+A trust will be formed to raise money\.$/m);
    expect(r.content).toContain("same moon it did in 1760");
    for (const junk of ["cookies", "Accept all", "Share on Facebook", "Skip to main content", "opens a diagram", "Obituaries", "More stories", "Lifeboat crew", "Subscribe", "Leave a reply", "Most read", "Privacy policy", "Loading interactive map"]) {
      expect(r.content, junk).not.toContain(junk);
    }
    expect(r.content).not.toMatch(/\[\]\(|!\[\]\(|^#+\s*$|^-\s*$/m); // no empty links, images, headings or items
  });

  it("article furniture: no captions, photo credits, byline, dateline or promos (READ MORE, DON'T MISS); captions on request", async () => {
    const r = await readFixture("/collector/read/furniture.html", { format: "text" });
    expect(r.title).toBe("Night trains return to the valley line");
    expect(r.page_type).toBe("article");
    for (const kept of [
      "For the first time in eleven years",
      "buffet car will stay open until midnight",
      "https://rail.example/notice/2026-14", // a source given as a bare address is text
      "Read the full timetable on the operator's website", // a sentence with a link, not a promo
      "waiting rooms open overnight",
      "By 2030 the operator hopes to run the sleeper every night, with a second train by Northern Rail on summer weekends.",
    ]) {
      expect(r.content, kept).toContain(kept);
    }
    for (const junk of ["sleeper leaves the valley station at dusk", "Photo: Ivo Brandt", "By Marta Quell", "06:40", "READ MORE", "Rail strike called off", "Updated at 9:15", "DON'T MISS", "Island ferry", "bus fares frozen"]) {
      expect(r.content, junk).not.toContain(junk);
    }
    const withCaptions = await readIn(fx.page, { format: "text", captions: true });
    expect(withCaptions.content).toContain("The first sleeper leaves the valley station at dusk.");
    expect(withCaptions.content).toContain("Photo: Ivo Brandt / Valley Post");
    expect(withCaptions.content).not.toContain("By Marta Quell");
  });

  it("the author's box under an article goes, found by its name or by its heading", async () => {
    const r = await readFixture("/collector/read/furniture.html", { format: "text" });
    expect(r.content).toContain("waiting rooms open overnight");
    expect(r.content).not.toContain("has covered transport");
    await fx.page.evaluate(() => {
      const box = document.querySelector(".authorBio")!;
      box.className = "panel";
      box.insertAdjacentHTML("afterbegin", "<h3>About the author</h3>");
    });
    const byHeading = await readIn(fx.page, { format: "text" });
    expect(byHeading.content).toContain("waiting rooms open overnight");
    expect(byHeading.content).not.toContain("has covered transport");
    expect(byHeading.content).not.toContain("About the author");
  });

  it("a page that is not an article keeps its captions: they name the people on a team page", async () => {
    const r = await readFixture("/collector/read/team.html", { format: "text" });
    // A testimonial marked up as a schema.org Review does not make the page a review article.
    expect(r.page_type).toBe("page");
    for (const who of ["Ana Ruiz, chartered surveyor", "Tom Beck, building surveyor", "Lin Zhou, geomatics"]) expect(r.content, who).toContain(who);
  });

  it("collapsed sections (accordion panels) and their questions are content; a hidden submenu and a hidden pop-up are not", async () => {
    const r = await readFixture("/collector/read/faq.html", { format: "text" });
    // The questions are buttons inside headings: their words stay as the headings.
    for (const answer of ["What can go in the bin?", "How long does it take?", "Keep a balance of green, wet material", "nine to twelve months", "too much green material and too little air"]) {
      expect(r.content, answer).toContain(answer);
    }
    for (const junk of ["Compost bins compared", "Wormeries", "seasonal growing guide", "Join our newsletter"]) expect(r.content, junk).not.toContain(junk);
  });

  it("forum thread: every post is content, the forum's chrome is not", async () => {
    const r = await readFixture("/collector/read/forum.html", { format: "text" });
    expect(r.page_type).toBe("forum");
    for (const post of ["smells strongly of acetone", "It is hungry, not dead", "about 80 percent hydration", "two feeds a day fixed it", "whole rye flour in one of the two feeds"]) {
      expect(r.content).toContain(post);
    }
    for (const junk of ["Similar threads", "Rye starter schedule", "Members", "Quick reply", "Powered by", "Terms and rules", "Next ›"]) {
      expect(r.content, junk).not.toContain(junk);
    }
  });

  it("product page: name, price, description and specifications as a table; no recommendations", async () => {
    const r = await readFixture("/collector/read/product.html");
    expect(r.page_type).toBe("product");
    expect(r.title).toBe("Kettle Pro 1.7 L"); // the name is the title
    expect(r.content).toContain("€49.99");
    expect(r.content).toContain("switches itself off when the water boils");
    expect(r.content).toMatch(/^-\s+Removable limescale filter$/m);
    expect(r.content).toMatch(/\|\s*Power\s*\|\s*2200 W\s*\|/);
    expect(r.content).toContain("Kettle Pro, front view"); // the image as its alt text
    for (const junk of ["Customers also bought", "Toaster Duo", "Free delivery", "Garden", "Find a store", "Add to cart"]) {
      expect(r.content, junk).not.toContain(junk);
    }
  });

  it("product page: other products and the reviews left out, the rating summary and the FAQ kept", async () => {
    const r = await readFixture("/collector/read/shop-extras.html", { format: "text" });
    expect(r.page_type).toBe("product"); // its FAQPage (schema.org Questions) does not make it a thread
    expect(r.title).toBe("Trailhead 28 L Daypack");
    for (const kept of ["4.4 out of 5 stars, 128 reviews", "$89.00", "ventilated back panel keeps air moving", "three-litre reservoir", "Back length: 46 cm", "Is the Trailhead waterproof?", "fits most airlines' cabin limits"]) {
      expect(r.content, kept).toContain(kept);
    }
    // By heading ("Pairs well with", "Customer reviews"), by schema.org Review microdata under a
    // heading that says nothing ("What hikers think"), by name (product-reviews, recently-viewed).
    for (const extra of ["Pairs well with", "Summit insulated bottle", "Keeps water cold", "Customer reviews", "three summits this month", "zip on the lid pocket", "not a single torn seam", "my back still gets damp", "whole coast path in May", "easy to spot in a crowded", "Alpine 40 L pack", "running vest"]) {
      expect(r.content, extra).not.toContain(extra);
    }
  });

  it("product page: a rating label in the buy box and an editorial review's own text are not reviews to drop", async () => {
    // "Rating 4.5" leads the buy box (the <h1> is in the gallery column): the box stays.
    const lamp = await readFixture("/collector/read/product-labels.html", { format: "text" });
    expect(lamp.page_type).toBe("product");
    for (const kept of ["€129.00", "linen shade that softens the light", "braided cotton two metres long", "Bulb: E27, up to 40 W"]) expect(lamp.content, kept).toContain(kept);
    // A magazine's review of a product (schema.org Product with a review) in a block named review-content.
    const bike = await readFixture("/collector/read/review-article.html", { format: "text" });
    for (const kept of ["six weeks of commuting", "shrank to about 55 km", "buy it for the ride, not for the range"]) expect(bike.content, kept).toContain(kept);
  });

  it("documentation: code blocks verbatim in fences with their language, tables in GFM, no sidebar or pager", async () => {
    const r = await readFixture("/collector/read/docs.html");
    expect(r.page_type).toBe("documentation");
    expect(r.content).toContain('```ts\nimport { openStream } from "@acme/sdk";\n\nconst stream = await openStream("data/*.csv", { chunkSize: 64 * 1024 });');
    expect(r.content).toContain("  if (chunk.length < 2) continue; // skip   empty lines");
    expect(r.content).toContain('```shell\nfor f in *.csv; do\n    acme check "$f" || echo "bad: $f"\ndone\n```');
    expect(r.content).toContain("`openStream()`");
    expect(r.content).toMatch(/\| chunkSize \| 65536 \| Bytes per chunk \|/);
    for (const junk of ["Installation", "On this page", "Edit this page", "Previous: Streams", "Search docs"]) {
      expect(r.content, junk).not.toContain(junk);
    }
  });

  it("links: false keeps link and image text without URLs; text format has the same words as Markdown", async () => {
    const md = await readFixture("/collector/read/news.html", { links: false });
    expect(md.content).not.toMatch(/\]\(/);
    expect(md.content).toContain("The tidal mill at low water");
    const text = await readIn(fx.page, { format: "text" });
    const words = (s: string) => (s.replace(/!\[[^\]]*\]\([^)]*\)/g, "").match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
    expect(words(text.content)).toBe(words(md.content.replace(/^\d+\.\s/gm, "").replace(/The tidal mill at low water/, "")));
  });
});

describe("read() keeps a listing's items and names the page, not the site", () => {
  it("category page whose items are columns of links: every item is kept", async () => {
    const r = await readFixture("/collector/read/category.html", { format: "text" });
    // Each column is a small block of links (what a menu looks like too); together they are the page.
    for (const bird of ["Atlantic puffin", "Tufted puffin", "Kittiwake", "Fea's petrel", "Manx shearwater", "Black tern", "Chilean skua", "Blue-footed booby", "Flightless cormorant"]) {
      expect(r.content, bird).toContain(bird);
    }
    expect(r.content).toContain("come ashore to breed");
    for (const junk of ["Coasts", "Privacy", "Contact us"]) expect(r.content, junk).not.toContain(junk);
  });

  it("store page with large inline scripts: script text does not make the product grid look small", async () => {
    const r = await readFixture("/collector/read/store.html", { format: "text" });
    for (const book of ["The Lighthouse Keeper's Cat", "Night of the Storm Petrels", "A Whale Called Wednesday", "The Kelp Forest Mystery"]) {
      expect(r.content, book).toContain(book);
    }
    expect(r.content).not.toContain("__STATE__");
    for (const junk of ["Gifts", "Returns"]) expect(r.content, junk).not.toContain(junk);
    // The main-content candidate keeps the grid too (it is what decides when Readability keeps little).
    expect(r.stats?.main_content_chars).toBeGreaterThan(700);
  });

  it("an <h1> that is the site's name in the banner is not the title", async () => {
    const r = await readFixture("/collector/read/site-h1.html");
    expect(r.title).toBe("Why the tides turn twice a day");
    expect(r.content).toContain("fifty minutes later");
  });
});

describe("read() names the page, not the site", () => {
  it("drops the site's name from the document title when the site says it (og:site_name, its address)", async () => {
    const r = await readFixture("/collector/read/site-name.html", { format: "text" });
    expect(r.title).toBe("Brewing with a moka pot");
    expect(r.content).toContain("steam pressure");
    // The same title at the start, or a site known only by its canonical address.
    const retitle = async (title: string, head: string) => {
      await fx.page.evaluate(([t, h]) => {
        document.querySelectorAll('meta[property="og:site_name"], link[rel="canonical"]').forEach((e) => e.remove());
        document.title = t!;
        document.head.insertAdjacentHTML("beforeend", h!);
      }, [title, head]);
      return (await readIn(fx.page, { format: "text" })).title;
    };
    expect(await retitle("Harbour Coffee – Brewing with a moka pot", '<meta property="og:site_name" content="Harbour Coffee">')).toBe("Brewing with a moka pot");
    expect(await retitle("Brewing with a moka pot - Harbour Coffee Co.", '<link rel="canonical" href="https://www.harbourcoffee.example/guides/moka">')).toBe("Brewing with a moka pot");
    // A part that only looks like a name stays, and so does a brand in front of what the page is.
    expect(await retitle("Moka pots | Guides", "")).toBe("Moka pots | Guides");
    expect(await retitle("Harbour Coffee moka | Guides", '<meta property="og:site_name" content="Harbour Coffee">')).toBe("Harbour Coffee moka | Guides");
  });
});

describe("read() titles from documentation and subdomains", () => {
  it("a heading's permalink mark is not part of the title (Sphinx's ¶)", async () => {
    const r = await readFixture("/collector/read/docs-permalink.html", { format: "text" });
    expect(r.title).toBe("Caching pages");
    expect(r.content).toContain("cache key is built from both");
  });

  it("without a reading, the title is og:title when the document title is it plus more parts", async () => {
    // A forum's shell: "Topic - Category - Site" in <title>, the topic alone in og:title, as
    // Readability itself prefers; nothing for Readability to read.
    const r = await readFixture("/collector/read/forum-shell.html", { format: "text" });
    expect(r.title).toBe("Wiring a second thermostat");
  });

  it("drops the site's name when only the registrable part of a subdomain address names it", async () => {
    // neighbourhoods.harbourwatch.example: "neighbourhoods" is the longest label, "harbourwatch" the site.
    const r = await readFixture("/collector/read/subdomain-site.html", { format: "text" });
    expect(r.title).toBe("Lighthouse keepers return to Farne Point");
  });
});

describe("read() leaves the site's menu out", () => {
  it("an open menu (no style sheet) inside the container Readability takes does not become the text", async () => {
    const r = await readFixture("/collector/read/open-menu.html", { format: "text" });
    expect(r.content).toContain("A daylight LED panel for interviews");
    expect(r.content).toContain("$129.00");
    for (const item of ["Cameras", "Tripods", "Batteries"]) expect(r.content, item).not.toContain(item);
  });
});

describe("read() tells sticky chrome from sticky content", () => {
  it("API reference: the sticky example panel is content, the sticky top bar is not", async () => {
    const r = await readFixture("/collector/read/api.html");
    expect(r.page_type).toBe("documentation");
    expect(r.content).toContain("in the smallest currency unit");
    expect(r.content).toContain("```shell\ncurl https://api.tollgate.example/v1/refunds \\\n  -u tg_test_key: \\");
    expect(r.content).toContain('"status": "succeeded"');
    for (const junk of ["Changelog", "Guides", "Support"]) expect(r.content, junk).not.toContain(junk);
  });
});

describe("read() keeps a list of links that is part of the text", () => {
  it("a list of links between paragraphs stays; the list of other guides after the text goes", async () => {
    const r = await readFixture("/collector/read/guide.html", { format: "text" });
    for (const t of ["Strings", "Hashes", "Lists", "Sorted sets"]) expect(r.content, t).toMatch(new RegExp(`^${t}$`, "m"));
    expect(r.content).toContain("start with a hash");
    for (const junk of ["More guides", "Expiring keys", "Scaling out", "Download"]) expect(r.content, junk).not.toContain(junk);
  });
});

describe("read() on a thread keeps the replies Readability leaves out", () => {
  it("a long opening post and short replies: every reply is kept, the forum's chrome is not", async () => {
    const r = await readFixture("/collector/read/thread.html", { format: "text" });
    expect(r.page_type).toBe("forum");
    // Readability keeps the opening post, over a third of the thread but not most of it.
    expect(r.extractor).toBe("main-content");
    expect(r.content).toContain("the felt is only three years old");
    for (const reply of ["felt adhesive", "the nails pull through", "two nail holes", "corrugated bitumen sheets"]) {
      expect(r.content, reply).toContain(reply);
    }
    for (const junk of ["Vegetables", "Members", "Forum rules"]) expect(r.content, junk).not.toContain(junk);
    // Who wrote each post stays; the post counts, numbers and buttons do not.
    expect(r.content).toContain("hedgehog_ann");
    expect(r.content).toContain("Fitting them took 20 minutes a sheet.");
    for (const chrome of ["1,204 posts", "Joined 2011", "#2", "Posts: 1204", "Quote", "Select all"]) expect(r.content, chrome).not.toContain(chrome);
  });
});

describe("read() completes an article Readability took part of", () => {
  it("cards between the intro and the outro are kept; a box of links between them and the comments after are not", async () => {
    const alone = await readFixture("/collector/read/plant-grid.html", { format: "text", fallback: false });
    // Readability weighs the grid's class name against it and keeps only the intro and outro.
    expect(alone.content).not.toContain("Cast-iron plant");
    const r = await readIn(fx.page, { format: "text" });
    expect(r.content).toContain("A few foliage plants, though, evolved");
    for (const card of ["Snake plant", "ZZ plant", "coal smoke", "Heartleaf philodendron", "hides the pot entirely"]) {
      expect(r.content, card).toContain(card);
    }
    expect(r.content).toContain("turn the pot a quarter every week");
    for (const junk of ["Trending", "cold frame", "3 comments", "two-month trip", "peace lily"]) expect(r.content, junk).not.toContain(junk);
  });
});

describe("read() completes a report Readability took one section of", () => {
  it("every section of a run of like sections is kept", async () => {
    const alone = await readFixture("/collector/read/report-sections.html", { format: "text", fallback: false });
    expect(alone.content).not.toContain("alternative code generator");
    const r = await readIn(fx.page, { format: "text" });
    for (const t of ["What is this project?", "alternative code generator", "Backend patches", "Wide integers", "pair of 64-bit halves", "older hardware", "State of the test suite", "91 to 96 percent", "Build times", "continuous integration machines"]) {
      expect(r.content, t).toContain(t);
    }
    for (const junk of ["Archive", "Written by the maintainers"]) expect(r.content, junk).not.toContain(junk);
  });
});

describe("revealStreamed() puts React's streamed parts in place", () => {
  // The service's fixture (test/observe/observe.test.ts reads it through the server).
  const html = () => readFileSync(fileURLToPath(new URL("../observe/fixtures/streamed.html", import.meta.url)), "utf8");
  const reveal = (page: Page) => page.evaluate(() => (globalThis as unknown as { sightline: { revealStreamed(): number } }).sightline.revealStreamed());

  it("with scripts off: each part where its call puts it, the skeleton gone, and only once", async () => {
    const context = await fx.page.context().browser()!.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.setContent(html());
      await page.evaluate(collectorBundle());
      expect(await reveal(page)).toBe(2);
      expect(await reveal(page)).toBe(0);
      const text = await page.evaluate(() => document.body.innerText);
      const at = (s: string) => text.indexOf(s);
      expect(at("Who lives there")).toBeGreaterThan(at("Kelp forests grow"));
      expect(at("Sea otters keep the forests standing")).toBeGreaterThan(at("Hundreds of species"));
      // The boundary's fallback ends at its own closing marker, not at a nested one's.
      expect(at("Photographs by the Coastal Notes divers")).toBeGreaterThan(at("Sea otters keep the forests standing"));
      expect(text).not.toContain("Loading");
      expect(await page.locator('[id^="S:"], template').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("where the scripts ran: nothing left to move, and read() gives each part once", async () => {
    await fx.page.setContent(html());
    const r = await readIn(fx.page, { format: "text" });
    expect(await reveal(fx.page)).toBe(0);
    expect(r.content.split("Sea otters keep the forests standing")).toHaveLength(2);
    expect(r.content.indexOf("Hundreds of species")).toBeGreaterThan(r.content.indexOf("Kelp forests grow"));
  });
});

describe("read() gives up a Readability pick the cleaning empties", () => {
  it("reads a landing page's sections, not its header, when Readability took the menu", async () => {
    const r = await readFixture("/collector/read/landing-header.html", { format: "text" });
    // The rules take the main-content candidate; the learned model reads a service page after
    // them (docs/read-mode.md, step 7) and its content is then what read() gives.
    expect(["main-content", "model"]).toContain(r.extractor);
    expect(r.content).toContain("Plan a coastal garden that survives salt");
    expect(r.content).toContain("Soil from sand");
    expect(r.content).not.toContain("Skip to main content");
    expect(r.content).not.toContain("Wind breaks guide");
  });
});

// The learned model's view of a page (readBlocks(): its training data, shared/read-training).
describe("readBlocks(): the cleaned page cut into blocks for the learned model", () => {
  it("each text run in one block, in document order, with a feature row each and the rules' choice marked", async () => {
    await fx.page.goto(fx.server.url("/collector/read/news.html"));
    await readIn(fx.page, {}); // injects the bundle
    const b = await fx.page.evaluate(() => (globalThis as unknown as { sightline: { readBlocks(o: unknown): any } }).sightline.readBlocks({}));
    const F = b.blockFeatures.length;
    expect(b.rows.length).toBe(b.blocks.length * F);
    const texts: string[] = b.blocks.map((x: { text: string }) => x.text);
    const heading = texts.indexOf("What happens next");
    const story = texts.findIndex((t) => t.includes("voted on Tuesday to restore the eighteenth-century tidal mill"));
    expect(story).toBeGreaterThanOrEqual(0);
    expect(heading).toBeGreaterThan(story); // document order
    // the cookie banner (a fixed overlay) was cleaned away before the blocks were cut
    expect(texts.some((t) => /Accept all/.test(t))).toBe(false);
    const col = (name: string) => b.blockFeatures.indexOf(name);
    const inRules = (i: number) => b.rows[i * F + col("in_rules")];
    expect(inRules(story)).toBe(1);
    const footer = texts.findIndex((t) => /Privacy policy/.test(t));
    expect(footer).toBeGreaterThanOrEqual(0);
    expect(inRules(footer)).toBe(0);
    expect(b.rows[footer * F + col("own_footer")]).toBe(1); // class="footer-links"
    // a word is in one block only: the blocks' words are the cleaned page's words
    const words = texts.join(" ").split(/\s+/).filter(Boolean);
    expect(words.filter((w) => w === "eighteenth-century").length).toBe(1);
  });
});
