// The charge key and request id of the request being served, carried with its async work
// (AsyncLocalStorage), so every route's `ledger.reserve()` is keyed without passing them along.
// Without an Idempotency-Key a request's key is random (each request is a new charge); with
// one it is derived from the stored claim, so a retry that re-runs after a crash finds the
// first attempt's charge and is not charged again.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface ChargeScope {
  /** Applied at most once by the ledger. */
  key: string;
  /** X-Request-Id, recorded beside the charge. */
  requestId?: string;
}

const scope = new AsyncLocalStorage<ChargeScope>();

/** Runs `fn` with `s` as the charge scope of everything it starts. */
export function withChargeScope<T>(s: ChargeScope, fn: () => T): T {
  return scope.run(s, fn);
}

/**
 * A charge key for one reserve() call. Outside an idempotent request every call gets its own
 * key; inside one the calls of the request are numbered, so the same request re-run makes the
 * same keys in the same order.
 */
export function nextChargeKey(): { key: string; requestId?: string } {
  const s = scope.getStore() as (ChargeScope & { calls?: number }) | undefined;
  if (!s) return { key: randomUUID() };
  s.calls = (s.calls ?? 0) + 1;
  return { key: s.calls === 1 ? s.key : `${s.key}#${s.calls}`, requestId: s.requestId };
}
