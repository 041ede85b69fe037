// The credit ledger: accounts (hashed API keys, active flag, credits) in one lowdb JSON file,
// the checkpoint, plus a journal of balance changes since it (journal.ts).
//
// Safety rules, and how they hold:
// - The files are the owner's alone (0600, in a 0700 folder): they hold every key's hash.
// - Writes are atomic: a checkpoint is written by lowdb with PrivateJSONFile (temp file + rename),
//   so a reader (or a restart after kill -9) sees the old file or the new one, never half; a
//   charge is one appended journal line, and a line cut short (power loss) is ignored.
// - Writes never overspend or lose a charge: every change is an operation on a queue; the
//   queue is drained in batches, each under a cross-process lock file, re-reading the files
//   first if they changed, applying the operations in order (each checks before it changes
//   anything) and writing once: balance changes (charges, refunds) as journal lines, anything
//   else (accounts, admin changes) as a new checkpoint that also empties the journal. So the
//   server and the admin CLI (another process) never overwrite each other.
// - Reads (authentication, balances) use an in-memory view refreshed when the files change on
//   disk (the checkpoint's inode/mtime/size, the journal's length), so admin changes are seen
//   by the next request.
// - File operations are synchronous except the checkpoint write: each takes microseconds on a
//   local file, where a trip through libuv's thread pool costs an event-loop turn. A charge is
//   on disk (in the page cache, which outlives the process) before its response.
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { Low } from "lowdb";
import { PrivateJSONFile } from "./private-file.js";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import { withFileLock } from "./file-lock.js";
import { appendJournal, clearJournal, journalFile, journalStat, readJournal, type JournalCursor, type JournalEntry } from "./journal.js";
import { generateKey, hashKey, keyHint, sameHash } from "./keys.js";
import { nextChargeKey } from "./charge-scope.js";
import { FileIdempotencyStore, IDEMPOTENCY_TTL_MS, type IdempotencyStore } from "./idempotency.js";
import { reservation, type Account, type Ledger, type NewAccount, type Reservation } from "./types.js";

export interface LedgerData {
  version: 1;
  /** Incremented by every write; a view never goes back to an older revision. */
  rev: number;
  accounts: Account[];
  /** Charges made under an Idempotency-Key (charge-scope.ts), by charge key: applied once.
   *  Kept a day past the key's life, then dropped at a checkpoint. */
  charges?: Record<string, KeyedCharge>;
}

export interface KeyedCharge {
  account: string;
  credits: number;
  at: string;
  refunded: boolean;
}

/** Only charges of idempotent requests are recorded by key (the others' keys are random and
 *  never come back; recording them would grow the checkpoint by every request). */
const recorded = (key: string) => key.startsWith("idem:");
const KEYED_CHARGE_KEEP_MS = IDEMPOTENCY_TTL_MS + 24 * 3600_000;

/**
 * The ledger in memory with its indexes. Operations change it in place and keep the indexes
 * current, so a charge costs the same with ten accounts or ten thousand (copying the ledger
 * per write made a charge 3 ms at 1,000 accounts and 35 ms at 10,000).
 */
interface State {
  data: LedgerData;
  byId: Map<string, Account>;
  byHash: Map<string, Account>;
}

const indexed = (data: LedgerData): State => ({
  data,
  byId: new Map(data.accounts.map((a) => [a.id, a])),
  byHash: new Map(data.accounts.map((a) => [a.key_hash, a])),
});

interface Op<T = unknown> {
  fn: (s: State) => T;
  /** Set when the operation changes nothing but this account's balance: it can be journaled. */
  balanceOf?: string;
  /** A keyed charge or its refund, journaled with the balance. */
  keyed?: { key: string };
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/** The ledger as read from disk: checkpoint + journal, and where each read stopped. */
interface Loaded {
  state: State;
  stamp: string;
  cursor: JournalCursor;
  /** Journal lines since the checkpoint. */
  lines: number;
  torn: boolean;
}

// A checkpoint every this many journal lines keeps start-up replay short (~100 bytes a line).
const CHECKPOINT_LINES = 10_000;

/** The ledger file inside a data dir. */
export const ledgerFile = (dataDir: string) => join(dataDir, "ledger.json");

const emptyLedger = (): LedgerData => ({ version: 1, rev: 0, accounts: [] });
const now = () => new Date().toISOString();

/**
 * Applies journal entries in order; false when they do not continue the revisions (the files
 * changed while they were read).
 */
function replay(s: State, entries: readonly JournalEntry[]): boolean {
  for (const e of entries) {
    if (e.rev <= s.data.rev) continue; // already in the checkpoint
    if (e.rev !== s.data.rev + 1) return false;
    const acct = s.byId.get(e.id);
    if (acct) {
      acct.credits = e.credits;
      acct.updated_at = e.at;
    }
    if (e.key) (s.data.charges ??= {})[e.key] = { account: e.id, credits: e.n ?? 0, at: e.at, refunded: e.refund === true };
    s.data.rev = e.rev;
  }
  return true;
}

function findAccount(s: State, id: string): Account {
  const acct = s.byId.get(id);
  if (!acct) throw new ContractError("unauthorized", ERROR_NAMES.unauthorized, "Unauthorized: unknown account");
  return acct;
}

/** Drops keyed charges past their keep time (at a checkpoint). */
function pruneCharges(data: LedgerData): void {
  if (!data.charges) return;
  const cutoff = Date.now() - KEYED_CHARGE_KEEP_MS;
  for (const [key, c] of Object.entries(data.charges)) if (Date.parse(c.at) < cutoff) delete data.charges[key];
}

export function insufficientCredits(required: number, remaining: number): ContractError {
  return new ContractError(
    "insufficient_credits",
    ERROR_NAMES.insufficientCredits,
    `${ERROR_NAMES.insufficientCredits}: ${required} required, ${remaining} remaining`,
  );
}

export class FileLedger implements Ledger {
  readonly kind = "file" as const;
  readonly database = null;
  readonly idempotency: IdempotencyStore;
  readonly file: string;
  readonly #lockPath: string;
  readonly #journal: string;
  readonly #db: Low<LedgerData>;
  #state: State = indexed(emptyLedger());
  #stamp = "";
  #cursor: JournalCursor = { ino: 0n, offset: 0 };
  #lines = 0;
  #torn = false;
  #queue: Op[] = [];
  #draining: Promise<void> | null = null;

  private constructor(file: string) {
    this.file = file;
    this.#lockPath = `${file}.lock`;
    this.#journal = journalFile(file);
    this.#db = new Low<LedgerData>(new PrivateJSONFile<LedgerData>(file), emptyLedger());
    this.idempotency = new FileIdempotencyStore(join(dirname(file), "idempotency"));
  }

  /** Opens (creating if needed) the ledger file. */
  static async open(file: string): Promise<FileLedger> {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Files an older version wrote with the umask's mode (0644) become the owner's alone.
    for (const f of [file, journalFile(file)]) {
      try {
        chmodSync(f, 0o600);
      } catch {
        // not there yet (created 0600), or not ours to change (it is then left as it is)
      }
    }
    const ledger = new FileLedger(file);
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
    const acct = this.#state.byHash.get(hash);
    return acct && sameHash(acct.key_hash, hash) ? acct : null;
  }

  /** Balance as last seen (no disk access); undefined for an unknown account. */
  creditsOf(id: string): number | undefined {
    return this.#state.byId.get(id)?.credits;
  }

  account(id: string): Readonly<Account> | undefined {
    return this.#state.byId.get(id);
  }

  accounts(): readonly Readonly<Account>[] {
    return this.#state.data.accounts;
  }

  async listAccounts(): Promise<readonly Readonly<Account>[]> {
    this.refresh();
    return this.#state.data.accounts;
  }

  async ping(): Promise<void> {
    this.refresh();
  }

  /** Re-reads what changed on disk since we last looked (another process wrote). */
  refresh(): void {
    // The journal before the checkpoint: a checkpoint renames the JSON file before it empties
    // the journal, so a journal seen changed-but-same-checkpoint really is the same file grown.
    const journal = journalStat(this.#journal);
    const stamp = this.#fileStamp();
    if (this.#unchanged(stamp, journal)) return;
    if (stamp === this.#stamp && journal.ino === this.#cursor.ino && journal.offset > this.#cursor.offset && !this.#torn) {
      // Applied in place; if the lines do not continue, the full read below replaces it all.
      const tail = readJournal(this.#journal, this.#cursor);
      if (replay(this.#state, tail.entries)) {
        this.#adopt({ state: this.#state, stamp, cursor: tail.cursor, lines: this.#lines + tail.entries.length, torn: tail.torn });
        return;
      }
    }
    this.#adopt(this.#load());
  }

  /** Checkpoint + journal, read until both were read from the same checkpoint. */
  #load(): Loaded {
    for (let attempt = 0; attempt < 10; attempt++) {
      const stamp = this.#fileStamp();
      const data = JSON.parse(readFileSync(this.file, "utf8")) as LedgerData;
      // Never treat a file that is not a ledger as one (a write would drop every account).
      if (!Array.isArray(data?.accounts)) throw new Error(`${this.file} is not a Sightline ledger`);
      const checkpointRev = data.rev;
      const journal = readJournal(this.#journal);
      const state = indexed(data);
      const continues = replay(state, journal.entries);
      if (this.#fileStamp() !== stamp) continue; // a checkpoint was written meanwhile: read again
      if (continues) return { state, stamp, cursor: journal.cursor, lines: journal.entries.length, torn: journal.torn };
      // Same checkpoint, and still a gap: not a race but files that do not belong together (an
      // older ledger.json restored beside a newer journal). Refuse rather than guess balances.
      const first = journal.entries.find((e) => e.rev > checkpointRev)?.rev;
      throw new Error(`${journalFile(this.file)} does not continue ${this.file} (checkpoint revision ${checkpointRev}, journal goes on at ${first})`);
    }
    throw new Error(`${this.file} kept changing while it was read`);
  }

  /** The files are as we last read or wrote them. */
  #unchanged(stamp: string, journal: JournalCursor): boolean {
    return stamp === this.#stamp && journal.ino === this.#cursor.ino && journal.offset === this.#cursor.offset;
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

  #adopt(loaded: Loaded): void {
    this.#state = loaded.state;
    this.#stamp = loaded.stamp;
    this.#cursor = loaded.cursor;
    this.#lines = loaded.lines;
    this.#torn = loaded.torn;
  }

  /** After a failed write: forget the in-memory changes, take what is on disk. */
  #reload(): void {
    try {
      this.#adopt(this.#load());
    } catch {
      this.#stamp = ""; // the next read or write reads the files again
    }
  }

  // ---- writes ------------------------------------------------------------------------

  /** Creates an account with a new key. The key is returned once and never stored. */
  async createAccount(opts: NewAccount): Promise<{ key: string; account: Account }> {
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
    await this.#mutate((s) => {
      const stored = { ...account };
      s.data.accounts.push(stored);
      s.byId.set(stored.id, stored);
      s.byHash.set(stored.key_hash, stored);
    });
    return { key, account };
  }

  async importAccount(account: Account): Promise<boolean> {
    return this.#mutate((s) => {
      if (s.byId.has(account.id) || s.byHash.has(account.key_hash)) return false;
      const stored = { ...account };
      s.data.accounts.push(stored);
      s.byId.set(stored.id, stored);
      s.byHash.set(stored.key_hash, stored);
      return true;
    });
  }

  async setCredits(id: string, credits: number): Promise<number> {
    if (!Number.isSafeInteger(credits) || credits < 0) throw new RangeError("credits must be a non-negative integer");
    return this.#mutate((s) => {
      const acct = findAccount(s, id);
      acct.credits = credits;
      acct.updated_at = now();
      return acct.credits;
    });
  }

  async setActive(id: string, active: boolean): Promise<void> {
    await this.#mutate((s) => {
      const acct = findAccount(s, id);
      acct.active = active;
      acct.updated_at = now();
    });
  }

  /**
   * Takes `n` credits now (so concurrent requests can never spend the same credit), or throws
   * the 402 ContractError (403 if the account was deactivated meanwhile). A request that then
   * fails calls `release()` and is charged nothing. An idempotent request's charge key that was
   * charged before (an attempt that died) is not charged again.
   */
  async reserve(id: string, n: number): Promise<Reservation> {
    const { key } = nextChargeKey();
    const keyed = recorded(key);
    const remaining = await this.#mutate(
      (s) => {
        const acct = findAccount(s, id);
        if (!acct.active) throw new ContractError("forbidden", ERROR_NAMES.inactive, `${ERROR_NAMES.inactive}: this API key's account is deactivated`);
        if (keyed && s.data.charges?.[key]) return acct.credits; // applied once: an earlier attempt's charge
        if (acct.credits < n) throw insufficientCredits(n, acct.credits);
        acct.credits -= n;
        acct.updated_at = now();
        if (keyed) (s.data.charges ??= {})[key] = { account: id, credits: n, at: acct.updated_at, refunded: false };
        return acct.credits;
      },
      id,
      keyed ? { key } : undefined,
    );
    return reservation(remaining, async () => {
      await this.#mutate(
        (s) => {
          const acct = s.byId.get(id);
          const charge = keyed ? s.data.charges?.[key] : undefined;
          if (keyed && (!charge || charge.refunded)) return; // refunded once
          if (charge) charge.refunded = true;
          if (acct) {
            acct.credits += charge ? charge.credits : n;
            acct.updated_at = now();
          }
        },
        id,
        keyed ? { key } : undefined,
      );
    });
  }

  /** Resolves when every queued write is on disk. */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Folds the journal into a new checkpoint (a clean shutdown leaves one self-contained file). */
  async checkpoint(): Promise<void> {
    await this.flush();
    if (this.#lines > 0 || this.#torn) await this.#mutate(() => undefined);
  }

  async close(): Promise<void> {
    await this.checkpoint();
  }

  /** `balanceOf`: the operation changes only that account's credits (and updated_at). */
  #mutate<T>(fn: (s: State) => T, balanceOf?: string, keyed?: Op["keyed"]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, balanceOf, keyed, resolve, reject } as Op);
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
          // Unchanged since we last read or wrote it: work on the in-memory ledger in place.
          const journal = journalStat(this.#journal);
          const stamp = this.#stampOrEmpty();
          let loaded: Loaded;
          if (stamp !== "" && this.#unchanged(stamp, journal)) {
            loaded = { state: this.#state, stamp, cursor: this.#cursor, lines: this.#lines, torn: this.#torn };
          } else if (stamp === "") {
            // Missing file (first start): a fresh ledger; the checkpoint below empties any journal.
            loaded = { state: indexed(emptyLedger()), stamp, cursor: journal, lines: 0, torn: true };
          } else {
            loaded = this.#load();
          }
          const { state } = loaded;
          const entries: JournalEntry[] = [];
          let balancesOnly = true;
          for (const op of batch) {
            try {
              results.push({ ok: true, value: op.fn(state) });
            } catch (err) {
              // Operations check before they change anything: a refusal leaves no trace.
              results.push({ ok: false, value: err });
              continue;
            }
            const acct = op.balanceOf === undefined ? undefined : state.byId.get(op.balanceOf);
            if (op.balanceOf === undefined) balancesOnly = false;
            else if (acct) {
              // A keyed charge's record as it now stands (replay sets it to exactly this).
              const c = op.keyed ? state.data.charges?.[op.keyed.key] : undefined;
              const k = op.keyed && c ? { key: op.keyed.key, n: c.credits, ...(c.refunded ? { refund: true } : {}) } : {};
              entries.push({ rev: 0, id: acct.id, credits: acct.credits, at: acct.updated_at, ...k });
            }
          }
          if (!results.some((r) => r.ok)) {
            if (state !== this.#state) this.#adopt(loaded); // still the freshest read
            return;
          }
          try {
            if (balancesOnly && !loaded.torn && loaded.lines + entries.length <= CHECKPOINT_LINES) {
              // The common case, a charge or a refund: one appended write.
              for (const e of entries) e.rev = ++state.data.rev;
              appendJournal(this.#journal, entries);
              this.#adopt({ ...loaded, cursor: journalStat(this.#journal), lines: loaded.lines + entries.length });
            } else {
              // Anything else, or a long or damaged journal: a new checkpoint, then an empty
              // journal (in this order: see refresh()).
              state.data.rev += 1;
              pruneCharges(state.data);
              this.#db.data = state.data;
              await this.#db.write();
              clearJournal(this.#journal);
              this.#adopt({ state, stamp: this.#fileStamp(), cursor: journalStat(this.#journal), lines: 0, torn: false });
            }
          } catch (err) {
            this.#reload(); // the batch failed as a whole: drop its in-memory changes
            throw err;
          }
        });
      } catch (err) {
        for (const op of batch) op.reject(err);
        continue;
      }
      batch.forEach((op, i) => (results[i].ok ? op.resolve(results[i].value) : op.reject(results[i].value)));
    }
  }
}
