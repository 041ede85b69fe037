// When and how long to wait before retrying. Only 429 (rate limited) and 503 (busy) are
// retried: both mean "not now", and neither charged credits. Every other status, network
// errors and timeouts are surfaced at once (a POST that may have run is not replayed).

export interface RetryPolicy {
  /** Retries after the first attempt (so at most `retries + 1` requests). Default 3. */
  retries: number;
  /** First backoff step in ms; doubles each attempt. Default 250. */
  baseDelayMs: number;
  /** Longest single wait in ms; a Retry-After above it is not waited for. Default 10 000. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000 };

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Parses Retry-After (delta-seconds or an HTTP date) into seconds, or null.
 * `now` is injectable for tests.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - now) / 1000);
}

/**
 * Milliseconds to wait before retry number `attempt` (0-based), or null to give up.
 * With a Retry-After, wait exactly that (plus up to 10% jitter so clients that were told the
 * same second do not return in lockstep); without, exponential backoff with "equal jitter" (half fixed, half random).
 */
export function retryDelay(
  attempt: number,
  retryAfterSeconds: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.retries) return null;
  if (retryAfterSeconds !== null) {
    const ms = retryAfterSeconds * 1000;
    if (ms > policy.maxDelayMs) return null;
    return Math.round(ms + ms * 0.1 * random());
  }
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(cap / 2 + (cap / 2) * random());
}
