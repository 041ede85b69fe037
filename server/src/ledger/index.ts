// The credit ledger: the embedded lowdb file (default) or PostgreSQL (SIGHTLINE_DATABASE_URL).
import { FileLedger } from "./ledger.js";
import type { Ledger as LedgerApi } from "./types.js";

export { FileLedger, insufficientCredits, ledgerFile, type LedgerData, type KeyedCharge } from "./ledger.js";
export { PgLedger, type PgLedgerOptions } from "./pg.js";
export { generateKey, hashKey, keyHint } from "./keys.js";
export { withChargeScope, nextChargeKey, type ChargeScope } from "./charge-scope.js";
export { FileIdempotencyStore, IDEMPOTENCY_TTL_MS, type IdempotencyStore, type Claim, type StoredAnswer } from "./idempotency.js";
export { openLedger } from "./open.js";
export type { Account, Reservation, NewAccount } from "./types.js";

/** Any ledger backend. */
export type Ledger = LedgerApi;
/** `Ledger.open(file)`: the lowdb ledger on a file (as before there were two backends). */
export const Ledger = { open: (file: string): Promise<FileLedger> => FileLedger.open(file) };
