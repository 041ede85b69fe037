import { expect, test } from "vitest";
import { TokenBuckets } from "../../src/middleware/rate-limit.js";

test("a bucket holds a minute's worth, then refills at rate/60 per second", () => {
  const b = new TokenBuckets(60); // one token per second, burst 60
  const t0 = 1_000_000;
  for (let i = 0; i < 60; i++) expect(b.take("k", t0)).toBeGreaterThanOrEqual(0);
  expect(b.take("k", t0)).toBe(-1); // empty: retry in 1 s
  expect(b.take("k", t0 + 500)).toBe(-1); // half a token back: still 1 s (rounded up)
  expect(b.take("k", t0 + 1000)).toBe(0); // one token back
  expect(b.take("other", t0)).toBe(59); // keys do not share a bucket
});

test("Retry-After grows with the wait for one token", () => {
  const b = new TokenBuckets(3); // a token every 20 s
  for (let i = 0; i < 3; i++) b.take("k", 0);
  expect(b.take("k", 0)).toBe(-20);
  expect(b.take("k", 15_000)).toBe(-5);
});
