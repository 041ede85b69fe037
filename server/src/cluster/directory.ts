// Where the person is and who serves each agent, in PostgreSQL, for several instances on one
// database: the instances and their internal URLs, each connected extension (which instance
// holds it, its tabs, a heartbeat and an expiry) and each MCP session's serving instance.
//
// An instance is alive while it holds its presence lock (ledger/pg.ts): a row of an instance
// killed with SIGKILL stops counting the moment PostgreSQL sees its connection close, without
// waiting for the row's expiry; the expiry covers the rest (a partitioned instance, a row
// nobody deleted). Rows are only ever read through `live`.
import type { Pool } from "pg";
import type { AgentTab } from "@sightline/shared/agent";
import { LOCK_NAMESPACE } from "../ledger/migrations.js";

/** SQL: the instance whose id is in column `col` is alive (holds its presence lock). */
const live = (col: string) =>
  `EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
           AND l.classid::bigint = ${LOCK_NAMESPACE} AND l.objid::bigint = ${col})`;

export interface PresenceRow {
  extension: string;
  prefix: string;
  instance: number;
  url: string;
  /** The extension's own tab ids, as it last reported them. */
  tabs: AgentTab[];
}

export interface SessionRow {
  account: string;
  agentId: string;
  owner: number;
  /** The owner's internal URL, when it is alive. */
  url: string | null;
}

export class Directory {
  constructor(
    private readonly pool: Pool,
    /** This instance (its presence lock id). */
    readonly instance: number,
    /** How long a presence row counts without a heartbeat. */
    private readonly presenceTtlMs: number,
  ) {}

  // ---- instances ----------------------------------------------------------------------------

  /** Records where the other instances reach this one; removes rows of dead instances. */
  async announce(url: string): Promise<void> {
    await this.pool.query(
      "INSERT INTO cluster_instances (id, url) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, started_at = now()",
      [this.instance, url],
    );
    await this.pool.query(`DELETE FROM cluster_instances i WHERE id <> $1 AND NOT ${live("i.id")}`, [this.instance]);
  }

  /**
   * This instance is stopping: its extensions are no longer here. Its MCP sessions' rows stay:
   * the instance their next request reaches takes them over once this one is gone.
   */
  async leave(): Promise<void> {
    await this.pool.query("DELETE FROM bridge_presence WHERE instance = $1", [this.instance]);
  }

  // ---- the bridge ---------------------------------------------------------------------------

  /** The extension's handle prefix for this account ("b1", "b2", …), the same on every instance. */
  async prefix(account: string, extension: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const { rows } = await this.pool.query<{ prefix: string }>("SELECT prefix FROM bridge_prefixes WHERE account_id = $1 AND extension = $2", [account, extension]);
      if (rows[0]) return rows[0].prefix;
      try {
        await this.pool.query(
          `INSERT INTO bridge_prefixes (account_id, extension, prefix)
           SELECT $1, $2, 'b' || (coalesce(max(substr(prefix, 2)::int), 0) + 1) FROM bridge_prefixes WHERE account_id = $1
           ON CONFLICT (account_id, extension) DO NOTHING`,
          [account, extension],
        );
      } catch (err) {
        // Another extension of the account took the same number at the same moment: again.
        if ((err as { code?: string }).code !== "23505" || attempt > 5) throw err;
      }
    }
  }

  /** An extension connected here (a newer connection of it anywhere replaces the row). */
  async connected(account: string, extension: string, prefix: string, connection: string, tabs: AgentTab[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO bridge_presence (account_id, extension, prefix, instance, connection, tabs, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond')
       ON CONFLICT (account_id, extension) DO UPDATE SET prefix = EXCLUDED.prefix, instance = EXCLUDED.instance,
         connection = EXCLUDED.connection, tabs = EXCLUDED.tabs, heartbeat_at = now(), expires_at = EXCLUDED.expires_at`,
      [account, extension, prefix, this.instance, connection, JSON.stringify(tabs), this.presenceTtlMs],
    );
  }

  /** Its tabs changed, or it is still there (heartbeat): the row is renewed. */
  async refresh(account: string, extension: string, connection: string, tabs?: AgentTab[]): Promise<void> {
    await this.pool.query(
      `UPDATE bridge_presence SET heartbeat_at = now(), expires_at = now() + $4 * interval '1 millisecond'${tabs ? ", tabs = $5" : ""}
       WHERE account_id = $1 AND extension = $2 AND connection = $3`,
      tabs ? [account, extension, connection, this.presenceTtlMs, JSON.stringify(tabs)] : [account, extension, connection, this.presenceTtlMs],
    );
  }

  /** The connection ended (only its own row goes: a newer connection elsewhere stays). */
  async disconnected(account: string, extension: string, connection: string): Promise<void> {
    await this.pool.query("DELETE FROM bridge_presence WHERE account_id = $1 AND extension = $2 AND connection = $3", [account, extension, connection]);
  }

  /** Every live extension of the account, wherever it is connected. */
  async extensions(account: string): Promise<PresenceRow[]> {
    const { rows } = await this.pool.query<{ extension: string; prefix: string; instance: number; url: string; tabs: AgentTab[] }>(
      `SELECT p.extension, p.prefix, p.instance, i.url, p.tabs FROM bridge_presence p JOIN cluster_instances i ON i.id = p.instance
       WHERE p.account_id = $1 AND p.expires_at > now() AND ${live("p.instance")} ORDER BY p.prefix`,
      [account],
    );
    return rows;
  }

  // ---- MCP sessions -------------------------------------------------------------------------

  async sessionOpened(id: string, account: string, agentId: string, idleMs: number): Promise<void> {
    await this.pool.query(
      "INSERT INTO mcp_sessions (id, account_id, agent_id, owner, expires_at) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond') ON CONFLICT (id) DO NOTHING",
      [id, account, agentId, this.instance, idleMs],
    );
  }

  async sessionUsed(id: string, idleMs: number): Promise<void> {
    await this.pool.query("UPDATE mcp_sessions SET used_at = now(), expires_at = now() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2", [
      id,
      this.instance,
      idleMs,
    ]);
  }

  async sessionEnded(id: string): Promise<void> {
    await this.pool.query("DELETE FROM mcp_sessions WHERE id = $1 AND owner = $2", [id, this.instance]);
  }

  /** A session of `account` (someone else's is not found), with its owner and whether it lives. */
  async session(id: string, account: string): Promise<SessionRow | null> {
    const { rows } = await this.pool.query<{ agent_id: string; owner: number; url: string | null }>(
      `SELECT s.agent_id, s.owner, CASE WHEN ${live("s.owner")} THEN i.url END AS url
       FROM mcp_sessions s LEFT JOIN cluster_instances i ON i.id = s.owner
       WHERE s.id = $1 AND s.account_id = $2 AND s.expires_at > now()`,
      [id, account],
    );
    const r = rows[0];
    return r ? { account, agentId: r.agent_id, owner: r.owner, url: r.url } : null;
  }

  /** Takes over a session whose owner died; false when another instance took it first. */
  async takeOver(id: string, from: number, idleMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      "UPDATE mcp_sessions SET owner = $2, used_at = now(), expires_at = now() + $4 * interval '1 millisecond' WHERE id = $1 AND owner = $3",
      [id, this.instance, from, idleMs],
    );
    return rowCount === 1;
  }

  /** Deletes expired rows (sessions and presence). */
  async sweep(): Promise<void> {
    await this.pool.query("DELETE FROM mcp_sessions WHERE expires_at <= now()");
    await this.pool.query("DELETE FROM bridge_presence WHERE expires_at <= now()");
  }
}
