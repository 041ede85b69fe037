// Shared by the observe e2e files: fixture site on loopback, POST /v1/observe, pool stats.
import { liveObserveRuntimes } from "../../server/src/observe/index.js";
import type { BrowserPool, PoolStats } from "../../server/src/browser/index.js";
import type { Sightline } from "../support/sightline-server.js";

export const FIXTURES = new URL("./fixtures", import.meta.url).pathname;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function observe(sl: Sightline, key: string, body: unknown): Promise<{ status: number; headers: Headers; json: Json }> {
  const res = await fetch(`${sl.origin}/v1/observe`, { method: "POST", headers: sl.headers(key), body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** The pool of the one Sightline server running in this test file. */
export function observePool(): BrowserPool {
  const runtimes = liveObserveRuntimes();
  if (runtimes.length !== 1) throw new Error(`expected one observe runtime, found ${runtimes.length}`);
  return runtimes[0].pool;
}

export function poolStats(): PoolStats {
  return observePool().stats();
}

export function browserPid(): number | null {
  return liveObserveRuntimes()[0]?.pool.browserPid() ?? null;
}

/** Resolves once `check` is true (polled), or fails after `ms`. */
export async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
