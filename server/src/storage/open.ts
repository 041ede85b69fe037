// Where screenshots go: the data dir (one instance), or PostgreSQL when the ledger is there
// (several instances: any of them serves a link any other made).
import { join } from "node:path";
import type { Pool } from "pg";
import { PgObjectStore, sharedSigningSecret } from "./pg-store.js";
import { loadSigningSecret } from "./signed-url.js";
import { FileObjectStore, type ObjectStore } from "./store.js";

export async function openScreenshotStorage(opts: {
  dataDir: string;
  /** SIGHTLINE_SIGNING_SECRET, when set (wins everywhere). */
  signingSecret: string | null;
  database: Pool | null;
  /** How long an object is kept (a link's life plus a margin). */
  maxAgeMs: number;
}): Promise<{ store: ObjectStore; secret: Buffer }> {
  if (opts.database) {
    const secret = opts.signingSecret?.trim() ? Buffer.from(opts.signingSecret.trim(), "utf8") : await sharedSigningSecret(opts.database);
    return { store: new PgObjectStore(opts.database, opts.maxAgeMs), secret };
  }
  const secret = await loadSigningSecret(opts.dataDir, opts.signingSecret ?? undefined);
  return { store: new FileObjectStore(join(opts.dataDir, "screenshots"), opts.maxAgeMs), secret };
}
