// The ledger on a real file: two Ledger instances on one file stand for the server and the
// admin CLI (separate processes share nothing but the file and its lock).
import { appendFile, lstat, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
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

test("a stale lock left by a killed process is broken (a symlink lock, or an older version's lock file)", async () => {
  const l = await Ledger.open(file);
  await symlink("999999:dead", `${file}.lock`); // no such pid
  const { account } = await l.createAccount({ credits: 1 });
  expect(l.creditsOf(account.id)).toBe(1);
  await expect(lstat(`${file}.lock`)).rejects.toMatchObject({ code: "ENOENT" }); // released
  await writeFile(`${file}.lock`, "999999:dead");
  (await l.reserve(account.id, 1)).commit();
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(0);
});

test("a live holder's lock is waited for, not broken", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 3 });
  await symlink(`${process.pid}:someone-else`, `${file}.lock`); // alive: this very process
  const charge = l.reserve(account.id, 1);
  await new Promise((r) => setTimeout(r, 60));
  expect(l.creditsOf(account.id)).toBe(3); // still waiting
  await rm(`${file}.lock`);
  (await charge).commit();
  expect(l.creditsOf(account.id)).toBe(2);
});

test("deactivation is enforced at reservation time too", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 5 });
  await l.setActive(account.id, false);
  await expect(l.reserve(account.id, 1)).rejects.toMatchObject({ status: 403 });
});

// Charges go to the journal (one appended line each), everything else to a new checkpoint.
const journal = () => readFile(`${file}.journal`, "utf8").catch(() => "");

test("a charge is one journal line; a fresh reader (a restart) sees checkpoint + journal", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 10 });
  const checkpoint = await readFile(file, "utf8");
  for (let i = 0; i < 3; i++) (await l.reserve(account.id, 1)).commit();
  await (await l.reserve(account.id, 2)).release();
  expect(await readFile(file, "utf8")).toBe(checkpoint); // no rewrite per charge
  expect((await journal()).trim().split("\n")).toHaveLength(5); // 4 charges + 1 refund
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(7);

  // Another process's view follows the journal as it grows.
  const other = await Ledger.open(file);
  (await l.reserve(account.id, 1)).commit();
  other.refresh();
  expect(other.creditsOf(account.id)).toBe(6);

  // A checkpoint (as at a clean shutdown) folds the journal into ledger.json and empties it.
  await l.checkpoint();
  expect(await journal()).toBe("");
  expect((JSON.parse(await readFile(file, "utf8")) as { accounts: { credits: number }[] }).accounts[0].credits).toBe(6);
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(6);
});

test("journal lines already in the checkpoint are not applied twice (crash between the two writes)", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 10 });
  for (let i = 0; i < 3; i++) (await l.reserve(account.id, 1)).commit();
  const lines = await journal();
  await l.checkpoint();
  await writeFile(`${file}.journal`, lines); // as if the process died before emptying it
  const fresh = await Ledger.open(file);
  expect(fresh.creditsOf(account.id)).toBe(7);
  (await fresh.reserve(account.id, 1)).commit();
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(6);
});

test("a journal line cut short (power loss) is ignored, and the next write repairs the file", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 10 });
  (await l.reserve(account.id, 1)).commit();
  await appendFile(`${file}.journal`, '{"rev":99,"id":"'); // no newline: a write cut short
  const fresh = await Ledger.open(file);
  expect(fresh.creditsOf(account.id)).toBe(9);
  (await fresh.reserve(account.id, 1)).commit(); // rewrites the checkpoint instead of appending after garbage
  expect(await journal()).toBe("");
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(8);
  (await fresh.reserve(account.id, 1)).commit();
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(7);
});

test("a journal that does not continue ledger.json is refused with a clear error, not guessed", async () => {
  const l = await Ledger.open(file);
  const { account } = await l.createAccount({ credits: 10 });
  const rev = (JSON.parse(await readFile(file, "utf8")) as { rev: number }).rev;
  await writeFile(`${file}.journal`, `${JSON.stringify({ rev: rev + 5, id: account.id, credits: 3, at: new Date().toISOString() })}\n`);
  await expect(Ledger.open(file)).rejects.toThrow(/does not continue/);
});

test("a charge whose write fails is refused and leaves no trace, on disk or in memory", async () => {
  const l = await Ledger.open(file);
  const { account, key } = await l.createAccount({ credits: 10 });
  // The journal now points into a directory that does not exist: it reads as empty (as it
  // is), but appending to it fails.
  await rm(`${file}.journal`, { force: true });
  await symlink(join(dir, "gone", "journal"), `${file}.journal`);
  await expect(l.reserve(account.id, 1)).rejects.toMatchObject({ code: "ENOENT" });
  expect(l.creditsOf(account.id)).toBe(10);
  await rm(`${file}.journal`);
  expect((await l.authenticate(key))?.credits).toBe(10);
  (await l.reserve(account.id, 1)).commit();
  expect((await Ledger.open(file)).creditsOf(account.id)).toBe(9);
});

test("many accounts: each charge touches only its own account", async () => {
  const l = await Ledger.open(file);
  const made = await Promise.all(Array.from({ length: 300 }, (_, i) => l.createAccount({ credits: i })));
  await Promise.all(made.map(({ account }) => l.reserve(account.id, 1).then((r) => r.commit(), () => undefined)));
  const fresh = await Ledger.open(file);
  made.forEach(({ account }, i) => expect(fresh.creditsOf(account.id)).toBe(Math.max(0, i - 1)));
});
