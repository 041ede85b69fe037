// Idempotency-Key on both ledgers (lowdb in the data dir, PostgreSQL): the same key sent twice,
// concurrently, after a restart, and after the first attempt died mid-request, is charged once
// and answered with the first answer (byte for byte) or its error.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { withChargeScope, type ServerConfig } from "@sightline/server";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { startPostgres } from "../support/postgres.js";
import { page } from "./http.js";

const pgServer = await startPostgres();
const dirs: string[] = [];
afterAll(async () => {
  await pgServer?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const backends = [
  { name: "lowdb", available: true, config: async (): Promise<Partial<ServerConfig>> => ({}) },
  { name: "postgres", available: !!pgServer, config: async (): Promise<Partial<ServerConfig>> => ({ databaseUrl: await pgServer!.database() }) },
];

interface Sent {
  status: number;
  text: string;
  replayed: boolean;
}

async function send(sl: Sightline, key: string, idem: string | null, body: unknown): Promise<Sent> {
  const headers: Record<string, string> = sl.headers(key);
  if (idem) headers["idempotency-key"] = idem;
  const res = await fetch(`${sl.origin}/v1/snapshot`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text(), replayed: res.headers.get("idempotent-replayed") === "true" };
}

describe.each(backends)("Idempotency-Key on the $name ledger", (backend) => {
  const it = test.skipIf(!backend.available);

  it("sent twice, then five at once: one charge each, the first answer every time", async () => {
    const sl = await startSightline({ config: await backend.config() });
    try {
      const key = await sl.createKey(10);
      const first = await send(sl, key, "order-1", page(3));
      expect(first.status).toBe(200);
      expect(first.replayed).toBe(false);
      const again = await send(sl, key, "order-1", page(3));
      expect(again).toEqual({ ...first, replayed: true }); // same bytes (timestamp included)
      expect(await sl.credits(key)).toBe(9);

      const burst = await Promise.all(Array.from({ length: 5 }, () => send(sl, key, "order-2", page(4))));
      expect(new Set(burst.map((b) => b.text)).size).toBe(1);
      expect(burst.filter((b) => !b.replayed)).toHaveLength(1);
      expect(await sl.credits(key)).toBe(8);

      // Without a key every request is its own charge, as before.
      await send(sl, key, null, page(3));
      await send(sl, key, null, page(3));
      expect(await sl.credits(key)).toBe(6);

      // The same key for another request is refused; another account's same key is its own.
      const other = await send(sl, key, "order-1", page(5));
      expect(other.status).toBe(400);
      expect(JSON.parse(other.text).error).toMatch(/already used with a different request/);
      const key2 = await sl.createKey(1);
      expect((await send(sl, key2, "order-1", page(3))).replayed).toBe(false);
      expect(await sl.credits(key2)).toBe(0);

      // An error is kept too: an invalid request's 400 comes back, and charges nothing.
      const bad = await send(sl, key, "order-3", { url: "https://x.example/" });
      expect(bad.status).toBe(400);
      const badAgain = await send(sl, key, "order-3", { url: "https://x.example/" });
      expect(badAgain.status).toBe(400);
      expect(badAgain.replayed).toBe(true);
      expect(JSON.parse(badAgain.text).error).toBe(JSON.parse(bad.text).error);
      expect(await sl.credits(key)).toBe(6);

      // A malformed key is a 400 before anything runs.
      expect((await send(sl, key, "bad key with spaces", page(3))).status).toBe(400);
    } finally {
      await sl.close();
    }
  });

  it("after a restart the first answer is still there; a first attempt that died is not charged again", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "sightline-idem-"));
    dirs.push(dataDir);
    const config = await backend.config();
    let sl = await startSightline({ dataDir, config });
    const key = await sl.createKey(10);
    const first = await send(sl, key, "k-restart", page(2));
    expect(first.status).toBe(200);

    // An attempt that charged and then died before answering: its claim is left running with
    // an owner that is gone (a process id / an instance id that holds no lock), its charge made.
    const account = (await sl.server.ledger.authenticate(key))!;
    const body = JSON.stringify(page(6));
    const fp = createHash("sha256").update("POST /v1/snapshot\n").update(body).digest("hex");
    const claim = await sl.server.ledger.idempotency.claim(account.id, "k-died", fp);
    if (claim.state !== "claimed") throw new Error("expected a fresh claim");
    (await withChargeScope({ key: `idem:${claim.generation}` }, () => sl.server.ledger.reserve(account.id, 1))).commit();
    await sl.server.ledger.flush();
    expect(await sl.credits(key)).toBe(8);
    await sl.close();

    sl = await startSightline({ dataDir, config });
    try {
      if (backend.name === "lowdb") {
        // The dead attempt's owner was this test process, alive: make it a pid that is gone.
        const { readdirSync, readFileSync, writeFileSync } = await import("node:fs");
        const dir = join(dataDir, "idempotency");
        for (const f of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
          const rec = JSON.parse(readFileSync(join(dir, f), "utf8"));
          if (rec.state === "running") writeFileSync(join(dir, f), JSON.stringify({ ...rec, owner: 2 ** 22 + 12345 }));
        }
      } else {
        await sl.server.ledger.database!.query("UPDATE idempotency SET owner = 1 WHERE state = 'running'");
      }
      const replayed = await send(sl, key, "k-restart", page(2));
      expect(replayed).toEqual({ ...first, replayed: true });
      const retried = await fetch(`${sl.origin}/v1/snapshot`, { method: "POST", headers: { ...sl.headers(key), "idempotency-key": "k-died" }, body });
      expect(retried.status).toBe(200);
      expect(retried.headers.get("idempotent-replayed")).toBeNull(); // run again (nothing was kept)...
      expect(await sl.credits(key)).toBe(8); // ...but not charged again
      const thirdTime = await send(sl, key, "k-died", JSON.parse(body));
      expect(thirdTime.replayed).toBe(true);
      expect(await sl.credits(key)).toBe(8);
    } finally {
      await sl.close();
    }
  });
});
