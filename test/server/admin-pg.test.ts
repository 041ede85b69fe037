// The admin CLI against PostgreSQL (SIGHTLINE_DATABASE_URL), unchanged commands, and
// `import-file`: a lowdb ledger (with charges still in its journal) moved into PostgreSQL, the
// same keys keeping their balances, and a second run moving nothing.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { FileLedger, PgLedger, ledgerFile } from "@sightline/server";
import { startPostgres } from "../support/postgres.js";
import { ADMIN_JS, SKIP_UNBUILT, requireBuild } from "./process.js";

const pgServer = SKIP_UNBUILT ? null : await startPostgres();
const dirs: string[] = [];
afterAll(async () => {
  await pgServer?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string[]; err: string }> {
  requireBuild();
  return new Promise((resolve) => {
    execFile(process.execPath, [ADMIN_JS, ...args], { env: { PATH: process.env.PATH ?? "", ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout.trimEnd().split("\n"), err: stderr });
    });
  });
}

test.skipIf(!pgServer)("admin commands work on PostgreSQL; import-file moves a lowdb ledger and says what it moved", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-admin-pg-"));
  dirs.push(dataDir);
  const url = await pgServer!.database();
  const env = { SIGHTLINE_DATABASE_URL: url, SIGHTLINE_DATA_DIR: dataDir };

  // A lowdb ledger in use: two accounts, charges in the journal (not yet checkpointed).
  const file = await FileLedger.open(ledgerFile(dataDir));
  const a = await file.createAccount({ credits: 50, label: "team a" });
  const b = await file.createAccount({ credits: 7, active: false });
  for (let i = 0; i < 3; i++) (await file.reserve(a.account.id, 2)).commit();
  await file.flush();

  // Without a database there is nothing to import into.
  expect((await admin({ SIGHTLINE_DATA_DIR: dataDir }, "import-file")).code).toBe(2);

  const imported = await admin(env, "import-file");
  expect(imported.code, imported.err).toBe(0);
  expect(imported.out.filter((l) => /^moved\s+acct_/.test(l))).toHaveLength(2);
  expect(imported.out.join("\n")).toContain("moved 2 of 2 accounts (51 credits in all)");

  const again = await admin(env, "import-file", ledgerFile(dataDir));
  expect(again.out.join("\n")).toContain("moved 0 of 2 accounts (0 credits in all)");
  expect(again.out.join("\n")).toContain("2 already there");

  // The same keys, the same balances, in PostgreSQL; the usual commands work there.
  expect((await admin(env, "credits", a.key)).out).toEqual(["44"]);
  expect((await admin(env, "set-credits", b.key, "12")).out).toEqual(["12"]);
  expect((await admin(env, "activate", b.key)).code).toBe(0);
  const created = await admin(env, "create-key", "--credits", "5", "--label", "new");
  expect(created.out[0]).toMatch(/^account acct_\S+: 5 credits, active \(PostgreSQL\)$/);
  const list = await admin(env, "list");
  expect(list.out).toHaveLength(3);
  expect(list.out.find((l) => l.includes(a.account.id))).toMatch(/active\s+44\s+team a$/);

  const pg = await PgLedger.connect({ url });
  try {
    expect(await pg.authenticate(b.key)).toMatchObject({ active: true, credits: 12 });
    expect(await pg.authenticate(created.out.at(-1)!)).toMatchObject({ credits: 5, label: "new" });
  } finally {
    await pg.close();
  }
});
