// The development API key `npm start` prints. It is created once (with SIGHTLINE_DEV_CREDITS
// credits) and its plaintext is kept in <data dir>/dev-key (mode 0600), because the ledger
// stores only hashes: without that file a restart could not print the same key again, and a
// developer's scripts and extension settings would break on every start.
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Ledger } from "./ledger/index.js";

export const devKeyPath = (dataDir: string) => join(dataDir, "dev-key");

export interface DevKey {
  key: string;
  credits: number;
  created: boolean;
}

export async function ensureDevKey(ledger: Ledger, dataDir: string, credits: number): Promise<DevKey> {
  const file = devKeyPath(dataDir);
  const saved = (await readFile(file, "utf8").catch(() => "")).trim();
  if (saved) {
    const account = await ledger.authenticate(saved);
    if (account) return { key: saved, credits: account.credits, created: false };
  }
  const { key, account } = await ledger.createAccount({ credits, label: "development key (npm start)" });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // mode applies only when the file is new
  return { key, credits: account.credits, created: true };
}
