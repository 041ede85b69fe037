// bench/observe: what /v1/observe costs on the pooled Chromium, each figure beside its
// comparison measured in the same run (a loaded machine shifts both sides).
//   npm run bench:observe               BENCH_QUICK=1 npm run bench:observe   (fewer repetitions)
//   BENCH_ONLY=spares npm run bench:observe   (one section: coldwarm, spares, collector, engines, throughput;
//                                              its results go to bench/results/observe-<section>.json)
// Prints: the collector's share of a map request on a 5,000-element page; read/map latency cold
// (first request, Chromium launch included) and warm; warm latency and throughput with spare
// contexts on vs off (SIGHTLINE_BROWSER_SPARES=2 vs 0, two servers side by side); throughput
// with 1, 2 and 4 concurrent clients; performance vs precision latency and how many of
// precision's elements performance also finds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "@sightline/server";
import { serveBenchPages, type BenchSite } from "./pages.js";
import { startRun } from "../lib/results.mjs";
import { median, ratio } from "../lib/stats.mjs";

const QUICK = process.env.BENCH_QUICK === "1";
const ONLY = process.env.BENCH_ONLY;
const section = (name: string) => !ONLY || ONLY === name;
const REPS = QUICK ? 3 : 7;
const run = startRun(ONLY ? `observe-${ONLY}` : "observe", { title: ONLY ? `POST /v1/observe: ${ONLY} only` : "POST /v1/observe: latency, spares, engines, throughput" });

interface Booted {
  server: RunningServer;
  key: string;
  dir: string;
}

async function boot(env: Record<string, string> = {}): Promise<Booted> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-bench-observe-"));
  const server = await startServer(
    { host: "127.0.0.1", port: 0, dataDir: dir, logLevel: "silent", rateLimitPerMinute: 0 },
    { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1", ...env },
  );
  const { key } = await server.ledger.createAccount({ credits: 1_000_000 });
  return { server, key, dir };
}
async function shutdown(b: Booted) {
  await b.server.close();
  rmSync(b.dir, { recursive: true, force: true });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
async function call(b: Booted, body: unknown): Promise<{ ms: number; json: Json }> {
  const t = performance.now();
  const res = await fetch(`${b.server.origin}/v1/observe`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`observe ${res.status}: ${JSON.stringify(json)}`);
  return { ms, json };
}
async function timed(b: Booted, body: unknown, reps = REPS): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < reps; i++) out.push((await call(b, body)).ms);
  return median(out);
}

async function collectorShare(b: Booted, site: BenchSite) {
  // In-process: the same pool, engine and collector the route uses, timed phase by phase.
  const { BrowserPool, renderUrl } = await import("../../server/src/browser/index.js");
  const { collectSnapshot } = await import("../../server/src/observe/collector.js");
  const { parseAllowList } = await import("@sightline/shared/net");
  const pool = new BrowserPool({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", concurrency: 1, queueLimit: 0 });
  const inPage: number[] = [];
  const trip: number[] = [];
  let count = 0;
  try {
    for (let i = 0; i < REPS + 1; i++) {
      await renderUrl(pool, { url: site.url("/big"), engine: "performance", policy: parseAllowList("127.0.0.1"), timeoutMs: 60_000 }, async ({ page }) => {
        await collectSnapshot(page); // inject + warm
        const t = performance.now();
        const snap = await collectSnapshot(page);
        const rt = performance.now() - t;
        const ip = (await page.evaluate(
          "(async () => { const t = performance.now(); await globalThis.sightline.collectJSON(); return performance.now() - t; })()",
        )) as number;
        count = snap.raw_elements.length;
        if (i > 0) {
          trip.push(rt);
          inPage.push(ip);
        }
      });
    }
  } finally {
    await pool.close();
  }
  const map = await timed(b, { url: site.url("/big"), mode: "map" });
  run.figure("collector", { raw_elements: count, in_page_ms: median(inPage), round_trip_ms: median(trip), map_ms: map });
  run.table({
    id: "collector",
    title: `The collector's share of a map request on the 5,000-control page (median of ${REPS})`,
    columns: [{ label: "raw elements", format: "int" }, "collectJSON in the page, ms", "collect round trip, ms (inject + evaluate + JSON.parse)", "whole warm map request, ms", { label: "collector's share", format: "percent" }],
    rows: [[count, median(inPage), median(trip), map, ratio(median(trip), map)]],
    note: "The collector stops at 8,000 raw elements by default.",
  });
}

async function coldWarm(site: BenchSite) {
  const rows: (string | number)[][] = [];
  for (const [label, body] of [
    ["read, article", { url: site.url("/article") }],
    ["map (performance), article", { url: site.url("/article"), mode: "map" }],
    ["map (performance), 5,000 controls, limit 50", { url: site.url("/big"), mode: "map", options: { limit: 50 } }],
  ] as const) {
    const b = await boot();
    try {
      const cold = (await call(b, body)).ms;
      const warm = await timed(b, body);
      rows.push([label, cold, warm, ratio(cold, warm)]);
    } finally {
      await shutdown(b);
    }
  }
  run.table({
    id: "latency",
    title: `Latency, cold (a fresh server: Chromium's launch included) and warm (median of ${REPS})`,
    columns: ["request", "cold ms", "warm ms", { label: "cold / warm", format: "ratio" }],
    rows,
  });
}

async function throughput(b: Booted, site: BenchSite) {
  const total = QUICK ? 8 : 16;
  const rows: (string | number)[][] = [];
  for (const [label, body] of [
    ["read, article", { url: site.url("/article") }],
    ["map, article", { url: site.url("/article"), mode: "map" }],
  ] as const) {
    let base = 0;
    for (const clients of [1, 2, 4]) {
      let next = 0;
      const lat: number[] = [];
      const t = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < total) {
            next++;
            lat.push((await call(b, body)).ms);
          }
        }),
      );
      const rps = total / ((performance.now() - t) / 1000);
      if (clients === 1) base = rps;
      rows.push([label, clients, rps, ratio(rps, base), median(lat)]);
    }
  }
  run.table({
    id: "throughput",
    title: `Throughput: ${total} requests by 1, 2 and 4 concurrent clients (SIGHTLINE_BROWSER_CONCURRENCY=2)`,
    columns: ["request", { label: "clients", format: "int" }, { label: "requests/s", format: "fixed2" }, { label: "× one client", format: "ratio" }, "median latency ms"],
    rows,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function spares(site: BenchSite) {
  const reps = QUICK ? 5 : 9;
  const off = await boot({ SIGHTLINE_BROWSER_SPARES: "0" });
  const on = await boot({ SIGHTLINE_BROWSER_SPARES: "2" });
  const sides = [
    ["off", off],
    ["on", on],
  ] as const;
  try {
    const rows: (string | number)[][] = [];
    const bodies = [
      ["read, article", { url: site.url("/article") }],
      ["map, article", { url: site.url("/article"), mode: "map" }],
      // Too little text without its script: read renders twice (JavaScript off, then on).
      ["read, /late (two passes)", { url: site.url("/late") }],
    ] as const;
    for (const [, b] of sides) for (const [, body] of bodies) await call(b, body); // launch, warm
    for (const [label, body] of bodies) {
      for (const pause of [0, 500]) {
        const t: Record<string, number[]> = { off: [], on: [] };
        for (let i = 0; i < reps; i++) {
          for (const [side, b] of sides) {
            await call(b, body); // the request before; the measured one follows it after `pause`
            await sleep(pause);
            t[side].push((await call(b, body)).ms);
          }
        }
        const [a, c] = [median(t.off), median(t.on)];
        rows.push([label, pause, a, c, ratio(c, a)]);
      }
    }
    run.table({
      id: "spares",
      title: `Spare contexts: SIGHTLINE_BROWSER_SPARES=2 (on) vs 0 (off), two warm servers side by side (median of ${reps})`,
      columns: ["request", { label: "client pause ms", format: "int" }, "spares off ms", "spares on ms", { label: "on / off", format: "ratio" }],
      rows,
      note: "A spare is made once the request before it is done; the pause is the client's time between an answer and its next request.",
    });
    const total = QUICK ? 8 : 16;
    const rps: Record<string, number[]> = { off: [], on: [] };
    for (let round = 0; round < 2; round++) {
      for (const [side, b] of sides) {
        let next = 0;
        const start = performance.now();
        await Promise.all(
          Array.from({ length: 2 }, async () => {
            while (next < total) {
              next++;
              await call(b, { url: site.url("/article") });
            }
          }),
        );
        rps[side].push(total / ((performance.now() - start) / 1000));
      }
    }
    const [x, y] = [median(rps.off), median(rps.on)];
    run.table({
      id: "spares-throughput",
      title: `Spare contexts and throughput: read of the article, ${total} requests by 2 clients (mean of 2 rounds)`,
      columns: [{ label: "spares off, requests/s", format: "fixed2" }, { label: "spares on, requests/s", format: "fixed2" }, { label: "on / off", format: "ratio" }],
      rows: [[x, y, ratio(y, x)]],
    });
  } finally {
    await shutdown(off);
    await shutdown(on);
  }
}

// Matched by role and text (as a multiset): positions shift when performance skips fonts and images.
const keyOf = (e: Json) => `${e.role}|${e.text}`;
function overlap(want: Json[], have: Json[]): number {
  const pool = new Map<string, number>();
  for (const e of have) pool.set(keyOf(e), (pool.get(keyOf(e)) ?? 0) + 1);
  let n = 0;
  for (const e of want) {
    const k = keyOf(e);
    const left = pool.get(k) ?? 0;
    if (left > 0) {
      n++;
      pool.set(k, left - 1);
    }
  }
  return n;
}

async function engines(b: Booted, site: BenchSite) {
  const rows: (string | number)[][] = [];
  for (const [label, path] of [
    ["article", "/article"],
    ["media (8 slow images, web font)", "/media"],
    ["results fetched after load", "/late"],
    ["5,000 controls", "/big"],
  ] as const) {
    const perf: number[] = [];
    const prec: number[] = [];
    let found = 0;
    let wanted = 0;
    for (let i = 0; i < REPS; i++) {
      const p = await call(b, { url: site.url(path), mode: "map" });
      const q = await call(b, { url: site.url(path), mode: "map", options: { render_quality: "precision" } });
      perf.push(p.ms);
      prec.push(q.ms);
      if (i === 0) {
        wanted = q.json.interactable_elements.length;
        found = overlap(q.json.interactable_elements, p.json.interactable_elements);
      }
    }
    const a = median(perf);
    const c = median(prec);
    rows.push([label, a, c, ratio(c, a), wanted, ratio(found, wanted)]);
  }
  run.table({
    id: "engines",
    title: `Engines: performance vs precision (map mode, median of ${REPS})`,
    columns: ["page", "performance ms", "precision ms", { label: "precision / performance", format: "ratio" }, { label: "precision's elements", format: "int" }, { label: "of them found by performance (role + text)", format: "percent" }],
    rows,
  });
}

const site = await serveBenchPages();
try {
  console.log(`# bench/observe (${QUICK ? "quick" : "full"} run${ONLY ? `, ${ONLY} only` : ""})`);
  if (section("coldwarm")) await coldWarm(site);
  if (section("spares")) await spares(site);
  if (section("collector") || section("engines") || section("throughput")) {
    const b = await boot();
    try {
      await call(b, { url: site.url("/article") }); // warm
      if (section("collector")) await collectorShare(b, site);
      if (section("engines")) await engines(b, site);
      if (section("throughput")) await throughput(b, site);
    } finally {
      await shutdown(b);
    }
  }
  run.note("Pages are served on loopback by bench/observe/pages.ts (SIGHTLINE_ALLOW_PRIVATE_HOSTS=127.0.0.1); Chromium is Debian's.");
  run.write();
} finally {
  await site.close();
}
