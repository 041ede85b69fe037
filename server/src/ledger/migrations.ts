// The PostgreSQL schema, as numbered migrations applied in order at start. Every instance runs
// this when it starts: the whole run is one transaction under an advisory lock, so instances
// starting together apply each migration once (the others wait, then find it applied), and a
// failed migration leaves the schema as it was. Never edit a migration that has shipped: add one.
import type { Pool } from "pg";

/** Advisory lock namespace of Sightline (first key of the two-int form): "SL". */
export const LOCK_NAMESPACE = 0x534c;
/** Second key of the migration lock (instances' presence locks use random positive ids). */
const MIGRATION_LOCK = 0;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "ledger",
    sql: `
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        key_hash text NOT NULL UNIQUE,
        key_hint text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        credits bigint NOT NULL CHECK (credits >= 0),
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Every charge, keyed: a charge key is applied once, whoever sends it how often.
      CREATE TABLE charges (
        key text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        credits bigint NOT NULL CHECK (credits >= 0),
        request_id text,
        at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX charges_account_at ON charges (account_id, at);
      -- Every refund, keyed by the charge it gives back: at most one per charge.
      CREATE TABLE refunds (
        key text PRIMARY KEY REFERENCES charges (key),
        at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 2,
    name: "idempotency",
    sql: `
      CREATE TABLE idempotency (
        account_id text NOT NULL REFERENCES accounts (id),
        key text NOT NULL,
        fingerprint text NOT NULL,
        generation text NOT NULL,
        owner integer NOT NULL,
        state text NOT NULL CHECK (state IN ('running', 'done')),
        answer jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, key)
      );
      CREATE INDEX idempotency_created ON idempotency (created_at);
    `,
  },
  {
    version: 3,
    name: "shared state: rate limits, screenshots, settings",
    sql: `
      CREATE TABLE rate_buckets (
        account_id text PRIMARY KEY,
        tokens double precision NOT NULL,
        taken boolean NOT NULL,
        at timestamptz NOT NULL
      );
      CREATE TABLE screenshots (
        id text PRIMARY KEY,
        content_type text NOT NULL,
        data bytea NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX screenshots_expires ON screenshots (expires_at);
      CREATE TABLE settings (
        name text PRIMARY KEY,
        value text NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: "cluster: instances, the bridge's presence, MCP sessions (server/src/cluster)",
    sql: `
      -- Every running instance and where the others reach it; id is its presence lock id, so
      -- pg_locks tells whether it is alive.
      CREATE TABLE cluster_instances (
        id integer PRIMARY KEY,
        url text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now()
      );
      -- Each extension's handle prefix ("b1"), per account, kept across reconnects to any
      -- instance so the agent's tab handles stay the same.
      CREATE TABLE bridge_prefixes (
        account_id text NOT NULL REFERENCES accounts (id),
        extension text NOT NULL,
        prefix text NOT NULL,
        PRIMARY KEY (account_id, extension),
        UNIQUE (account_id, prefix)
      );
      -- Which instance holds each connected extension, and the tabs it shared.
      CREATE TABLE bridge_presence (
        account_id text NOT NULL REFERENCES accounts (id),
        extension text NOT NULL,
        prefix text NOT NULL,
        instance integer NOT NULL,
        connection text NOT NULL,
        tabs jsonb NOT NULL DEFAULT '[]',
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, extension)
      );
      CREATE INDEX bridge_presence_instance ON bridge_presence (instance);
      -- MCP sessions: which instance serves each one (requests reaching another are relayed).
      CREATE TABLE mcp_sessions (
        id text PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts (id),
        agent_id text NOT NULL,
        owner integer NOT NULL,
        used_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX mcp_sessions_expires ON mcp_sessions (expires_at);
    `,
  },
];

/** Applies the migrations this database lacks; returns the versions applied now. */
export async function migrate(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // Taken before anything else, so even the first CREATE TABLE is never run twice at once.
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_NAMESPACE, MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS sightline_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>("SELECT version FROM sightline_migrations");
    const have = new Set(rows.map((r) => r.version));
    const newer = Math.max(0, ...have);
    const known = Math.max(0, ...migrations.map((m) => m.version));
    // An older build must not run against a schema a newer one changed.
    if (newer > known) throw new Error(`the database schema is at version ${newer}, newer than this Sightline knows (${known}): upgrade Sightline`);
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (have.has(m.version)) continue;
      await client.query(m.sql);
      await client.query("INSERT INTO sightline_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
