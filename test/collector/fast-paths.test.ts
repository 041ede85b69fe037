// The collector's shortcuts give the answers of the long way round: link targets as the
// browser resolves them, aria-label names as the full accessible-name algorithm gives them,
// style rules found through one query for all selectors, text that does not depend on which
// element was read first, and a second collect() (caches warm) equal to the first.
import { expect, it } from "vitest";
import type { Page } from "playwright-core";
import { useFixturePage, byDomId, collectIn, inject } from "./support.js";

const fx = useFixturePage("/collector/fast-paths.html");

/** Every link of the fixture's nav, as collect() reports it and as the browser's href getter gives it. */
async function expectHrefsAsBrowser(page: Page, pageUrl: string): Promise<Body> {
  const body = await collectIn(page);
  const expected = await page.evaluate(() =>
    Array.from(document.querySelectorAll("nav a[id]")).map((a) => {
      const href = (a as HTMLAnchorElement).href;
      return [a.id, typeof href === "string" ? href : a.getAttribute("href")] as const;
    }),
  );
  expect(expected.length).toBeGreaterThan(30);
  for (const [id, href] of expected) {
    const raw = byDomId(body, id);
    expect(raw, id).toBeDefined();
    // An empty href resolves to the page itself; collect() leaves empty values out.
    expect(raw!.attributes!.href ?? "", id).toBe(id === "h-empty" ? pageUrl : href);
  }
  return body;
}

it("reports every link's href exactly as the browser resolves it", async () => {
  const body = await expectHrefsAsBrowser(fx.page, fx.server.url("/collector/fast-paths.html"));
  // The rewrites the URL parser makes are really there (not just an echo of the attribute).
  expect(byDomId(body, "h-dots")!.attributes!.href).toBe(fx.server.url("/a/c/d"));
  expect(byDomId(body, "h-space")!.attributes!.href).toBe(fx.server.url("/a%20b/c"));
  expect(byDomId(body, "h-absolute")!.attributes!.href).toBe("https://example.com/y");
  expect(byDomId(body, "h-fragment")!.attributes!.href).toBe(fx.server.url("/collector/fast-paths.html#section"));
  expect(byDomId(body, "h-rel-query")!.attributes!.href).toBe(fx.server.url("/collector/sub/page.html?q=1#f"));
  expect(byDomId(body, "h-rel-dotdot")!.attributes!.href).toBe(fx.server.url("/up.html"));
});

it("resolves links against a <base> with its own directory, query and fragment", async () => {
  const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(fx.server.url("/collector/fast-paths.html"));
    await page.evaluate(() => {
      const base = document.createElement("base");
      base.href = "/deep/dir/page.html?q=1#old";
      document.head.prepend(base);
      // A page may replace URL (polyfills do), here with one whose hash cannot be cleared:
      // link targets must not depend on it.
      (window as unknown as { URL: unknown }).URL = class extends URL {
        override get hash() {
          return super.hash;
        }
        override set hash(_ignored: string) {}
      };
    });
    const body = await expectHrefsAsBrowser(page, fx.server.url("/deep/dir/page.html?q=1"));
    expect(byDomId(body, "h-fragment")!.attributes!.href).toBe(fx.server.url("/deep/dir/page.html?q=1#section"));
    expect(byDomId(body, "h-relative")!.attributes!.href).toBe(fx.server.url("/deep/dir/sub/page.html"));
    expect(byDomId(body, "h-rel-dotdot")!.attributes!.href).toBe(fx.server.url("/deep/up.html"));
  } finally {
    await page.close();
  }
});

type Body = Awaited<ReturnType<typeof collectIn>>;

/** Each fixture pair `${prefix}${n}a` (a shortcut) / `${prefix}${n}b` (the same element sent
 *  through the full algorithm by a dangling aria-labelledby) has one name and one role. */
function expectPairsAgree(body: Body, prefix: string, ns: number[]): void {
  for (const n of ns) {
    const fast = byDomId(body, `${prefix}${n}a`);
    const full = byDomId(body, `${prefix}${n}b`);
    expect(fast, `${prefix}${n}a`).toBeDefined();
    expect(fast!.attributes!.accessible_name, `${prefix}${n}`).toBe(full!.attributes!.accessible_name);
    expect(fast!.attributes!.role, `${prefix}${n}`).toBe(full!.attributes!.role);
  }
}

it("resolves 1,500 generated hrefs as the browser does, with and without a <base>", async () => {
  const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(fx.server.url("/collector/fast-paths.html"));
    await inject(page);
    for (const base of [null, "/deep/dir/page.html?q=1#old"]) {
      const mismatches = await page.evaluate(async (baseHref) => {
        document.querySelector("base")?.remove();
        if (baseHref) {
          const b = document.createElement("base");
          b.href = baseHref;
          document.head.prepend(b);
        }
        // Seeded, so a failure reproduces: references built from the characters and prefixes
        // the resolver's shortcuts have to tell apart.
        // Park-Miller: exact in doubles (48271 * 2^31 < 2^53), so every draw is a fresh value.
        let seed = 7;
        const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
        const prefixes = ["", "a", "dir/", "page.html", "#", "#", "#", "/", "/", "./", "../", "//", "?", "a:", "%2e/", "%2E%2e/", " "];
        // Plain characters weighted up (most real references are plain), then every kind the
        // shortcuts must turn away: dot segments in both cases, quotes, brackets, controls.
        const plain = ["a", "b", "Z", "0", "9", "-", "_", ".", "/", "~", "!", "$", "&", "(", "*", "+", ",", ";", "=", "@", "%41"];
        const odd = ["..", "/.", "/..", "/%2e", "/%2E%2e", "#", "?", "%", ":", "'", " ", '"', "`", "<", ">", "\\", "|", "^", "{", "}", "é", "\t", "\n", "[", "]"];
        const nav = document.createElement("section");
        for (let i = 0; i < 1500; i++) {
          let h = prefixes[rnd(prefixes.length)];
          for (let n = rnd(8); n >= 0; n--) h += rnd(4) ? plain[rnd(plain.length)] : odd[rnd(odd.length)];
          const a = document.createElement("a");
          a.setAttribute("href", h);
          a.id = `gen-${i}`;
          a.textContent = `g${i}`;
          nav.append(a, " ");
        }
        document.body.prepend(nav);
        const body = JSON.parse(await (globalThis as unknown as { sightline: { collectJSON(): Promise<string> } }).sightline.collectJSON()) as {
          raw_elements: Array<{ attributes?: Record<string, string | null> }>;
        };
        nav.remove();
        const got = new Map(body.raw_elements.map((e) => [e.attributes?.id, e.attributes?.href ?? ""]));
        const out: string[] = [];
        // The generator must reach each shortcut: distinct references of plain characters only
        // (none the URL parser would encode or rewrite), by kind.
        const distinct = new Set(Array.from(nav.querySelectorAll("a"), (a) => a.getAttribute("href") ?? ""));
        const plainOnly = [...distinct].filter((h) => /^[A-Za-z0-9\-._~!$&()*+,;=@%/#?]+$/.test(h) && !/\.\.|\/\.|%2e/i.test(h));
        const kinds = { fragment: 0, root: 0, relative: 0 };
        for (const h of plainOnly) {
          if (h[0] === "#") kinds.fragment++;
          else if (h[0] === "/" && h[1] !== "/") kinds.root++;
          else if (/^[A-Za-z0-9]/.test(h) && !h.includes(":")) kinds.relative++;
        }
        for (const [kind, n] of Object.entries(kinds)) if (n < 50) out.push(`only ${n} plain ${kind} references generated`);
        for (const a of Array.from(nav.querySelectorAll("a"))) {
          if (!got.has(a.id)) out.push(`${a.id} missing`);
          // An href resolving to "" is left out of the snapshot (empty values are not sent).
          else if (got.get(a.id) !== a.href) out.push(`${JSON.stringify(a.getAttribute("href"))}: ${got.get(a.id)} != ${a.href}`);
        }
        return out;
      }, base);
      expect(mismatches, `base ${base}`).toEqual([]);
    }
  } finally {
    await page.close();
  }
});

it("names an element by its aria-label as the full algorithm does", async () => {
  const body = await collectIn(fx.page);
  expectPairsAgree(body, "n", [1, 2, 3, 4, 5, 6]);
  expect(byDomId(body, "n2a")!.attributes!.accessible_name).toBe("Save now");
  expect(byDomId(body, "n4a")!.attributes!.accessible_name).toBe("Quantity of items");
});

it("names elements whose only name source is a title as the full algorithm does", async () => {
  const body = await collectIn(fx.page);
  expectPairsAgree(body, "s", [1, 2, 3, 5, 6, 7, 8]);
  // Named after the fact (fixName: an article or dialog by its heading), not left empty.
  expect(byDomId(body, "s1a")!.attributes!.accessible_name).toBe("Weekly digest");
  expect(byDomId(body, "s3a")!.attributes!.accessible_name).toBe("Confirm order");
  // The title, flattened, where nothing else names the element.
  expect(byDomId(body, "s4")!.attributes!.accessible_name).toBe("Pinned note");
  for (const [id, name] of [["s5a", "Opens in a new tab"], ["s6a", "Company logo"], ["s7a", "Prices"]]) {
    expect(byDomId(body, id)!.attributes!.accessible_name, id).toBe(name);
  }
  // Not taken where the library reads something else: an empty alt makes an img
  // presentational (no name), a caption names its table.
  expect(byDomId(body, "s9")?.attributes?.accessible_name ?? "").toBe("");
  expect(byDomId(body, "s10")!.attributes!.accessible_name).toBe("Price list");
});

it("finds hover-only pointers and generated text from the style rules, past an invalid selector", async () => {
  const body = await collectIn(fx.page);
  expect(byDomId(body, "r-tile")!.attributes!.cursor_on_hover).toBe("pointer");
  expect(byDomId(body, "r-plain")).toBeUndefined();
  expect(byDomId(body, "r-close")!.attributes!.accessible_name).toBe("Close");
  expect(byDomId(body, "r-dup")!.attributes!.accessible_name).toBe("Menu");
  expect(byDomId(body, "r-deep")!.attributes!.accessible_name).toBe("Next");
});

it("reads text the same whichever element is read first", async () => {
  const body = await collectIn(fx.page);
  const card = byDomId(body, "t-long")!;
  expect(card.text!.length).toBeLessThanOrEqual(200);
  expect(card.text!.startsWith("Open Lorem ipsum")).toBe(true);
  expect(card.text!.endsWith("…")).toBe(true);
  expect(byDomId(body, "t-link")!.text).toBe("Open");
  expect(byDomId(body, "t-btn")!.text).toBe("Add to cart");
  expect(byDomId(body, "t-spaces")!.text).toBe("Add to cart");
  expect(byDomId(body, "t-qty")!.attributes!.nearby_text).toBe("Add to cart");
});

it("gives the same snapshot on a second collect(), caches warm", async () => {
  await fx.page.goto(fx.server.url("/collector/fast-paths.html"));
  const first = await collectIn(fx.page);
  const second = await collectIn(fx.page);
  expect(second.raw_elements).toEqual(first.raw_elements);
});

it("gives a card text read that stops early the same answer each time, and one per read size", async () => {
  // A read that stops at its node budget is kept for the collect(): every link of a long list
  // asks for the list's text, and nearby_text (60 nodes) and context_text (80 nodes) read the
  // same box here, in both orders (text before a field is read backwards, a checkbox's forwards).
  const words = Array.from({ length: 34 }, () => "<span>w</span>").join("");
  const box = (id: string) => `<div id="${id}"><a id="${id}-go" href="#${id}">Go</a>${words}</div>`;
  await fx.page.setContent(
    `<ul>${Array.from({ length: 40 }, (_, i) => `<li><a id="l${i}" href="#${i}">Item ${i}</a></li>`).join("")}</ul>` +
      `<form>${box("b1")}<input id="f1"></form><form><input type="checkbox" id="f2">${box("b2")}</form>`,
  );
  const body = await collectIn(fx.page);
  const all = "Go " + Array.from({ length: 34 }, () => "w").join(" ");
  for (const n of [1, 2]) {
    expect(byDomId(body, `b${n}-go`)!.attributes!.context_text, `b${n}`).toBe(all);
    const near = byDomId(body, `f${n}`)!.attributes!.nearby_text as string;
    // 60 nodes: the link, its text and 29 of the 34 words (each a span and its text).
    expect(near, `f${n}`).toBe(all.split(" ").slice(0, 30).join(" "));
  }
  // A list too long to be a card: no context_text for any of its links, the first or the last.
  for (const i of [0, 20, 39]) expect(byDomId(body, `l${i}`)!.attributes!.context_text).toBeUndefined();
});
