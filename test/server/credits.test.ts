// Credit accounting: concurrent requests never overspend or lose a charge, balances survive a
// restart and a kill -9 mid-write, and the admin CLI (another process) can change accounts
// while the server runs without either side overwriting the other.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Ledger, ledgerFile } from "@sightline/server";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { call, expectError, page } from "./http.js";
import { admin, exited, SKIP_UNBUILT, startChild } from "./process.js";

/** Balances as a new process reads them from the data dir (checkpoint + journal). */
const balancesOnDisk = async (dataDir: string) => (await Ledger.open(ledgerFile(dataDir))).accounts().map((a) => a.credits);

const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), "sightline-credits-"));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("200 concurrent requests from several keys", () => {
  let sl: Sightline;
  beforeAll(async () => {
    sl = await startSightline();
  });
  afterAll(() => sl.close());

  test("exact final balances; keys that run out are never overspent", async () => {
    // [credits, requests]: two keys have enough, two run out half-way.
    const plan: [number, number][] = [[100, 60], [50, 50], [20, 50], [10, 40]];
    const keys = await Promise.all(plan.map(([credits]) => sl.createKey(credits)));
    const jobs = plan.flatMap(([, n], k) => Array.from({ length: n }, () => k));
    jobs.sort(() => Math.random() - 0.5); // interleave the keys
    expect(jobs).toHaveLength(200);
    const replies = await Promise.all(jobs.map((k) => call(sl.origin, "/v1/snapshot", { key: keys[k], body: page(5) }).then((r) => ({ k, r }))));

    for (let k = 0; k < plan.length; k++) {
      const [credits, n] = plan[k];
      const mine = replies.filter((x) => x.k === k).map((x) => x.r);
      const ok = mine.filter((r) => r.status === 200);
      const refused = mine.filter((r) => r.status !== 200);
      expect(ok).toHaveLength(Math.min(credits, n));
      for (const r of refused) expect(expectError(r, 402, "Insufficient credits").credits_remaining).toBe(0);
      // Each success saw a different balance: no credit was spent twice.
      const seen = ok.map((r) => r.body.credits_remaining as number).sort((a, b) => a - b);
      expect(seen).toEqual(Array.from({ length: ok.length }, (_, i) => credits - ok.length + i));
      expect(await sl.credits(keys[k])).toBe(credits - ok.length);
    }
    // And the files on disk say the same (a fresh reader, as after a restart).
    expect((await balancesOnDisk(sl.dataDir)).sort((a, b) => a - b)).toEqual([0, 0, 0, 40]);
  });
});

test("a restart with the same data dir keeps balances and keys", async () => {
  const dataDir = await tempDir();
  const first = await startSightline({ dataDir });
  const key = await first.createKey(5);
  for (let i = 0; i < 3; i++) expect((await call(first.origin, "/v1/snapshot", { key, body: page(2) })).status).toBe(200);
  await first.close();

  const second = await startSightline({ dataDir });
  try {
    expect(await second.credits(key)).toBe(2);
    const r = await call(second.origin, "/v1/snapshot", { key, body: page(2) });
    expect(r.body.credits_remaining).toBe(1);
  } finally {
    await second.close();
  }
});

// Child processes start slowly on a loaded 2-core machine (each loads the whole server).
describe.skipIf(SKIP_UNBUILT)("child processes (built server)", { timeout: 180_000 }, () => {
  test("kill -9 in the middle of writes leaves a readable ledger that a restart uses; SIGTERM exits cleanly", async () => {
    const dataDir = await tempDir();
    const child = await startChild(dataDir);
    let sent = 0;
    let ok = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        sent++;
        try {
          const r = await call(child.origin, "/v1/snapshot", { key: child.devKey, body: page(3) });
          if (r.status === 200) ok++;
        } catch {
          return; // the server died under us
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    while (sent < 60) await new Promise((r) => setTimeout(r, 5));
    child.proc.kill("SIGKILL");
    stop = true;
    await Promise.all(workers);
    await exited(child.proc);

    const [left] = await balancesOnDisk(dataDir);
    // Every acknowledged success is on disk; at most the in-flight ones are charged beyond that.
    expect(left).toBeLessThanOrEqual(1000 - ok);
    expect(left).toBeGreaterThanOrEqual(1000 - sent);

    // A new process takes over the stale lock and goes on from the same balance with the same key.
    const again = await startChild(dataDir);
    try {
      expect(again.devKey).toBe(child.devKey);
      const r = await call(again.origin, "/v1/snapshot", { key: again.devKey, body: page(3) });
      expect(r.body.credits_remaining).toBe(left - 1);
      expect((await admin(dataDir, "credits", again.devKey)).at(-1)).toBe(String(left - 1));
    } finally {
      again.proc.kill("SIGTERM");
      await exited(again.proc);
    }
    // SIGTERM is a clean shutdown (exit 0), not the default abrupt kill.
    expect(again.proc.exitCode, `${again.proc.signalCode} ${again.output()}`).toBe(0);
  });

  test("admin CLI while the server runs: both sides' changes are kept", async () => {
    const dataDir = await tempDir();
    const sl = await startSightline({ dataDir });
    try {
      // create-key prints the key as the last line; the running server accepts it at once.
      const created = await admin(dataDir, "create-key", "--credits", "3");
      const cliKey = created.at(-1)!;
      expect(cliKey).toMatch(/^sl_[\w-]{20,}$/);
      const first = await call(sl.origin, "/v1/snapshot", { key: cliKey, body: page(2) });
      expect(first.body.credits_remaining).toBe(2);
      expect(await admin(dataDir, "credits", cliKey)).toEqual(["2"]);

      // The server charges key A while the CLI rewrites key B and creates more keys.
      const a = await sl.createKey(300);
      const b = await sl.createKey(1);
      const traffic = Promise.all(Array.from({ length: 80 }, () => call(sl.origin, "/v1/snapshot", { key: a, body: page(2) })));
      const cli = (async () => {
        await admin(dataDir, "set-credits", b, "50");
        await admin(dataDir, "create-key", "--credits", "9", "--inactive");
        await admin(dataDir, "set-credits", cliKey, "40");
      })();
      const [replies] = await Promise.all([traffic, cli]);
      const ok = replies.filter((r) => r.status === 200).length;
      expect(ok).toBe(80);
      expect(await sl.credits(a)).toBe(220); // no charge lost to the CLI's writes
      expect(await sl.credits(b)).toBe(50); // the CLI's write not overwritten by the server's
      expect(await sl.credits(cliKey)).toBe(40);
      expect(await admin(dataDir, "credits", a)).toEqual(["220"]);

      // deactivate / activate take effect on the next request.
      await admin(dataDir, "deactivate", a);
      expect(expectError(await call(sl.origin, "/v1/snapshot", { key: a, body: page(2) }), 403).credits_remaining).toBe(220);
      await admin(dataDir, "activate", a);
      expect((await call(sl.origin, "/v1/snapshot", { key: a, body: page(2) })).status).toBe(200);

      // set-credits 0 → the server answers 402.
      await admin(dataDir, "set-credits", b, "0");
      expectError(await call(sl.origin, "/v1/snapshot", { key: b, body: page(2) }), 402);
    } finally {
      await sl.close();
    }
  });

  test("admin CLI errors: unknown key exits 1, bad usage exits 2", async () => {
    const dataDir = await tempDir();
    await expect(admin(dataDir, "credits", "sl_nope")).rejects.toMatchObject({ code: 1 });
    await expect(admin(dataDir, "create-key", "--credits", "-5")).rejects.toMatchObject({ code: 2 });
    await expect(admin(dataDir, "frobnicate")).rejects.toMatchObject({ code: 2 });
  });
});
