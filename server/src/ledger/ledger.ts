// The credit ledger: accounts (hashed API keys, active flag, credits) in one lowdb JSON file.
//
// Safety rules, and how they hold:
// - Writes are atomic: lowdb's JSONFile (steno) writes a temp file and renames it over the ledger,
//   so a reader (or a restart after kill -9) sees the old file or the new one, never half.
// - Writes never overspend or lose a charge: every change is an operation on a queue; the
//   queue is drained in batches, each under a cross-process lock file, re-reading the file
//   first, applying the operations in order (each checks before it changes anything) and
//   writing once. So the server and the admin CLI (another process) never overwrite each other.
// - Reads (authentication, balances) use an in-memory view refreshed when the file changes
//   on disk (its inode/mtime/size), so admin changes are seen by the next request.
// - Small file operations (stat, lock file, re-read) are synchronous: microseconds each,
//   where a trip through libuv's thread pool costs an event-loop turn. The write itself stays
//   asynchronous: replacing a file on ext4 flushes it (about 1 ms), which must not block the
//   server; a reservation's check and deduction happen synchronously in reserve(), so the
//   caller can refine while the write is in flight. A charge is on disk before its response.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { Low } from "lowdb";
import { JSONFile } from "lowdb/node";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import { withFileLock } from "./file-lock.js";
import { generateKey, hashKey, keyHint, sameHash } from "./keys.js";

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

export interface LedgerData {
  version: 1;
  /** Incremented by every write; a view never goes back to an older revision. */
  rev: number;
  accounts: Account[];
}

/** Credits taken for one request: `commit()` keeps the charge, `release()` refunds it. */
export interface Reservation {
  /** Balance right after the credits were taken. */
  readonly remaining: number;
  commit(): void;
  release(): Promise<void>;
}

interface Op<T = unknown> {
  fn: (data: LedgerData) => T;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/** The ledger file inside a data dir. */
export const ledgerFile = (dataDir: string) => join(dataDir, "ledger.json");

const emptyLedger = (): LedgerData => ({ version: 1, rev: 0, accounts: [] });
const now = () => new Date().toISOString();

function findAccount(data: LedgerData, id: string): Account {
  const acct = data.accounts.find((a) => a.id === id);
  if (!acct) throw new ContractError("unauthorized", ERROR_NAMES.unauthorized, "Unauthorized: unknown account");
  return acct;
}

export function insufficientCredits(required: number, remaining: number): ContractError {
  return new ContractError(
    "insufficient_credits",
    ERROR_NAMES.insufficientCredits,
    `${ERROR_NAMES.insufficientCredits}: ${required} required, ${remaining} remaining`,
  );
}

export class Ledger {
  readonly file: string;
  readonly #lockPath: string;
  readonly #db: Low<LedgerData>;
  #data: LedgerData = emptyLedger();
  #byHash = new Map<string, Account>();
  #byId = new Map<string, Account>();
  #stamp = "";
  #queue: Op[] = [];
  #draining: Promise<void> | null = null;

  private constructor(file: string) {
    this.file = file;
    this.#lockPath = `${file}.lock`;
    this.#db = new Low<LedgerData>(new JSONFile<LedgerData>(file), emptyLedger());
  }

  /** Opens (creating if needed) the ledger file. */
  static async open(file: string): Promise<Ledger> {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const ledger = new Ledger(file);
    try {
      ledger.refresh();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      await ledger.#mutate(() => undefined); // creates the file under the lock
    }
    return ledger;
  }

  // ---- reads -------------------------------------------------------------------------

  /** The account of an API key, or null. Constant-time on the key's hash. */
  async authenticate(key: string): Promise<Readonly<Account> | null> {
    this.refresh();
    const hash = hashKey(key);
    const acct = this.#byHash.get(hash);
    return acct && sameHash(acct.key_hash, hash) ? acct : null;
  }

  /** Balance as last seen (no disk access); undefined for an unknown account. */
  creditsOf(id: string): number | undefined {
    return this.#byId.get(id)?.credits;
  }

  account(id: string): Readonly<Account> | undefined {
    return this.#byId.get(id);
  }

  accounts(): readonly Readonly<Account>[] {
    return this.#data.accounts;
  }

  /** Re-reads the file if it changed on disk since we last saw it (another process wrote). */
  refresh(): void {
    const stamp = this.#fileStamp();
    if (stamp === this.#stamp) return;
    this.#adopt(JSON.parse(readFileSync(this.file, "utf8")) as LedgerData, stamp);
  }

  #fileStamp(): string {
    const st = statSync(this.file, { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.size}`;
  }

  #stampOrEmpty(): string {
    try {
      return this.#fileStamp();
    } catch {
      return "";
    }
  }

  #adopt(data: LedgerData, stamp: string): void {
    if (data.rev < this.#data.rev) return; // an older read finishing late
    this.#data = data;
    this.#stamp = stamp;
    this.#byHash = new Map(data.accounts.map((a) => [a.key_hash, a]));
    this.#byId = new Map(data.accounts.map((a) => [a.id, a]));
  }

  // ---- writes ------------------------------------------------------------------------

  /** Creates an account with a new key. The key is returned once and never stored. */
  async createAccount(opts: { credits: number; active?: boolean; label?: string | null }): Promise<{ key: string; account: Account }> {
    if (!Number.isSafeInteger(opts.credits) || opts.credits < 0) throw new RangeError("credits must be a non-negative integer");
    const key = generateKey();
    const account: Account = {
      id: `acct_${randomUUID()}`,
      key_hash: hashKey(key),
      key_hint: keyHint(key),
      active: opts.active ?? true,
      credits: opts.credits,
      label: opts.label ?? null,
      created_at: now(),
      updated_at: now(),
    };
    await this.#mutate((data) => {
      data.accounts.push({ ...account });
    });
    return { key, account };
  }

  async setCredits(id: string, credits: number): Promise<number> {
    if (!Number.isSafeInteger(credits) || credits < 0) throw new RangeError("credits must be a non-negative integer");
    return this.#mutate((data) => {
      const acct = findAccount(data, id);
      acct.credits = credits;
      acct.updated_at = now();
      return acct.credits;
    });
  }

  async setActive(id: string, active: boolean): Promise<void> {
    await this.#mutate((data) => {
      const acct = findAccount(data, id);
      acct.active = active;
      acct.updated_at = now();
    });
  }

  /**
   * Takes `n` credits now (so concurrent requests can never spend the same credit), or throws
   * the 402 ContractError (403 if the account was deactivated meanwhile). A request that then
   * fails calls `release()` and is charged nothing.
   */
  async reserve(id: string, n: number): Promise<Reservation> {
    const remaining = await this.#mutate((data) => {
      const acct = findAccount(data, id);
      if (!acct.active) throw new ContractError("forbidden", ERROR_NAMES.inactive, `${ERROR_NAMES.inactive}: this API key's account is deactivated`);
      if (acct.credits < n) throw insufficientCredits(n, acct.credits);
      acct.credits -= n;
      acct.updated_at = now();
      return acct.credits;
    });
    let settled = false;
    return {
      remaining,
      commit: () => {
        settled = true;
      },
      release: async () => {
        if (settled) return;
        settled = true;
        await this.#mutate((data) => {
          const acct = data.accounts.find((a) => a.id === id);
          if (acct) {
            acct.credits += n;
            acct.updated_at = now();
          }
        });
      },
    };
  }

  /** Resolves when every queued write is on disk. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  #mutate<T>(fn: (data: LedgerData) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve, reject } as Op);
      this.#draining ??= this.#drain().finally(() => {
        this.#draining = null;
      });
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      const results: { ok: boolean; value: unknown }[] = [];
      try {
        await withFileLock(this.#lockPath, async () => {
          // Unchanged since we last read or wrote it (same inode/mtime/size): skip the re-read.
          const stamp = this.#stampOrEmpty();
          let data: LedgerData;
          if (stamp !== "" && stamp === this.#stamp) {
            data = structuredClone(this.#data);
          } else {
            // Missing file (first start): a fresh ledger.
            data = stamp === "" ? emptyLedger() : (JSON.parse(readFileSync(this.file, "utf8")) as LedgerData);
            // Never overwrite a file that is not a ledger (that would drop every account).
            if (!Array.isArray(data?.accounts)) throw new Error(`${this.file} is not a Sightline ledger`);
          }
          this.#db.data = data;
          for (const op of batch) {
            try {
              results.push({ ok: true, value: op.fn(data) });
            } catch (err) {
              results.push({ ok: false, value: err });
            }
          }
          if (results.some((r) => r.ok)) {
            data.rev += 1;
            await this.#db.write();
          }
          this.#adopt(data, this.#fileStamp());
        });
      } catch (err) {
        for (const op of batch) op.reject(err);
        continue;
      }
      batch.forEach((op, i) => (results[i].ok ? op.resolve(results[i].value) : op.reject(results[i].value)));
    }
  }
}
