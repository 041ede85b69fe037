// The internal hop between instances (/internal/v1/*, routes/cluster.ts) acts on any account's
// tabs and MCP sessions on the word of the instance that relays, so only an instance may use
// it: without the cluster secret, or with a wrong one, every internal route is 401 before it
// reads a body or touches a tab; repeated failures are cut off (429) like failed API keys;
// with the secret it works; and on one instance without a database the routes do not exist.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PgLedger, startServer, type RunningServer } from "@sightline/server";
import { startPostgres, type PgServer } from "../support/postgres.js";

const pgServer: PgServer | null = await startPostgres();
const HEADER = "sightline-cluster-auth";
const PATHS = ["/internal/v1/bridge/call", "/internal/v1/bridge/release", "/internal/v1/mcp"];

describe.skipIf(!pgServer)("the internal hop between instances", () => {
  let sl: RunningServer;
  let single: RunningServer;
  let secret: string;
  let account: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    const url = await pgServer!.database();
    const dir = await mkdtemp(join(tmpdir(), "sightline-hop-"));
    const dir2 = await mkdtemp(join(tmpdir(), "sightline-hop-file-"));
    dirs.push(dir, dir2);
    const quiet = { logLevel: "silent" as const, refineWorkers: 0, authFailuresPerMinute: 12 };
    sl = await startServer({ port: 0, dataDir: dir, databaseUrl: url, ...quiet }, {});
    single = await startServer({ port: 0, dataDir: dir2, ...quiet }, {});
    const { rows } = await (sl.ledger as PgLedger).database.query<{ value: string }>("SELECT value FROM settings WHERE name = 'cluster_secret'");
    secret = rows[0].value;
    account = (await sl.ledger.createAccount({ credits: 10 })).account.id;
  });
  afterAll(async () => {
    await sl?.close();
    await single?.close();
    await pgServer?.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  const call = (origin: string, path: string, headers: Record<string, string>, body: unknown = { account, session: "s", handle: "b1.1", op: "capture", args: {} }) =>
    fetch(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json", "sightline-account": account, ...headers }, body: JSON.stringify(body) });

  test("every internal route refuses a request without the secret or with a wrong one (401)", async () => {
    for (const path of PATHS) {
      const none = await call(sl.origin, path, {});
      expect(none.status, path).toBe(401);
      expect(await none.json()).toMatchObject({ error: "unauthorized" });
      // Same length, one character off: still refused (compared in constant time).
      const wrong = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
      expect((await call(sl.origin, path, { [HEADER]: wrong })).status, path).toBe(401);
      // An API key is not the cluster secret.
      expect((await call(sl.origin, path, { authorization: `Bearer ${secret}` })).status, path).toBe(401);
    }
  });

  test("with the secret a relayed call is answered (here: no browser connected), as a result line", async () => {
    const r = await call(sl.origin, "/internal/v1/bridge/call", { [HEADER]: secret });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/ndjson/);
    const last = JSON.parse((await r.text()).trim().split("\n").at(-1)!);
    expect(last).toMatchObject({ type: "result", ok: false, error: { code: "not_connected" } });
    // A malformed call is refused, not run.
    expect((await call(sl.origin, "/internal/v1/bridge/call", { [HEADER]: secret }, { account, op: "rm -rf" })).status).toBe(400);
  });

  test("failed attempts are cut off like failed API keys (429 with Retry-After)", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 8; i++) last = await call(sl.origin, "/internal/v1/bridge/release", { [HEADER]: "guess" });
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("one instance on the file ledger has no internal routes (404)", async () => {
    for (const path of PATHS) expect((await call(single.origin, path, { [HEADER]: secret })).status, path).toBe(404);
  });
});
