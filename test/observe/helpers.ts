// Shared by the observe e2e files: fixture site on loopback, POST /v1/observe, pool stats.
import type { BrowserPool, PoolStats } from "../../server/src/browser/index.js";
import type { Sightline } from "../support/sightline-server.js";

export const FIXTURES = new URL("./fixtures", import.meta.url).pathname;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function observe(sl: Sightline, key: string, body: unknown): Promise<{ status: number; headers: Headers; json: Json }> {
  const res = await fetch(`${sl.origin}/v1/observe`, { method: "POST", headers: sl.headers(key), body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** The browser pool /v1/observe renders in, on the server `sl`. */
export function observePool(sl: Sightline): BrowserPool {
  return sl.server.browsers;
}

export function poolStats(sl: Sightline): PoolStats {
  return observePool(sl).stats();
}

export function browserPid(sl: Sightline): number | null {
  return observePool(sl).browserPid();
}

/** Resolves once `check` is true (polled), or fails after `ms`. */
export async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
