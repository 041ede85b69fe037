// Per-key token bucket: a bucket holds `perMinute` tokens (the burst) and refills at
// perMinute/60 tokens per second. Each authenticated request takes one token; an empty bucket
// answers 429 "Rate limit exceeded" with Retry-After (seconds until a token is back).
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import type { AppMiddleware } from "../context.js";

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

export function rateLimit(perMinute: number): AppMiddleware {
  if (perMinute <= 0) return (_ctx, next) => next();
  const buckets = new TokenBuckets(perMinute);
  return async (ctx, next) => {
    const id = ctx.state.account?.id;
    if (id) {
      const left = buckets.take(id);
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
