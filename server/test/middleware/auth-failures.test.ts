import { expect, test } from "vitest";
import { AuthFailures, clientKey } from "../../src/middleware/auth-failures.js";

test("a client may fail `perMinute` times, then waits until one attempt is back; refusals do not count", () => {
  const f = new AuthFailures(6); // one attempt back every 10 s
  for (let i = 0; i < 6; i++) {
    expect(f.blocked("c", 0)).toBe(0);
    f.failed("c", 0);
  }
  expect(f.blocked("c", 0)).toBe(10);
  expect(f.blocked("c", 4_000)).toBe(6);
  expect(f.blocked("c", 10_000)).toBe(0);
  expect(f.blocked("other", 0)).toBe(0);
  expect(new AuthFailures(0).blocked("c", 0)).toBe(0); // off
});

test("a client is its address, and on loopback its address and Origin", () => {
  expect(clientKey("203.0.113.9", "http://a.example")).toBe(clientKey("203.0.113.9", undefined));
  expect(clientKey("127.0.0.1", "http://evil.example")).not.toBe(clientKey("127.0.0.1", undefined));
  expect(clientKey("::ffff:127.0.0.1", "x")).not.toBe(clientKey("::ffff:127.0.0.1", "y"));
  expect(clientKey("::1", "x")).not.toBe(clientKey("::1", "y"));
});
