// Per-key token bucket: a bucket holds `perMinute` tokens (the burst) and refills at
// perMinute/60 tokens per second. Each authenticated request takes one token; an empty bucket
// answers 429 "Rate limit exceeded" with Retry-After (seconds until a token is back).
//
// One instance keeps its buckets in memory. Several instances (a database configured) keep them
// in PostgreSQL, so a key gets its limit in total, not per instance: one upsert per request on
// the key's row (the row lock orders concurrent takes; the database clock, not each instance's,
// measures the refill). PostgreSQL rather than Redis: it is already there for the ledger, so
// the limit costs no new service to run, secure and back up; at the rate a limit is checked
// (once per charged request, which also writes the ledger) it is not the bottleneck.
import type { Pool } from "pg";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import type { AppMiddleware } from "../koa-types.js";

/** Takes a token for a key: the tokens left, or -(seconds to wait) when empty. */
export interface RateLimiter {
  take(id: string): number | Promise<number>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(perMinute: number) {
    this.#capacity = perMinute;
    this.#perMs = perMinute / 60_000;
  }

  /** Takes a token for `id`: returns the tokens left, or -(seconds to wait) when empty. */
  take(id: string, now = Date.now()): number {
    const b = this.#buckets.get(id) ?? { tokens: this.#capacity, at: now };
    b.tokens = Math.min(this.#capacity, b.tokens + (now - b.at) * this.#perMs);
    b.at = now;
    this.#buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return Math.floor(b.tokens);
    }
    return -Math.max(1, Math.ceil((1 - b.tokens) / this.#perMs / 1000));
  }
}

/** The same token buckets, one row per key in PostgreSQL, shared by every instance. */
export class PgTokenBuckets implements RateLimiter {
  readonly #sql: string;
  constructor(
    private readonly pool: Pool,
    private readonly perMinute: number,
  ) {
    const refill = "LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - b.at)) * $2::float8 / 60.0)";
    this.#sql = `INSERT INTO rate_buckets AS b (account_id, tokens, taken, at) VALUES ($1, $2::float8 - 1, true, now())
      ON CONFLICT (account_id) DO UPDATE SET
        tokens = CASE WHEN ${refill} >= 1 THEN ${refill} - 1 ELSE ${refill} END,
        taken = ${refill} >= 1,
        at = GREATEST(b.at, now())
      RETURNING tokens, taken`;
  }

  async take(id: string): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number; taken: boolean }>(this.#sql, [id, this.perMinute]);
    const { tokens, taken } = rows[0];
    if (taken) return Math.floor(tokens);
    return -Math.max(1, Math.ceil((1 - tokens) / (this.perMinute / 60)));
  }
}

/** `database`: share the buckets through PostgreSQL (several instances); else in memory. */
export function rateLimit(perMinute: number, database: Pool | null = null): AppMiddleware {
  if (perMinute <= 0) return (_ctx, next) => next();
  const buckets: RateLimiter = database ? new PgTokenBuckets(database, perMinute) : new TokenBuckets(perMinute);
  return async (ctx, next) => {
    const id = ctx.state.account?.id;
    if (id) {
      const left = await buckets.take(id);
      ctx.set("X-RateLimit-Limit", `${perMinute};w=60`);
      if (left < 0) {
        ctx.set("X-RateLimit-Remaining", "0");
        throw new ContractError(
          "rate_limited",
          ERROR_NAMES.rateLimited,
          ERROR_NAMES.rateLimited,
          -left,
        );
      }
      ctx.set("X-RateLimit-Remaining", String(left));
    }
    await next();
  };
}
