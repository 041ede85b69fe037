// Several Sightline instances sharing one PostgreSQL (what a deployment behind a load balancer
// is): three `server/dist/main.js` processes on loopback with the same SIGHTLINE_DATABASE_URL.
// - 300 concurrent charged requests from several keys, spread over them: exact balances.
// - One instance killed with SIGKILL mid-load, clients retrying with their Idempotency-Key on
//   another instance: every request answered once and charged once, nothing lost.
// - A key's rate limit holds across instances (in total, not per instance).
// - A screenshot link made by one instance is served by another; /ready on each.
// Needs Debian's PostgreSQL (skipped loudly without) and the built server.
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PgLedger } from "@sightline/server";
import { startPostgres, type PgServer } from "../support/postgres.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { page } from "./http.js";
import { exited, SKIP_UNBUILT, startChild, type ChildServer } from "./process.js";

const FIXTURES = fileURLToPath(new URL("../observe/fixtures", import.meta.url));
const RATE = 120; // per key per minute: above what the load tests send per key

const pgServer: PgServer | null = SKIP_UNBUILT ? null : await startPostgres();

describe.skipIf(!pgServer)("three instances on one PostgreSQL", () => {
  let url: string;
  let admin: PgLedger;
  let site: StaticServer;
  const dirs: string[] = [];
  const children: ChildServer[] = [];

  const start = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "sightline-inst-"));
    dirs.push(dataDir);
    const child = await startChild(dataDir, {
      SIGHTLINE_DATABASE_URL: url,
      SIGHTLINE_RATE_LIMIT: String(RATE),
      SIGHTLINE_REFINE_WORKERS: "0", // inline: three instances' worker threads would only slow the start
      SIGHTLINE_BROWSER_SPARES: "0",
      SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
      SIGHTLINE_DEV_CREDITS: "0",
    });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    url = await pgServer!.database();
    site = await serveStatic(FIXTURES);
    // Started together: their migrations meet under the advisory lock.
    await Promise.all([start(), start(), start()]);
    admin = await PgLedger.connect({ url, poolSize: 2 });
  });
  afterAll(async () => {
    for (const c of children) c.proc.kill("SIGKILL");
    await Promise.all(children.map((c) => exited(c.proc)));
    await admin?.close();
    await site?.close();
    await pgServer?.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  // A connection per request (no keep-alive): a pooled connection the server is closing as it
  // idles would fail a POST that the client cannot retry on its own (undici's "other side closed").
  interface Answer {
    status: number;
    headers: { get(name: string): string | null };
    arrayBuffer(): Promise<ArrayBuffer>;
  }
  const post = (origin: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const data = Buffer.from(JSON.stringify(body));
      const req = request(
        `${origin}/v1/snapshot`,
        { method: "POST", agent: false, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": data.length, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const buf = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: { get: (n) => (res.headers[n.toLowerCase()] as string | undefined) ?? null },
              arrayBuffer: async () => buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length) as ArrayBuffer,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(data);
    });
  // A fresh connection per call (agent: false): a kept-alive socket the instance closes after
  // its keep-alive timeout races the next request on a loaded machine ("other side closed").
  const get = (url: string): Promise<{ status: number; json(): unknown }> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(text) as unknown });
        });
      });
      req.on("error", reject);
      req.end();
    });
  const balance = async (key: string) => (await admin.authenticate(key))!.credits;

  test("300 concurrent charged requests from six keys over three instances: exact balances", async () => {
    const plan: [number, number][] = [[100, 50], [60, 50], [50, 50], [30, 50], [10, 50], [0, 50]];
    const keys = await Promise.all(plan.map(async ([credits]) => (await admin.createAccount({ credits })).key));
    const jobs = plan.flatMap(([, n], k) => Array.from({ length: n }, () => k)).sort(() => Math.random() - 0.5);
    const statuses = await Promise.all(jobs.map((k, i) => post(children[i % 3].origin, keys[k], page(4)).then(async (r) => (await r.arrayBuffer(), { k, s: r.status }))));
    plan.forEach(([credits, n], k) => {
      const mine = statuses.filter((x) => x.k === k);
      expect(mine.filter((x) => x.s === 200)).toHaveLength(Math.min(credits, n));
      expect(mine.filter((x) => x.s === 402)).toHaveLength(Math.max(0, n - credits));
    });
    expect(await Promise.all(keys.map(balance))).toEqual(plan.map(([credits, n]) => Math.max(0, credits - n)));
  });

  test("a key's rate limit holds in total across instances", async () => {
    const { key } = await admin.createAccount({ credits: 1000 });
    const total = RATE + 60; // per-instance buckets would let all of them through (3 × RATE)
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: total }, (_, i) => post(children[i % 3].origin, key, page(1)).then(async (r) => (await r.arrayBuffer(), r))));
    const seconds = (performance.now() - started) / 1000;
    const passed = replies.filter((r) => r.status === 200).length;
    const limited = replies.filter((r) => r.status === 429);
    // One bucket for the key: the burst (RATE) plus what refilled while it ran (RATE/60 a second).
    expect(passed).toBeGreaterThanOrEqual(RATE);
    expect(passed).toBeLessThanOrEqual(RATE + Math.ceil((seconds * RATE) / 60) + 1);
    expect(limited.length).toBe(total - passed);
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await balance(key)).toBe(1000 - passed);
  });

  test("a screenshot link made by one instance is served by another; /ready says ready", async () => {
    const { key } = await admin.createAccount({ credits: 100 });
    const [a, b] = children;
    const res = await fetch(`${a.origin}/v1/observe`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: site.url("/form.html"), mode: "visual", render_quality: "performance" }),
    });
    const json = (await res.json()) as { screenshot: { type: string; url: string } };
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(json.screenshot.type).toBe("url");
    const link = new URL(json.screenshot.url);
    expect(link.origin).toBe(a.origin);
    const img = await fetch(`${b.origin}${link.pathname}${link.search}`);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect((await img.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // A tampered link is refused on every instance.
    const forged = await fetch(`${b.origin}${link.pathname}${link.search.replace(/sig=./, "sig=A")}`);
    expect(forged.status).toBe(403);

    const ready = await fetch(`${a.origin}/ready`);
    expect(await ready.json()).toMatchObject({ status: "ready", ledger: "postgres", database: "ok", browser: "ok" });
    expect(ready.status).toBe(200);
  });

  test("one instance killed with SIGKILL mid-load: every request answered once, charged once", async () => {
    const total = 150;
    // Three keys, so the rate limit (RATE a minute per key) is not what this measures.
    const keys = await Promise.all([0, 1, 2].map(async () => (await admin.createAccount({ credits: 1000 })).key));
    const victim = children[2];
    let answered = 0;
    let retried = 0;
    const alive = () => children.filter((c) => c.proc.exitCode === null && c.proc.signalCode === null);
    // A client that retries a failed connection on another instance, with the same key.
    const one = async (i: number) => {
      for (let attempt = 0; ; attempt++) {
        const targets = alive();
        const target = targets[(i + attempt) % targets.length];
        try {
          const r = await post(target.origin, keys[i % 3], page(3), { "idempotency-key": `job-${i}` });
          await r.arrayBuffer();
          if (++answered === 40) victim.proc.kill("SIGKILL");
          return r.status;
        } catch {
          retried++;
          if (attempt > 5) throw new Error(`request ${i} failed ${attempt + 1} times`);
        }
      }
    };
    // 30 at a time, so requests are in flight on the victim when it dies.
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 30 }, async () => {
        while (next < total) statuses.push(await one(next++));
      }),
    );
    await exited(victim.proc);
    expect(victim.proc.signalCode).toBe("SIGKILL");
    expect(statuses.filter((s) => s === 200)).toHaveLength(total);
    expect(await Promise.all(keys.map(balance))).toEqual([950, 950, 950]);
    // The charge rows agree with the balances: nothing lost, nothing twice.
    const ids = await Promise.all(keys.map(async (k) => (await admin.authenticate(k))!.id));
    const { rows } = await admin.database.query<{ charged: number; refunded: number }>(
      `SELECT coalesce(sum(c.credits), 0)::int AS charged, coalesce(sum(c.credits) FILTER (WHERE r.key IS NOT NULL), 0)::int AS refunded
       FROM charges c LEFT JOIN refunds r ON r.key = c.key WHERE c.account_id = ANY($1)`,
      [ids],
    );
    expect(rows[0].charged - rows[0].refunded).toBe(total);
    process.stderr.write(`instances.test.ts: SIGKILL mid-load: ${retried} connections retried elsewhere, ${total} answered, ${total} charged\n`);
  });

  test("/ready says not ready when the database is gone; /health stays up", async () => {
    const a = children[0];
    await pgServer!.stop();
    const ready = await get(`${a.origin}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({ status: "not_ready", database: expect.stringMatching(/^unreachable/) });
    expect((await get(`${a.origin}/health`)).status).toBe(200);
  });
});
