// bench/scale: /v1/snapshot with the embedded lowdb ledger, with the PostgreSQL ledger on one
// instance, and with PostgreSQL and two instances, side by side in one run.
//   npm run bench:scale                 (builds first; PostgreSQL from Debian, started here)
//   BENCH_QUICK=1 npm run bench:scale   shorter runs
// Each instance is pinned to a core of its own (taskset) with one refinement worker, so one
// pinned instance is compared with two on this 2-core machine; PostgreSQL and the load
// generator are not pinned (they share both cores). Every request is charged (1 credit, 8 keys
// in turn) and rate-limited (the limit set far above the load, so the check runs and never
// refuses). Besides requests/s and latency it reports CPU per request from /proc: the
// instances' and PostgreSQL's, which say what a request costs whatever else runs here.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FileLedger, PgLedger, ledgerFile, type Ledger } from "@sightline/server";
import { makePayload } from "../snapshot/payload.js";
import { Client } from "../snapshot/server.js";
import { startRun } from "../lib/results.mjs";
import { median, quantile } from "../lib/stats.mjs";
import { startPostgres } from "../../test/support/postgres.js";

const QUICK = process.env.BENCH_QUICK === "1";
const SECONDS = QUICK ? 4 : 12;
const CONCURRENCY = 16;
const SERIAL = QUICK ? 150 : 400;
const KEYS = 8;
const MAIN = fileURLToPath(new URL("../../server/dist/main.js", import.meta.url));

const run = startRun("scale", { title: "Sightline on more than one instance: /v1/snapshot with lowdb and PostgreSQL" });
const cores = availableParallelism();

/**
 * `concurrency` clients sending one request after another for `seconds`: the latency of each
 * request that succeeded (`send` resolves true) and how many did not.
 */
async function closedLoop(concurrency: number, seconds: number, send: () => Promise<boolean>): Promise<{ lat: number[]; failed: number }> {
  const lat: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < until) {
      const t = performance.now();
      if (await send()) lat.push(performance.now() - t);
      else failed++;
    }
  }));
  return { lat, failed };
}

/** CPU ms used so far by process `pid` (utime + stime from /proc, 10 ms resolution). */
function cpuOf(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU ms of every `postgres` process (postmaster and backends; those gone are not counted). */
function postgresCpu(): number {
  let total = 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/comm`, "utf8").trim() === "postgres") total += cpuOf(Number(p));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

interface Instance {
  origin: string;
  pid: number;
  proc: ChildProcess;
  dir: string;
}

function startInstance(core: number, env: Record<string, string>): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-scale-"));
  const proc = spawn("taskset", ["-c", String(core % cores), process.execPath, MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      SIGHTLINE_DATA_DIR: dir,
      SIGHTLINE_RATE_LIMIT: "10000000",
      SIGHTLINE_REFINE_WORKERS: "1",
      SIGHTLINE_DEV_KEY: "0",
      SIGHTLINE_LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const origin = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (origin && out.includes("openapi.json")) {
        proc.removeAllListeners("exit");
        resolve({ origin, pid: proc.pid!, proc, dir });
      }
    });
  });
}

async function stop(i: Instance): Promise<void> {
  await new Promise<void>((r) => {
    i.proc.once("exit", () => r());
    i.proc.kill("SIGTERM");
  });
  rmSync(i.dir, { recursive: true, force: true });
}

async function makeKeys(ledger: Ledger): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) keys.push((await ledger.createAccount({ credits: 100_000_000 })).key);
  return keys;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  serialP50: number;
  cpuPerReq: number;
  pgCpuPerReq: number | null;
  failed: number;
}

/** Serial p50 (one request at a time), then CONCURRENCY connections for SECONDS. */
async function measure(instances: Instance[], keys: string[], withPg: boolean): Promise<Measured> {
  const body = JSON.stringify({ ...makePayload(200), goal: undefined });
  const clients = instances.flatMap((inst) => keys.map((k) => new Client(inst.origin, k)));
  let turn = 0;
  const next = () => clients[turn++ % clients.length];
  // Warm up: JIT, worker start, connections, the database's caches.
  const warmUntil = performance.now() + (QUICK ? 1500 : 3000);
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (performance.now() < warmUntil) await next().post(body);
  }));
  const serial: number[] = [];
  for (let i = 0; i < SERIAL; i++) {
    const t = performance.now();
    const r = await next().post(body);
    serial.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body.slice(0, 200)}`);
  }
  const cpu0 = instances.reduce((s, i) => s + cpuOf(i.pid), 0);
  const pg0 = withPg ? postgresCpu() : 0;
  const { lat, failed } = await closedLoop(CONCURRENCY, SECONDS, async () => (await next().post(body)).status === 200);
  const cpu = instances.reduce((s, i) => s + cpuOf(i.pid), 0) - cpu0;
  const pgCpu = withPg ? postgresCpu() - pg0 : null;
  clients.forEach((c) => c.close());
  const done = lat.length + failed;
  return {
    rps: lat.length / SECONDS,
    p50: median(lat),
    p99: quantile(lat, 0.99),
    serialP50: median(serial),
    cpuPerReq: cpu / Math.max(1, done),
    pgCpuPerReq: pgCpu === null ? null : pgCpu / Math.max(1, done),
    failed,
  };
}

const pg = await startPostgres();
if (!pg) throw new Error("bench/scale needs PostgreSQL (node .ci/setup.mjs --postgres)");
const results: [string, number, Measured][] = [];
try {
  // 1. lowdb, one instance on core 0.
  {
    const one = await startInstance(0, {});
    const file = await FileLedger.open(ledgerFile(one.dir));
    const keys = await makeKeys(file);
    await file.close();
    results.push(["lowdb (embedded default)", 1, await measure([one], keys, false)]);
    await stop(one);
  }
  // 2. PostgreSQL, one instance on core 0.
  {
    const url = await pg.database();
    const one = await startInstance(0, { SIGHTLINE_DATABASE_URL: url });
    const admin = await PgLedger.connect({ url, poolSize: 1 });
    const keys = await makeKeys(admin);
    results.push(["PostgreSQL", 1, await measure([one], keys, true)]);
    await stop(one);
    await admin.close();
  }
  // 3. PostgreSQL, two instances on cores 0 and 1.
  {
    const url = await pg.database();
    const two = await Promise.all([startInstance(0, { SIGHTLINE_DATABASE_URL: url }), startInstance(1, { SIGHTLINE_DATABASE_URL: url })]);
    const admin = await PgLedger.connect({ url, poolSize: 1 });
    const keys = await makeKeys(admin);
    results.push(["PostgreSQL", 2, await measure(two, keys, true)]);
    await Promise.all(two.map(stop));
    await admin.close();
  }
} finally {
  await pg.stop();
}

const [low, pg1, pg2] = results.map((r) => r[2]);
const scaling = pg2.rps / pg1.rps;
const overhead = pg1.serialP50 - low.serialP50;
run.figure("snapshot", {
  lowdb_rps: low.rps,
  pg1_rps: pg1.rps,
  pg2_rps: pg2.rps,
  two_vs_one: scaling,
  pg_overhead_p50_ms: overhead,
  pg_cpu_ms_per_request: pg1.pgCpuPerReq,
});
run.table({
  id: "snapshot",
  title: `/v1/snapshot, 200 elements, every request charged: ${CONCURRENCY} keep-alive connections for ${SECONDS} s (latency at that load), and one at a time (serial p50)`,
  columns: [
    "ledger",
    { label: "instances", format: "int" },
    { label: "requests/s", format: "int" },
    { label: "p50 ms", format: "auto" },
    { label: "p99 ms", format: "auto" },
    { label: "serial p50 ms", format: "auto" },
    { label: "instance CPU ms / request", format: "auto" },
    { label: "PostgreSQL CPU ms / request", format: "auto" },
    { label: "failed", format: "int" },
  ],
  rows: results.map(([name, n, m]) => [name, n, m.rps, m.p50, m.p99, m.serialP50, m.cpuPerReq, m.pgCpuPerReq, m.failed]),
  note: "Each instance pinned to its own core (taskset) with SIGHTLINE_REFINE_WORKERS=1; PostgreSQL and the load generator share both cores with them.",
});
run.table({
  id: "targets",
  title: "Targets (issue 20)",
  columns: ["target", "measured", "met"],
  rows: [
    ["two instances on PostgreSQL ≥ 1.5× one instance's requests/s", `${scaling.toFixed(2)}×`, scaling >= 1.5 ? "yes" : "no"],
    ["PostgreSQL adds ≤ 1 ms per charged request at p50 (serial, one instance)", `${overhead.toFixed(2)} ms`, overhead <= 1 ? "yes" : "no"],
  ],
});
// ---- Observe renders: local Chromium against two browser servers ----------------------------
const SERVE = fileURLToPath(new URL("../../server/dist/browser/serve.js", import.meta.url));
const RENDER_SECONDS = QUICK ? 10 : 30;

function startBrowserServer(core: number): Promise<{ endpoint: string; proc: ChildProcess }> {
  const proc = spawn("taskset", ["-c", String(core % cores), process.execPath, SERVE], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", PORT: "0", CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`browser server exited ${code}: ${out}`)));
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const endpoint = /(ws:\/\/\S+)/.exec(out)?.[1];
      if (endpoint) {
        proc.removeAllListeners("exit");
        resolve({ endpoint, proc });
      }
    });
  });
}

/** A static page a render has some work on (nav, a form, a list), served on loopback. */
const pageServer = createServer((_req, res) => {
  const items = Array.from({ length: 60 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a> <button>Add ${i}</button></li>`).join("");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Catalogue</title><nav><a href="/">Home</a> <a href="/help">Help</a></nav><form><label>Search <input name="q"></label><button>Go</button></form><ul>${items}</ul>`);
});
await new Promise<void>((r) => pageServer.listen(0, "127.0.0.1", r));
const pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;

async function renders(inst: Instance, key: string, concurrency: number): Promise<{ rps: number; p50: number; failed: number }> {
  const body = JSON.stringify({ url: pageUrl, mode: "map" });
  const call = async () => {
    const r = await fetch(`${inst.origin}/v1/observe`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
    await r.arrayBuffer();
    return r.status;
  };
  for (let i = 0; i < concurrency; i++) await call(); // warm: browser start, contexts
  const { lat, failed } = await closedLoop(concurrency, RENDER_SECONDS, async () => (await call()) === 200);
  return { rps: lat.length / RENDER_SECONDS, p50: median(lat), failed };
}

const renderRows: (string | number)[][] = [];
{
  const common = { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1", SIGHTLINE_BROWSER_SPARES: "0" };
  // Local Chromium: the instance launches its own (its renderers are not pinned).
  const local = await startInstance(0, common);
  const ledgerL = await FileLedger.open(ledgerFile(local.dir));
  const [keyL] = [(await ledgerL.createAccount({ credits: 100_000_000 })).key];
  await ledgerL.close();
  const l = await renders(local, keyL, 4);
  renderRows.push(["local Chromium (launched by the instance)", l.rps, l.p50, l.failed]);
  await stop(local);
  // Two browser servers, one per core, the instance spreading renders over them.
  const servers = await Promise.all([startBrowserServer(0), startBrowserServer(1)]);
  const remote = await startInstance(0, { ...common, SIGHTLINE_BROWSER_ENDPOINTS: servers.map((b) => b.endpoint).join(",") });
  const ledgerR = await FileLedger.open(ledgerFile(remote.dir));
  const keyR = (await ledgerR.createAccount({ credits: 100_000_000 })).key;
  await ledgerR.close();
  const r = await renders(remote, keyR, 4);
  renderRows.push(["two browser servers (SIGHTLINE_BROWSER_ENDPOINTS)", r.rps, r.p50, r.failed]);
  await stop(remote);
  for (const b of servers) b.proc.kill("SIGTERM");
}
pageServer.close();
run.table({
  id: "renders",
  title: `POST /v1/observe (map) of a loopback page, 4 concurrent clients for ${RENDER_SECONDS} s`,
  columns: ["browsers", { label: "renders/s", format: "auto" }, { label: "p50 ms", format: "auto" }, { label: "failed", format: "int" }],
  rows: renderRows,
  note: "This machine has 2 cores: the browser servers share them with the instance, so the comparison shows the remote path's cost, not the gain of more machines.",
});
run.write();
