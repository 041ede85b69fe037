// The ledger, on both backends: the lowdb file (two FileLedger instances on one file stand for
// the server and the admin CLI, separate processes sharing nothing but the file and its lock)
// and PostgreSQL (two PgLedger instances on one database stand for two Sightline instances).
// The PostgreSQL half needs Debian's server (test/support/postgres.ts): without it, it is
// skipped with a loud message.
import { appendFile, lstat, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import { ContractError } from "@sightline/shared/contract";
import { FileLedger, Ledger, PgLedger, withChargeScope, type Ledger as AnyLedger } from "../../src/ledger/index.js";
import { MIGRATIONS, migrate } from "../../src/ledger/migrations.js";
import { startPostgres } from "../../../test/support/postgres.js";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ledger-"));
  file = join(dir, "ledger.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const server = await startPostgres();
afterAll(() => server?.stop());

interface Backend {
  name: string;
  available: boolean;
  /** A new empty store; `open()` opens another instance on it. */
  fresh(): Promise<{ open(): Promise<AnyLedger>; storedText(): Promise<string> }>;
}

const opened: AnyLedger[] = [];
afterEach(async () => {
  for (const l of opened.splice(0)) await l.close().catch(() => undefined);
});
const track = async (l: Promise<AnyLedger>) => {
  const ledger = await l;
  opened.push(ledger);
  return ledger;
};

const backends: Backend[] = [
  {
    name: "lowdb",
    available: true,
    fresh: async () => ({ open: () => track(FileLedger.open(file)), storedText: () => readFile(file, "utf8") }),
  },
  {
    name: "postgres",
    available: !!server,
    fresh: async () => {
      const url = await server!.database();
      return {
        open: () => track(PgLedger.connect({ url, poolSize: 20 })),
        storedText: async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          try {
            const { rows } = await c.query("SELECT row_to_json(a)::text AS t FROM accounts a");
            return rows.map((r: { t: string }) => r.t).join("\n");
          } finally {
            await c.end();
          }
        },
      };
    },
  },
];

describe.each(backends)("$name ledger", (backend) => {
  const it = test.skipIf(!backend.available);

  it("keys are stored hashed, never in clear", async () => {
    const store = await backend.fresh();
    const l = await store.open();
    const { key } = await l.createAccount({ credits: 5 });
    const text = await store.storedText();
    expect(text).not.toContain(key);
    expect(text).toContain("key_hash");
    expect((await l.authenticate(key))?.credits).toBe(5);
    expect(await l.authenticate(`${key}x`)).toBeNull();
  });

  it("reserve takes credits at once; release refunds; commit keeps", async () => {
    const l = await (await backend.fresh()).open();
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

  it("concurrent reservations never overspend, from two instances at once", async () => {
    const store = await backend.fresh();
    const one = await store.open();
    const two = await store.open();
    const { account, key } = await one.createAccount({ credits: 37 });
    const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).reserve(account.id, 1)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(37);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ContractError);
    expect((await (await store.open()).authenticate(key))?.credits).toBe(0);
  });

  it("two writers (server + admin) keep each other's changes", async () => {
    const store = await backend.fresh();
    const srv = await store.open();
    const { account: a } = await srv.createAccount({ credits: 100 });
    const { account: b, key: keyB } = await srv.createAccount({ credits: 1 });
    const cli = await store.open();
    const charges = Array.from({ length: 50 }, () => srv.reserve(a.id, 1));
    const adminWrites = [cli.setCredits(b.id, 40), cli.createAccount({ credits: 3 }), cli.setActive(a.id, true)];
    await Promise.all([...charges, ...adminWrites]);
    await srv.flush();
    const fresh = await store.open();
    const accounts = await fresh.listAccounts();
    expect(accounts.find((x) => x.id === a.id)?.credits).toBe(50);
    expect(accounts.find((x) => x.id === b.id)?.credits).toBe(40);
    expect(accounts).toHaveLength(3);
    // The server sees the admin's change on its next read.
    expect((await srv.authenticate(keyB))?.credits).toBe(40);
  });

  it("deactivation is enforced at reservation time too", async () => {
    const l = await (await backend.fresh()).open();
    const { account } = await l.createAccount({ credits: 5 });
    await l.setActive(account.id, false);
    await expect(l.reserve(account.id, 1)).rejects.toMatchObject({ status: 403 });
    await expect(l.setCredits("acct_nobody", 1)).rejects.toMatchObject({ status: 401 });
  });

  it("a charge key is applied once, from any instance, and refunded once", async () => {
    const store = await backend.fresh();
    const one = await store.open();
    const two = await store.open();
    const { account, key } = await one.createAccount({ credits: 10 });
    const scope = { key: "idem:test-generation", requestId: "req-1" };
    // The same key charged at the same moment on two instances: one charge.
    const [r1, r2] = await Promise.all([withChargeScope({ ...scope }, () => one.reserve(account.id, 3)), withChargeScope({ ...scope }, () => two.reserve(account.id, 3))]);
    expect((await one.authenticate(key))?.credits).toBe(7);
    expect([r1.remaining, r2.remaining]).toContain(7);
    // Both releases together give back one charge.
    await Promise.all([r1.release(), r2.release()]);
    expect((await two.authenticate(key))?.credits).toBe(10);
    // Once applied, the key is never charged again, even after its refund.
    const again = await withChargeScope({ ...scope }, () => one.reserve(account.id, 3));
    again.commit();
    expect((await one.authenticate(key))?.credits).toBe(10);
    // Other requests are charged as usual.
    (await one.reserve(account.id, 2)).commit();
    expect((await (await store.open()).authenticate(key))?.credits).toBe(8);
  });

  it("many accounts: each charge touches only its own account", async () => {
    const store = await backend.fresh();
    const l = await store.open();
    const made = await Promise.all(Array.from({ length: 300 }, (_, i) => l.createAccount({ credits: i })));
    await Promise.all(made.map(({ account }) => l.reserve(account.id, 1).then((r) => r.commit(), () => undefined)));
    await l.flush();
    const byId = new Map((await (await store.open()).listAccounts()).map((a) => [a.id, a.credits]));
    made.forEach(({ account }, i) => expect(byId.get(account.id)).toBe(Math.max(0, i - 1)));
  }, 30_000); // a few hundred database writes on PostgreSQL

  it("import keeps an account as it was (id, hash, balance) and refuses a duplicate", async () => {
    const src = await FileLedger.open(join(dir, "src.json"));
    const { key, account } = await src.createAccount({ credits: 9, label: "moved" });
    const l = await (await backend.fresh()).open();
    expect(await l.importAccount(account)).toBe(true);
    expect(await l.importAccount(account)).toBe(false);
    expect(await l.authenticate(key)).toMatchObject({ id: account.id, credits: 9, label: "moved", active: true });
  });
});

describe("postgres migrations", () => {
  test.skipIf(!server)("instances starting together apply each migration once; an older build refuses a newer schema", async () => {
    const url = await server!.database();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      const applied = await Promise.all(pools.map((p) => migrate(p)));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version).sort());
      const { rows } = await pools[0].query("SELECT version FROM sightline_migrations ORDER BY version");
      expect(rows.map((r: { version: number }) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await expect(migrate(pools[0], MIGRATIONS.slice(0, 1))).rejects.toThrow(/newer than this Sightline knows/);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  test.skipIf(!server)("a balance can never go below zero, whatever a statement says", async () => {
    const url = await server!.database();
    const l = await track(PgLedger.connect({ url }));
    const { account } = await l.createAccount({ credits: 1 });
    await expect(l.database!.query("UPDATE accounts SET credits = credits - 2 WHERE id = $1", [account.id])).rejects.toMatchObject({ code: "23514" });
  });
});

// ---- the lowdb file: its lock and journal ------------------------------------------------

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
