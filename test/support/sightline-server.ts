// The real Sightline server for tests: loopback, a free port, a fresh temp data dir (its own
// lowdb ledger), logs off, rate limiting off unless asked for. Use it from any test file:
//
//   import { startSightline, type Sightline } from "../support/sightline-server.js";
//   let sl: Sightline;
//   beforeAll(async () => { sl = await startSightline(); });      // or startSightline({ config: { snapshotCap: 10 } })
//   afterAll(() => sl.close());                                     // stops it and deletes the data dir
//   const key = await sl.createKey(5);                              // active account, 5 credits
//   const res = await fetch(`${sl.origin}/v1/snapshot`, { method: "POST", headers: sl.headers(key), body: JSON.stringify(req) });
//   expect(await sl.credits(key)).toBe(4);
//
// process.env is NOT read (a developer's SIGHTLINE_* variables cannot change test results);
// pass `env` to test configuration parsing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, startServer, type AppParts, type LogLevel, type RunningServer, type ServerConfig } from "@sightline/server";

function collectingLogger(lines: string[], level: LogLevel) {
  return createLogger(level, { write: (line: string) => void lines.push(line) });
}

export interface SightlineOptions {
  /** Config overrides (port, host and dataDir are set for you unless given). */
  config?: Partial<ServerConfig>;
  /** Environment variables to read instead of process.env (default: none). */
  env?: Record<string, string | undefined>;
  /** Reuse a data dir (e.g. to test a restart); it is then NOT deleted on close. */
  dataDir?: string;
  /** Replaces the refinement engine (fault injection only). */
  refine?: AppParts["refine"];
  /** The extension bridge to use instead of none (tests of /mcp without an extension). */
  bridge?: AppParts["bridge"];
  /** Collect the server's JSON log lines here (level "info" unless config.logLevel says otherwise). */
  logLines?: string[];
}

export interface Sightline {
  /** e.g. http://127.0.0.1:43121 */
  origin: string;
  dataDir: string;
  server: RunningServer;
  /** Creates an account and returns its API key (shown once, stored hashed). */
  createKey(credits: number, opts?: { active?: boolean }): Promise<string>;
  /** Current balance of a key (after pending writes); throws for an unknown key. */
  credits(key: string): Promise<number>;
  setActive(key: string, active: boolean): Promise<void>;
  setCredits(key: string, credits: number): Promise<void>;
  /** Authorization + JSON content-type headers for `key`. */
  headers(key: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startSightline(opts: SightlineOptions = {}): Promise<Sightline> {
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), "sightline-test-")));
  const server = await startServer(
    { host: "127.0.0.1", port: 0, dataDir, logLevel: "silent", rateLimitPerMinute: 0, ...opts.config },
    opts.env ?? {},
    {
      ...(opts.refine ? { refine: opts.refine } : {}),
      ...(opts.bridge ? { bridge: opts.bridge } : {}),
      ...(opts.logLines ? { logger: collectingLogger(opts.logLines, opts.config?.logLevel ?? "info") } : {}),
    },
  );
  const { ledger } = server;
  const accountOf = async (key: string) => {
    await ledger.flush();
    const acct = await ledger.authenticate(key);
    if (!acct) throw new Error("unknown API key");
    return acct;
  };
  return {
    origin: server.origin,
    dataDir,
    server,
    createKey: async (credits, o = {}) => (await ledger.createAccount({ credits, active: o.active ?? true })).key,
    credits: async (key) => (await accountOf(key)).credits,
    setActive: async (key, active) => ledger.setActive((await accountOf(key)).id, active),
    setCredits: async (key, credits) => void (await ledger.setCredits((await accountOf(key)).id, credits)),
    headers: (key) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" }),
    close: async () => {
      await server.close();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
