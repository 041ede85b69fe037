// `npm run admin -- <command>`: operator commands on the ledger in SIGHTLINE_DATA_DIR.
// Safe while the server runs: both take the ledger's cross-process lock and re-read the file
// before every write, and the server re-reads the file when it changed (see ledger/ledger.ts).
import { loadConfig } from "../config.js";
import { Ledger, ledgerFile } from "../ledger/index.js";

const USAGE = `usage: npm run admin -- <command>
  create-key --credits N [--inactive] [--label TEXT]   new account; prints its API key as the last line
  credits KEY                                          prints the balance
  set-credits KEY N                                    sets the balance to N
  deactivate KEY                                       requests with KEY get 403
  activate KEY                                         undoes deactivate
  list                                                 accounts (id, key prefix, active, credits)
environment: SIGHTLINE_DATA_DIR (default ./data)`;

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
  const ledger = await Ledger.open(ledgerFile(config.dataDir));
  switch (command) {
    case "create-key": {
      const credits = count(flag(args, "--credits"), "--credits");
      const active = !args.includes("--inactive");
      const { key, account } = await ledger.createAccount({ credits, active, label: flag(args, "--label") ?? null });
      out(`account ${account.id}: ${credits} credits, ${active ? "active" : "inactive"} (data: ${config.dataDir})`);
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
      for (const a of ledger.accounts()) out(`${a.id}  ${a.key_hint}  ${a.active ? "active  " : "inactive"}  ${a.credits}${a.label ? `  ${a.label}` : ""}`);
      break;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : "no command");
  }
  await ledger.flush();
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
