// What instances share through PostgreSQL besides the ledger: rate-limit buckets (a key's
// limit holds in total, not per instance) and screenshots (a link made by one instance is
// served by another; expired ones are gone and swept). Skipped loudly without PostgreSQL.
import { afterAll, expect, test } from "vitest";
import { PgLedger } from "../../src/ledger/index.js";
import { PgTokenBuckets } from "../../src/middleware/rate-limit.js";
import { PgObjectStore, sharedSigningSecret } from "../../src/storage/index.js";
import { startPostgres } from "../../../test/support/postgres.js";

const server = await startPostgres();
const ledgers: PgLedger[] = [];
afterAll(async () => {
  for (const l of ledgers) await l.close();
  await server?.stop();
});
const instances = async (n: number) => {
  const url = await server!.database();
  const made = [];
  for (let i = 0; i < n; i++) made.push(await PgLedger.connect({ url }));
  ledgers.push(...made);
  return made.map((l) => l.database);
};

test.skipIf(!server)("rate limit: two instances share one bucket per key", async () => {
  const [a, b] = await instances(2);
  const one = new PgTokenBuckets(a, 10);
  const two = new PgTokenBuckets(b, 10);
  const taken = await Promise.all(Array.from({ length: 14 }, (_, i) => (i % 2 ? one : two).take("acct_x")));
  expect(taken.filter((t) => t >= 0)).toHaveLength(10);
  // Empty: one token comes back every 6 s.
  for (const t of taken.filter((t) => t < 0)) expect(t).toBeLessThanOrEqual(-5);
  expect(await one.take("acct_y")).toBe(9); // keys do not share a bucket
  // Refill at the database's clock: pretend the last take was 12 s ago, two tokens back.
  await a.query("UPDATE rate_buckets SET at = at - interval '12 seconds' WHERE account_id = 'acct_x'");
  expect(await two.take("acct_x")).toBeGreaterThanOrEqual(0);
  expect(await one.take("acct_x")).toBeGreaterThanOrEqual(0);
  expect(await one.take("acct_x")).toBeLessThan(0);
});

test.skipIf(!server)("screenshots: stored by one instance, served by another until they expire; swept after", async () => {
  const [a, b] = await instances(2);
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  const put = new PgObjectStore(a, 60_000);
  const get = new PgObjectStore(b, 60_000);
  await put.put("abcdefghijklmnop0123.png", png, "image/png");
  expect(await get.get("abcdefghijklmnop0123.png")).toEqual({ data: png, contentType: "image/png" });
  expect(await get.get("nosuchobjectatall000.png")).toBeNull();
  expect(await get.get("../../etc/passwd")).toBeNull();
  await a.query("UPDATE screenshots SET expires_at = now() - interval '1 second'");
  expect(await get.get("abcdefghijklmnop0123.png")).toBeNull();
  expect(await get.sweep()).toBe(1);
  // Every instance signs links with the same secret, made once.
  const [s1, s2] = await Promise.all([sharedSigningSecret(a), sharedSigningSecret(b)]);
  expect(s1.length).toBe(32);
  expect(s2.equals(s1)).toBe(true);
});
