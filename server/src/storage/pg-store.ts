// Screenshots in PostgreSQL, for several instances: a link made by one instance is served by
// any other. Each object carries its expiry; reads ignore expired ones, and a sweep (at most
// every 10 minutes, after a put) deletes them. The signing secret of the links is shared
// through the database too (settings), made once by whichever instance needs it first.
import { randomBytes } from "node:crypto";
import type { Pool } from "pg";
import { OBJECT_ID, type ObjectStore, type StoredObject } from "./store.js";

export class PgObjectStore implements ObjectStore {
  #lastSweep = 0;
  constructor(
    private readonly pool: Pool,
    /** How long an object is kept after its put. */
    private readonly maxAgeMs: number,
    private readonly sweepEveryMs = 10 * 60 * 1000,
  ) {}

  async put(id: string, data: Buffer, contentType: string): Promise<void> {
    if (!OBJECT_ID.test(id)) throw new Error(`invalid object id: ${id}`);
    await this.pool.query(
      "INSERT INTO screenshots (id, content_type, data, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')",
      [id, contentType, data, this.maxAgeMs],
    );
    if (Date.now() - this.#lastSweep > this.sweepEveryMs) {
      this.#lastSweep = Date.now();
      void this.sweep().catch(() => undefined);
    }
  }

  async get(id: string): Promise<StoredObject | null> {
    if (!OBJECT_ID.test(id)) return null;
    const { rows } = await this.pool.query<{ data: Buffer; content_type: string }>(
      "SELECT data, content_type FROM screenshots WHERE id = $1 AND expires_at > now()",
      [id],
    );
    return rows[0] ? { data: rows[0].data, contentType: rows[0].content_type } : null;
  }

  /** Deletes expired objects; returns how many. */
  async sweep(): Promise<number> {
    const { rowCount } = await this.pool.query("DELETE FROM screenshots WHERE expires_at <= now()");
    return rowCount ?? 0;
  }
}

/** The link signing secret every instance shares: made once (32 random bytes), then read. */
export async function sharedSigningSecret(pool: Pool): Promise<Buffer> {
  await pool.query("INSERT INTO settings (name, value) VALUES ('signing_secret', $1) ON CONFLICT (name) DO NOTHING", [randomBytes(32).toString("hex")]);
  const { rows } = await pool.query<{ value: string }>("SELECT value FROM settings WHERE name = 'signing_secret'");
  return Buffer.from(rows[0].value, "hex");
}
