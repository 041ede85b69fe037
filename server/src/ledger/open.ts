// Picks the ledger backend from the configuration: PostgreSQL when a database URL is set,
// else the lowdb file in the data dir.
import { FileLedger, ledgerFile } from "./ledger.js";
import { PgLedger } from "./pg.js";
import type { Ledger } from "./types.js";

export async function openLedger(opts: { dataDir: string; databaseUrl?: string | null; databasePoolSize?: number }): Promise<Ledger> {
  if (opts.databaseUrl) return PgLedger.connect({ url: opts.databaseUrl, poolSize: opts.databasePoolSize });
  return FileLedger.open(ledgerFile(opts.dataDir));
}
