// `npm run admin -- <command>`: operator commands on the ledger: PostgreSQL when
// SIGHTLINE_DATABASE_URL is set, else the lowdb file in SIGHTLINE_DATA_DIR.
// Safe while servers run: on the file, both take the ledger's cross-process lock and re-read the
// file before every write, and the server re-reads the file when it changed (ledger/ledger.ts);
// in PostgreSQL every change is one statement and every request reads the database.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../config.js";
import { FileLedger, ledgerFile, openLedger, type Ledger } from "../ledger/index.js";

const USAGE = `usage: npm run admin -- <command>
  create-key --credits N [--inactive] [--label TEXT]   new account; prints its API key as the last line
  credits KEY                                          prints the balance
  set-credits KEY N                                    sets the balance to N
  deactivate KEY                                       requests with KEY get 403
  activate KEY                                         undoes deactivate
  list                                                 accounts (id, key prefix, active, credits)
  import-file [PATH]                                   copies the accounts of a lowdb ledger (default:
                                                       the data dir's ledger.json) into PostgreSQL
environment: SIGHTLINE_DATABASE_URL (PostgreSQL) or SIGHTLINE_DATA_DIR (lowdb; default ./data)`;

class UsageError extends Error {}

function count(raw: string | undefined, what: string): number {
  const n = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw new UsageError(`${what} must be a non-negative integer`);
  return n;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new UsageError(`${name} needs a value`);
  return v;
}

async function accountOf(ledger: Ledger, key: string | undefined) {
  if (!key) throw new UsageError("an API key is required");
  const account = await ledger.authenticate(key);
  if (!account) {
    process.stderr.write("unknown API key\n");
    process.exit(1);
  }
  return account;
}

async function run(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<void> {
  const [command, ...args] = argv;
  const config = loadConfig(process.env);
  if (command === undefined) throw new UsageError("no command");
  const ledger = await openLedger(config);
  const where = ledger.kind === "postgres" ? "PostgreSQL" : `data: ${config.dataDir}`;
  try {
    await runOn(ledger, command, args, out, where, config.dataDir);
  } finally {
    await ledger.close();
  }
}

async function runOn(ledger: Ledger, command: string, args: string[], out: (line: string) => void, where: string, dataDir: string): Promise<void> {
  switch (command) {
    case "create-key": {
      const credits = count(flag(args, "--credits"), "--credits");
      const active = !args.includes("--inactive");
      const { key, account } = await ledger.createAccount({ credits, active, label: flag(args, "--label") ?? null });
      out(`account ${account.id}: ${credits} credits, ${active ? "active" : "inactive"} (${where})`);
      out("API key (shown once; only its hash is stored):");
      out(key);
      break;
    }
    case "credits": {
      out(String((await accountOf(ledger, args[0])).credits));
      break;
    }
    case "set-credits": {
      const account = await accountOf(ledger, args[0]);
      const n = count(args[1], "N");
      out(String(await ledger.setCredits(account.id, n)));
      break;
    }
    case "deactivate":
    case "activate": {
      const account = await accountOf(ledger, args[0]);
      await ledger.setActive(account.id, command === "activate");
      out(`${account.key_hint} ${command}d`);
      break;
    }
    case "list": {
      for (const a of await ledger.listAccounts()) out(`${a.id}  ${a.key_hint}  ${a.active ? "active  " : "inactive"}  ${a.credits}${a.label ? `  ${a.label}` : ""}`);
      break;
    }
    case "import-file": {
      await importFile(ledger, resolve(args[0] ?? ledgerFile(dataDir)), out);
      break;
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
  await ledger.flush();
}

/**
 * Moves a lowdb ledger into PostgreSQL: every account as it is (id, key hash, balance, active,
 * label, dates), so the same API keys keep working with the same balances. Accounts already in
 * the database (same id or key) are left as they are and named. The file is only read.
 */
async function importFile(target: Ledger, file: string, out: (line: string) => void): Promise<void> {
  if (target.kind !== "postgres") throw new UsageError("import-file moves a lowdb ledger into PostgreSQL: set SIGHTLINE_DATABASE_URL");
  if (!existsSync(file)) throw new UsageError(`no ledger file at ${file}`);
  const source = await FileLedger.open(file); // checkpoint + journal: the balances as of now
  const accounts = source.accounts();
  let moved = 0;
  let credits = 0;
  const skipped: string[] = [];
  for (const a of accounts) {
    if (await target.importAccount(a)) {
      moved++;
      credits += a.credits;
      out(`moved    ${a.id}  ${a.key_hint}  ${a.active ? "active  " : "inactive"}  ${a.credits}${a.label ? `  ${a.label}` : ""}`);
    } else {
      skipped.push(a.id);
      out(`kept     ${a.id}  ${a.key_hint}  already in PostgreSQL (left as it is there)`);
    }
  }
  out(`moved ${moved} of ${accounts.length} accounts (${credits} credits in all) from ${file} into PostgreSQL; ${skipped.length} already there.`);
  out("The file was only read: point every instance at SIGHTLINE_DATABASE_URL now (charges made on the file after this are not moved).");
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
