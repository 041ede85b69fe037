// What every ledger backend offers: the embedded lowdb file (ledger.ts, the default) and
// PostgreSQL (pg.ts, when SIGHTLINE_DATABASE_URL is set, for several instances).
import type { Pool } from "pg";
import type { IdempotencyStore } from "./idempotency.js";

export interface Account {
  id: string;
  /** sha256 of the API key, hex. The key itself is never stored. */
  key_hash: string;
  /** First characters of the key, to recognise it in listings. */
  key_hint: string;
  active: boolean;
  credits: number;
  label: string | null;
  created_at: string;
  updated_at: string;
}

/** Credits taken for one request: `commit()` keeps the charge, `release()` refunds it. */
export interface Reservation {
  /** Balance right after the credits were taken. */
  readonly remaining: number;
  commit(): void;
  release(): Promise<void>;
}

/**
 * A reservation of `remaining` credits whose refund runs at most once, and never after commit
 * (one rule for every backend; `refund` is the backend's own write).
 */
export function reservation(remaining: number, refund: () => Promise<void>): Reservation {
  let settled = false;
  return {
    remaining,
    commit: () => {
      settled = true;
    },
    release: async () => {
      if (settled) return;
      settled = true;
      await refund();
    },
  };
}

export interface NewAccount {
  credits: number;
  active?: boolean;
  label?: string | null;
}

export interface Ledger {
  /** "file" (lowdb in the data dir) or "postgres". */
  readonly kind: "file" | "postgres";
  /** The account of an API key, or null. */
  authenticate(key: string): Promise<Readonly<Account> | null>;
  /** Balance as last seen by this process (no I/O); undefined when never seen. */
  creditsOf(id: string): number | undefined;
  listAccounts(): Promise<readonly Readonly<Account>[]>;
  /** Creates an account with a new key. The key is returned once and never stored. */
  createAccount(opts: NewAccount): Promise<{ key: string; account: Account }>;
  /** Adds an account exactly as given (moving a ledger between backends); false if its id or key exists. */
  importAccount(account: Account): Promise<boolean>;
  setCredits(id: string, credits: number): Promise<number>;
  setActive(id: string, active: boolean): Promise<void>;
  /**
   * Takes `n` credits now (so concurrent requests can never spend the same credit), or throws
   * the 402 ContractError (403 if the account is deactivated). A request that then fails calls
   * `release()` and is charged nothing. The charge is keyed by the request's charge key
   * (charge-scope.ts): a key already charged is not charged again.
   */
  reserve(id: string, n: number): Promise<Reservation>;
  /** Stored answers of requests sent with an Idempotency-Key. */
  readonly idempotency: IdempotencyStore;
  /** The PostgreSQL pool when the ledger lives there (shared rate limits and screenshots use it). */
  readonly database: Pool | null;
  /** The backend answers (for /ready). */
  ping(): Promise<void>;
  /** Resolves when every queued write is stored. */
  flush(): Promise<void>;
  /** Flushes and lets go (checkpoint file / closes the connections). */
  close(): Promise<void>;
}
