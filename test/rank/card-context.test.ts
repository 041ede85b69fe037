// End to end in real Chromium: the collector sends each result card's text with its action
// button (context_text), and the committed reranker uses it to pick among identical-looking
// buttons; the heuristic alone cannot see the card text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { createLinearReranker } from "@sightline/shared/rank";
import { collectIn, openFixturePage, type FixturePage } from "../collector/support.js";

const reranker = createLinearReranker(JSON.parse(readFileSync(fileURLToPath(new URL("../../shared/src/rank/model.json", import.meta.url)), "utf8")));

const card = (id: string, city: string, dur: string, price: number) => `
  <div class="row"><div class="facts"><span>${city}</span> <span>${dur}</span> <span>Nonstop</span></div>
  <div class="buy"><button id="${id}">Book for $${price}</button></div></div>`;
const html = `<!doctype html><html><body><header><nav><a href="/">Home</a> <a href="/deals">Deals</a></nav></header>
  <main><h1>Flights</h1>
  ${card("b1", "Lisbon", "16h 52m", 558)}${card("b2", "Oslo", "2h 23m", 145)}${card("b3", "Lima", "25h 27m", 185)}${card("b4", "Cairo", "8h 18m", 1977)}
  </main></body></html>`;

let fixture: FixturePage;
beforeAll(async () => {
  fixture = await openFixturePage();
  await fixture.page.setContent(html);
});
afterAll(() => fixture?.close());

describe("result cards", () => {
  it("sends the card's text with each button and ranks by it", async () => {
    const body = await collectIn(fixture.page);
    const books = body.raw_elements.filter((e) => e.tag === "button");
    expect(books.map((e) => e.attributes?.context_text)).toEqual([
      "Lisbon 16h 52m Nonstop Book for $558",
      "Oslo 2h 23m Nonstop Book for $145",
      "Lima 25h 27m Nonstop Book for $185",
      "Cairo 8h 18m Nonstop Book for $1977",
    ]);
    // Links in a nav list carry no card (their closest wordier ancestor is the whole nav).
    expect(body.raw_elements.find((e) => e.text === "Home")?.attributes?.context_text).toBeUndefined();

    const first = (goal: string) => refineSnapshot({ ...body, goal }, { reranker }).elements[0];
    expect(first("Book the flight with the longest duration").text).toBe("Book for $185");
    expect(first("Book the quickest flight").text).toBe("Book for $145");
    // The <main> landmark repeats every card's words; it holds the buttons, so it is not the target.
    expect(first("Book the flight to Cairo").text).toBe("Book for $1977");
  });
});
