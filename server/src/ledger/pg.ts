// The credit ledger in PostgreSQL, for several Sightline instances sharing one database
// (SIGHTLINE_DATABASE_URL). The database does the concurrency control, so instances share
// nothing else:
// - A charge is one statement: it takes the credits only where the balance covers them
//   (`credits >= n` under the row lock, re-checked on the newest row version by PostgreSQL), and
//   inserts the charge row keyed by its charge key; a key already there is not charged again
//   (a second insert of the same key aborts the statement, which is then re-run and finds it).
//   A CHECK constraint keeps every balance >= 0 whatever a statement says.
// - A refund is one statement too, a row keyed by the charge it refunds: at most once.
// - A statement cut off by a lost connection is retried with the same key: applied once.
// - Reads go to the database every time (authentication is one indexed lookup), so an admin
//   change made anywhere is seen by the next request on every instance.
import { randomInt } from "node:crypto";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import { nextChargeKey } from "./charge-scope.js";
import type { Claim, IdempotencyStore, StoredAnswer } from "./idempotency.js";
import { generateKey, hashKey, keyHint, sameHash } from "./keys.js";
import { insufficientCredits } from "./ledger.js";
import { LOCK_NAMESPACE, migrate } from "./migrations.js";
import { reservation, type Account, type Ledger, type NewAccount, type Reservation } from "./types.js";

export interface PgLedgerOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections this instance keeps at most (SIGHTLINE_DATABASE_POOL). */
  poolSize?: number;
  log?: (level: "info" | "warn", msg: string, fields?: Record<string, unknown>) => void;
}

interface AccountRow {
  id: string;
  key_hash: string;
  key_hint: string;
  active: boolean;
  credits: number;
  label: string | null;
  created_at: Date;
  updated_at: Date;
}

const ACCOUNT_COLUMNS = "id, key_hash, key_hint, active, credits, label, created_at, updated_at";

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  key_hash: r.key_hash,
  key_hint: r.key_hint,
  active: r.active,
  credits: r.credits,
  label: r.label,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

// bigint (int8) as a JS number: balances stay far below 2^53.
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** Errors after which a statement may or may not have been applied: retried when keyed. */
function connectionLost(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|57P0[123]|08\d{3})$/.test(e.code)) return true;
  return /Connection terminated|connection error|Client has encountered a connection error/i.test(e.message ?? "");
}

const inactive = () => new ContractError("forbidden", ERROR_NAMES.inactive, `${ERROR_NAMES.inactive}: this API key's account is deactivated`);
const unknownAccount = () => new ContractError("unauthorized", ERROR_NAMES.unauthorized, "Unauthorized: unknown account");

const CHARGE_SQL = `
  WITH upd AS (
    UPDATE accounts SET credits = credits - $3, updated_at = now()
    WHERE id = $2 AND active AND credits >= $3
      AND NOT EXISTS (SELECT 1 FROM charges WHERE key = $1)
    RETURNING credits
  ), ins AS (
    INSERT INTO charges (key, account_id, credits, request_id) SELECT $1, $2, $3, $4 FROM upd RETURNING key
  )
  SELECT (SELECT credits FROM upd) AS after, a.credits AS before, a.active,
         EXISTS (SELECT 1 FROM charges WHERE key = $1) AS applied
  FROM accounts a WHERE a.id = $2`;

const REFUND_SQL = `
  WITH r AS (
    INSERT INTO refunds (key) SELECT key FROM charges WHERE key = $1 ON CONFLICT DO NOTHING RETURNING key
  )
  UPDATE accounts a SET credits = a.credits + c.credits, updated_at = now()
  FROM charges c, r WHERE c.key = r.key AND a.id = c.account_id
  RETURNING a.id, a.credits`;

export class PgLedger implements Ledger {
  readonly kind = "postgres" as const;
  readonly database: pg.Pool;
  readonly idempotency: PgIdempotencyStore;
  readonly #seen = new Map<string, number>();
  readonly #presence: Presence;

  private constructor(pool: pg.Pool, presence: Presence) {
    this.database = pool;
    this.#presence = presence;
    this.idempotency = new PgIdempotencyStore(pool, presence);
  }

  /** This instance's id among the instances on this database (its presence lock; server/src/cluster). */
  get instanceId(): number {
    return this.#presence.id;
  }

  /** Connects, brings the schema up to date (migrations) and announces this instance. */
  static async connect(opts: PgLedgerOptions): Promise<PgLedger> {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      types: TYPES,
      application_name: "sightline",
    });
    // An idle connection that breaks (database restart) must not take the process down.
    pool.on("error", (err) => opts.log?.("warn", "idle database connection failed", { err: err.message }));
    try {
      await migrate(pool);
      const presence = await Presence.start(opts.url, opts.log);
      return new PgLedger(pool, presence);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  }

  /** Runs a statement; `retry`: it is safe to run again (keyed), so a lost connection is retried. */
  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[], retry = false): Promise<pg.QueryResult<R>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.database.query<R>(sql, params);
      } catch (err) {
        if (!retry || attempt >= 3 || !connectionLost(err)) throw err;
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    }
  }

  #note(a: { id: string; credits: number }): void {
    this.#seen.set(a.id, a.credits);
  }

  async authenticate(key: string): Promise<Readonly<Account> | null> {
    const hash = hashKey(key);
    const { rows } = await this.#query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE key_hash = $1`, [hash], true);
    const row = rows[0];
    if (!row || !sameHash(row.key_hash, hash)) return null;
    this.#note(row);
    return toAccount(row);
  }

  creditsOf(id: string): number | undefined {
    return this.#seen.get(id);
  }

  async listAccounts(): Promise<readonly Readonly<Account>[]> {
    const { rows } = await this.#query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at, id`, [], true);
    rows.forEach((r) => this.#note(r));
    return rows.map(toAccount);
  }

  async createAccount(opts: NewAccount): Promise<{ key: string; account: Account }> {
    if (!Number.isSafeInteger(opts.credits) || opts.credits < 0) throw new RangeError("credits must be a non-negative integer");
    const key = generateKey();
    const { rows } = await this.#query<AccountRow>(
      `INSERT INTO accounts (id, key_hash, key_hint, active, credits, label) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ACCOUNT_COLUMNS}`,
      [`acct_${randomUUID()}`, hashKey(key), keyHint(key), opts.active ?? true, opts.credits, opts.label ?? null],
    );
    this.#note(rows[0]);
    return { key, account: toAccount(rows[0]) };
  }

  async importAccount(a: Account): Promise<boolean> {
    const { rowCount } = await this.#query(
      `INSERT INTO accounts (id, key_hash, key_hint, active, credits, label, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [a.id, a.key_hash, a.key_hint, a.active, a.credits, a.label, a.created_at, a.updated_at],
      true,
    );
    return rowCount === 1;
  }

  async setCredits(id: string, credits: number): Promise<number> {
    if (!Number.isSafeInteger(credits) || credits < 0) throw new RangeError("credits must be a non-negative integer");
    const { rows } = await this.#query<{ id: string; credits: number }>(
      "UPDATE accounts SET credits = $2, updated_at = now() WHERE id = $1 RETURNING id, credits",
      [id, credits],
      true,
    );
    if (!rows[0]) throw unknownAccount();
    this.#note(rows[0]);
    return rows[0].credits;
  }

  async setActive(id: string, active: boolean): Promise<void> {
    const { rowCount } = await this.#query("UPDATE accounts SET active = $2, updated_at = now() WHERE id = $1", [id, active], true);
    if (rowCount !== 1) throw unknownAccount();
  }

  async reserve(id: string, n: number): Promise<Reservation> {
    const { key, requestId } = nextChargeKey();
    const remaining = await this.#charge(key, id, n, requestId ?? null);
    return reservation(remaining, async () => {
      const { rows } = await this.#query<{ id: string; credits: number }>(REFUND_SQL, [key], true);
      if (rows[0]) this.#note(rows[0]);
    });
  }

  async #charge(key: string, id: string, n: number, requestId: string | null): Promise<number> {
    type Row = { after: number | null; before: number; active: boolean; applied: boolean };
    for (let attempt = 0; ; attempt++) {
      let rows: Row[];
      try {
        ({ rows } = await this.#query<Row>(CHARGE_SQL, [key, id, n, requestId], true));
      } catch (err) {
        // The same key charged at the same moment elsewhere: run again, and find it applied.
        if ((err as { code?: string }).code === "23505" && attempt < 2) continue;
        throw err;
      }
      const r = rows[0];
      if (!r) throw unknownAccount();
      if (r.after !== null) {
        this.#seen.set(id, r.after);
        return r.after;
      }
      if (!r.active) throw inactive();
      if (r.applied) return r.before; // an earlier attempt of this request was charged: not again
      this.#seen.set(id, r.before);
      throw insufficientCredits(n, r.before);
    }
  }

  async ping(): Promise<void> {
    await this.database.query("SELECT 1");
  }

  async flush(): Promise<void> {
    // Every write is committed before its promise resolves.
  }

  async close(): Promise<void> {
    await this.#presence.stop();
    await this.database.end();
  }
}

/**
 * This instance's presence: a connection of its own holding an advisory lock on a random id
 * for as long as the instance lives. The id owns the instance's running idempotent requests;
 * when the process dies its connection closes and the lock goes with it, which other instances
 * read (pg_locks) as "the owner is gone: take over".
 */
class Presence {
  #client: pg.Client | null = null;
  #stopped = false;

  private constructor(
    private readonly url: string,
    readonly id: number,
    private readonly log?: PgLedgerOptions["log"],
  ) {}

  static async start(url: string, log?: PgLedgerOptions["log"]): Promise<Presence> {
    for (;;) {
      const p = new Presence(url, randomInt(1, 2 ** 31 - 1), log);
      if (await p.#connect()) return p;
    }
  }

  /** False when the id was taken (another instance drew the same number). */
  async #connect(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, application_name: "sightline-presence", keepAlive: true });
    client.on("error", () => undefined); // handled on "end"
    await client.connect();
    const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [LOCK_NAMESPACE, this.id]);
    if (!rows[0]?.ok) {
      await client.end();
      return false;
    }
    this.#client = client;
    client.once("end", () => {
      if (this.#client === client) this.#client = null;
      if (!this.#stopped) void this.#reconnect();
    });
    return true;
  }

  async #reconnect(): Promise<void> {
    this.log?.("warn", "database presence connection lost; reconnecting");
    for (let delay = 200; !this.#stopped; delay = Math.min(delay * 2, 5000)) {
      await new Promise((r) => setTimeout(r, delay));
      if (this.#stopped) return;
      try {
        if (await this.#connect()) return;
      } catch {
        // the database is still away
      }
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const c = this.#client;
    this.#client = null;
    await c?.end().catch(() => undefined);
  }
}

const SWEEP_EVERY_MS = 600_000;

/** Idempotency-Key answers in PostgreSQL (see idempotency.ts), shared by every instance. */
class PgIdempotencyStore implements IdempotencyStore {
  #lastSweep = 0;
  constructor(
    private readonly pool: pg.Pool,
    private readonly presence: Presence,
  ) {}

  #claimed(accountId: string, key: string, generation: string): Claim {
    const me = this.presence.id;
    return {
      state: "claimed",
      generation,
      finish: async (answer: StoredAnswer | null) => {
        if (answer) {
          await this.pool.query(
            "UPDATE idempotency SET state = 'done', answer = $5 WHERE account_id = $1 AND key = $2 AND generation = $3 AND owner = $4",
            [accountId, key, generation, me, JSON.stringify(answer)],
          );
        } else {
          await this.pool.query("DELETE FROM idempotency WHERE account_id = $1 AND key = $2 AND generation = $3 AND owner = $4", [accountId, key, generation, me]);
        }
      },
    };
  }

  async claim(accountId: string, key: string, fingerprint: string): Promise<Claim> {
    this.#maybeSweep();
    const me = this.presence.id;
    for (let attempt = 0; attempt < 3; attempt++) {
      // New, or past its 24 h: ours.
      const ins = await this.pool.query<{ generation: string }>(
        `INSERT INTO idempotency AS i (account_id, key, fingerprint, generation, owner, state) VALUES ($1, $2, $3, $4, $5, 'running')
         ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, generation = EXCLUDED.generation,
           owner = EXCLUDED.owner, state = 'running', answer = NULL, created_at = now()
         WHERE i.created_at < now() - interval '24 hours'
         RETURNING generation`,
        [accountId, key, fingerprint, randomUUID(), me],
      );
      if (ins.rows[0]) return this.#claimed(accountId, key, ins.rows[0].generation);
      const { rows } = await this.pool.query<{ fingerprint: string; generation: string; owner: number; state: string; answer: StoredAnswer | null; orphaned: boolean }>(
        `SELECT fingerprint, generation, owner, state, answer,
           NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                       AND l.classid::bigint = $3 AND l.objid::bigint = i.owner) AS orphaned
         FROM idempotency i WHERE account_id = $1 AND key = $2`,
        [accountId, key, LOCK_NAMESPACE],
      );
      const found = rows[0];
      if (!found) continue; // freed meanwhile: claim again
      if (found.state === "done" && found.answer) return { state: "done", fingerprint: found.fingerprint, answer: found.answer };
      if (found.orphaned && found.owner !== me) {
        // Its instance died mid-request: take it over, same generation (same charge key).
        const took = await this.pool.query(
          "UPDATE idempotency SET owner = $3 WHERE account_id = $1 AND key = $2 AND state = 'running' AND owner = $4 AND generation = $5",
          [accountId, key, me, found.owner, found.generation],
        );
        if (took.rowCount === 1) return this.#claimed(accountId, key, found.generation);
        continue;
      }
      return { state: "running", fingerprint: found.fingerprint };
    }
    return { state: "running", fingerprint };
  }

  #maybeSweep(): void {
    if (Date.now() - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = Date.now();
    void this.pool.query("DELETE FROM idempotency WHERE created_at < now() - interval '24 hours'").catch(() => undefined);
  }
}
