// Failed authentication attempts, limited per client (SIGHTLINE_AUTH_FAILURE_LIMIT per minute):
// a 401 on /v1 or /mcp, or a bridge socket that failed its hello. A client that used up its
// attempts is refused (429, or close 4429 on the bridge) before its key is even looked up, until
// the bucket refills; refusals do not count, so a client retrying with backoff gets back in.
//
// A client is its address; on loopback also the Origin it sends. Every local program and every
// web page the person visits reach a loopback server from 127.0.0.1, and a page cannot choose
// its Origin, so a hostile page's failures lock out that page only, never the person's agent or
// extension. (Behind a reverse proxy every client has the proxy's address: set the limit to 0
// there and limit at the proxy.)
import { isIP } from "node:net";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; beyond, refilled ones are dropped (they are the same as none). */
const MAX_BUCKETS = 10_000;

export class AuthFailures {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, Bucket>();

  /** `perMinute` 0: no limit. */
  constructor(readonly perMinute: number) {
    this.#capacity = perMinute;
    this.#perMs = perMinute / 60_000;
  }

  #refilled(b: Bucket, now: number): number {
    return Math.min(this.#capacity, b.tokens + (now - b.at) * this.#perMs);
  }

  /** Seconds before `client` may try again, or 0 when it may now. */
  blocked(client: string, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    const b = this.#buckets.get(client);
    if (!b) return 0;
    const tokens = this.#refilled(b, now);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.#perMs / 1000));
  }

  /** Counts one failed attempt of `client`. */
  failed(client: string, now = Date.now()): void {
    if (this.perMinute <= 0) return;
    const b = this.#buckets.get(client) ?? { tokens: this.#capacity, at: now };
    b.tokens = Math.max(0, this.#refilled(b, now) - 1);
    b.at = now;
    this.#buckets.set(client, b);
    if (this.#buckets.size > MAX_BUCKETS) {
      for (const [k, v] of this.#buckets) if (this.#refilled(v, now) >= this.#capacity) this.#buckets.delete(k);
    }
  }

  /** The 429 a blocked client gets (the contract's rate-limit error, with Retry-After). */
  static refusal(waitSeconds: number): ContractError {
    return new ContractError(
      "rate_limited",
      ERROR_NAMES.rateLimited,
      `${ERROR_NAMES.rateLimited}: too many failed authentication attempts from this client; retry in ${waitSeconds} s`,
      waitSeconds,
    );
  }
}

function isLoopback(address: string): boolean {
  const a = address.replace(/^::ffff:/i, "");
  return (isIP(a) === 4 && a.startsWith("127.")) || a === "::1";
}

/** Who an attempt counts against: the address, and on loopback the Origin too. */
export function clientKey(address: string | undefined, origin: string | undefined): string {
  const a = address ?? "?";
  return isLoopback(a) ? `${a} ${origin ?? "-"}` : a;
}
