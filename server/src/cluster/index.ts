// Several instances on one PostgreSQL, for the agent path: where each person's extension is
// connected (directory.ts), the hop that relays a call to that instance (relay.ts), the bridge
// every instance sees (bridge.ts) and MCP sessions reachable from any instance (sessions.ts).
// Only with a database: one instance on the lowdb file has none of this.
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { HEARTBEAT_MS } from "@sightline/shared/agent/bridge";
import type { PgLedger } from "../ledger/index.js";
import { Directory } from "./directory.js";
import { Relay } from "./relay.js";
import { ClusterSessions } from "./sessions.js";

export { ClusterBridge, presenceHooks } from "./bridge.js";
export { Directory } from "./directory.js";
export { Relay, relayWriter, secretMatches, CLUSTER_AUTH_HEADER, CLUSTER_ACCOUNT_HEADER, INTERNAL_PREFIX, RELAY_CALL_PATH, RELAY_RELEASE_PATH, RELAY_MCP_PATH } from "./relay.js";
export { ClusterSessions } from "./sessions.js";

export interface Cluster {
  directory: Directory;
  relay: Relay;
  sessions: ClusterSessions;
  /** What the internal routes require in CLUSTER_AUTH_HEADER. */
  secret: string;
  /** Records where the others reach this instance (once it listens). */
  announce(url: string): Promise<void>;
  close(): Promise<void>;
}

/** The secret every instance shares: SIGHTLINE_CLUSTER_SECRET, else made once and kept in the database. */
async function clusterSecret(ledger: PgLedger, fromEnv: string | null): Promise<string> {
  if (fromEnv) return fromEnv;
  const pool = ledger.database;
  await pool.query("INSERT INTO settings (name, value) VALUES ('cluster_secret', $1) ON CONFLICT (name) DO NOTHING", [randomBytes(32).toString("base64url")]);
  const { rows } = await pool.query<{ value: string }>("SELECT value FROM settings WHERE name = 'cluster_secret'");
  return rows[0].value;
}

export async function openCluster(ledger: PgLedger, opts: { secret: string | null; logger: Logger; sessionIdleMs: number; heartbeatMs?: number }): Promise<Cluster> {
  const secret = await clusterSecret(ledger, opts.secret);
  // A presence row counts for three heartbeats, as the hub waits three before dropping a socket.
  const directory = new Directory(ledger.database, ledger.instanceId, 3 * (opts.heartbeatMs ?? HEARTBEAT_MS) + 5_000);
  const relay = new Relay(secret, opts.logger);
  const sessions = new ClusterSessions(directory, relay, opts.logger, opts.sessionIdleMs);
  const sweeper = setInterval(() => void directory.sweep().catch(() => undefined), 10 * 60_000);
  sweeper.unref();
  return {
    directory,
    relay,
    sessions,
    secret,
    announce: (url) => directory.announce(url),
    close: async () => {
      clearInterval(sweeper);
      relay.close();
      await directory.leave().catch(() => undefined);
    },
  };
}
