// Item 6 of issue 30: one account cannot starve the others' renders. Account A asks for pages
// that never finish loading (refunded, so free) until both render slots and the whole waiting
// line are its own; account B's render must still be done, promptly, and A is charged nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, observe, poolStats, until } from "../observe/helpers.js";

let sl: Sightline;
let site: StaticServer;
let hog: string;
let other: string;

beforeAll(async () => {
  site = await serveStatic(FIXTURES, [
    async (req, res) => {
      if (!req.url?.startsWith("/hang")) return false;
      // Never answers: the page never finishes loading (until the server drops the socket).
      await new Promise<void>((resolve) => req.socket.once("close", resolve));
      res.destroy();
      return true;
    },
  ]);
  sl = await startSightline({
    // A budget far longer than the test: A's renders only end by being stopped.
    config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1", concurrency: 2, queueLimit: 4, renderTimeoutMs: 120_000 }) },
  });
  [hog, other] = await Promise.all([sl.createKey(1000), sl.createKey(10)]);
  expect((await observe(sl, other, { url: site.url("/index.html"), mode: "map" })).status).toBe(200); // warm browser
});
afterAll(async () => {
  await sl?.close();
  await site?.close();
});

it("serves another account's render while one account holds every slot and place in line with pages that never load", async () => {
  const hogCredits = await sl.credits(hog);
  const otherCredits = await sl.credits(other);
  // 2 render, 4 wait: everything the server has.
  const hogging = Array.from({ length: 6 }, (_, i) => observe(sl, hog, { url: site.url(`/hang?${i}`), mode: "map" }));
  const settled: { status: number; json: { error_code?: string; message?: string } }[] = [];
  for (const h of hogging) void h.then((r) => settled.push(r), () => undefined);
  await until(() => poolStats(sl).running === 2 && poolStats(sl).queued === 4);

  const started = Date.now();
  const served = await observe(sl, other, { url: site.url("/form.html"), mode: "map" });
  expect(served.status, JSON.stringify(served.json)).toBe(200);
  expect(served.json.interactable_elements.length).toBeGreaterThan(0);
  // Well inside the 120 s render budget: B did not wait for one of A's renders to run out.
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(await sl.credits(other)).toBe(otherCredits - served.json.credits_used);

  // What A lost to B: a place in line and a running render, both 503 with Retry-After, uncharged.
  await until(() => settled.length >= 2);
  for (const r of settled) {
    expect(r.status).toBe(503);
    expect(r.json.error_code).toBe("service_unavailable");
  }
  const why = settled.map((r) => r.json.message).join("\n");
  expect(why).toMatch(/gave its place in line to another account/);
  expect(why).toMatch(/stopped to give another account its share/);
  // A's requests still in flight hold their reservation (returned when they fail); the two that
  // failed cost nothing. With B done, A has both slots again and the rest of the line.
  await until(() => poolStats(sl).running === 2 && poolStats(sl).queued === 2);
  expect(settled).toHaveLength(2);
  expect(await sl.credits(hog)).toBe(hogCredits - 4 * served.json.credits_used);
});
