// The ledger on a real file: two Ledger instances on one file stand for the server and the
// admin CLI (separate processes share nothing but the file and its lock).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ContractError } from "@sightline/shared/contract";
import { Ledger } from "../../src/ledger/index.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ledger-"));
  file = join(dir, "ledger.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test("keys are stored hashed, never in clear", async () => {
  const l = await Ledger.open(file);
  const { key } = await l.createAccount({ credits: 5 });
  const text = await readFile(file, "utf8");
  expect(text).not.toContain(key);
  expect(text).toContain("key_hash");
  expect((await l.authenticate(key))?.credits).toBe(5);
  expect(await l.authenticate(`${key}x`)).toBeNull();
});

test("reserve takes credits at once; release refunds; commit keeps", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 2 });
  const a = await l.reserve(account.id, 1);
  const b = await l.reserve(account.id, 1);
  expect([a.remaining, b.remaining].sort()).toEqual([0, 1]);
  await expect(l.reserve(account.id, 1)).rejects.toMatchObject({ code: "insufficient_credits", status: 402 });
  a.commit();
  await b.release();
  await b.release(); // twice is still one refund
  expect(l.creditsOf(account.id)).toBe(1);
});

test("concurrent reservations never overspend", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 37 });
  const results = await Promise.allSettled(Array.from({ length: 100 }, () => l.reserve(account.id, 1)));
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(37);
  for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ContractError);
  expect(l.creditsOf(account.id)).toBe(0);
});

test("two writers on one file (server + admin) keep each other's changes", async () => {
  const server = await Ledger.open(file);
  const { account: a } = await server.createAccount({ credits: 100 });
  const { account: b, key: keyB } = await server.createAccount({ credits: 1 });
  const cli = await Ledger.open(file);
  const charges = Array.from({ length: 50 }, () => server.reserve(a.id, 1));
  const adminWrites = [cli.setCredits(b.id, 40), cli.createAccount({ credits: 3 }), cli.setActive(a.id, true)];
  await Promise.all([...charges, ...adminWrites]);
  const fresh = await Ledger.open(file);
  expect(fresh.creditsOf(a.id)).toBe(50);
  expect(fresh.creditsOf(b.id)).toBe(40);
  expect(fresh.accounts()).toHaveLength(3);
  // The server sees the admin's change on its next read.
  expect((await server.authenticate(keyB))?.credits).toBe(40);
});

test("a stale lock left by a killed process is broken", async () => {
  const l = await Ledger.open(file);
  await writeFile(`${file}.lock`, "999999:dead"); // no such pid
  const { account } = await l.createAccount({ credits: 1 });
  expect(l.creditsOf(account.id)).toBe(1);
});

test("deactivation is enforced at reservation time too", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 5 });
  await l.setActive(account.id, false);
  await expect(l.reserve(account.id, 1)).rejects.toMatchObject({ status: 403 });
});
