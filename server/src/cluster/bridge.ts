// The bridge as every instance sees it: the person's extensions connected here (the hub) and
// those connected to other instances (the directory in PostgreSQL). A call for a tab held
// here goes to the hub; one held elsewhere is relayed to that instance's hub, which takes the
// lease, sends the call to the extension and streams its progress and answer back. The lease
// therefore lives with the extension's connection: every agent acting on a tab, whichever
// instance it reached, meets the same lease, and it ends with that connection.
import type { Logger } from "pino";
import { type AgentBackend, type AgentTab, type CallHooks } from "@sightline/shared/agent";
import { BridgeBackend, type BridgeCalls, type BridgeOp, type BridgeOps, type NavigateCheck } from "@sightline/shared/agent/bridge";
import { navigateCheck, type NavigationPolicy } from "../bridge/navigate.js";
import { uploadReader } from "../bridge/uploads.js";
import { handleOf, noTab, notConnected, type BridgeHub, type PresenceHooks, type PresenceInfo } from "../bridge/hub.js";
import type { Bridge } from "../bridge/index.js";
import type { Directory, PresenceRow } from "./directory.js";

/**
 * How long a call may route by the presence rows an earlier call read. A relayed call would
 * otherwise pay a PostgreSQL round trip (a join over pg_locks) before its hop; a row that is
 * out of date costs nothing worse than today's race: a tab not in it is looked up afresh, and
 * a holder that no longer holds the tab answers so itself.
 */
const ROUTE_TTL_MS = 1_000;
import type { Relay } from "./relay.js";

export class ClusterBridge implements Bridge, BridgeCalls {
  /** Agent session → the instances it relayed calls to (their leases go when it ends). */
  private readonly remote = new Map<string, Set<string>>();

  private readonly navigate: NavigateCheck;
  /** Account → the other instances' presence rows as a call last read them (ROUTE_TTL_MS). */
  private readonly routes = new Map<string, { at: number; rows: PresenceRow[] }>();

  constructor(
    readonly hub: BridgeHub,
    private readonly directory: Directory,
    private readonly relay: Relay,
    navigation: NavigationPolicy | undefined,
  ) {
    this.navigate = navigateCheck(navigation);
  }

  backendFor(accountId: string, sessionId: string): AgentBackend {
    return new BridgeBackend(this, accountId, sessionId, this.navigate, uploadReader());
  }

  release(sessionId: string): void {
    this.hub.release(sessionId);
    const peers = this.remote.get(sessionId);
    this.remote.delete(sessionId);
    for (const url of peers ?? []) void this.relay.release(url, sessionId);
  }

  close(): Promise<void> {
    return this.hub.close();
  }

  /** Every tab the account's extensions shared, wherever they are connected. */
  async tabs(accountId: string): Promise<AgentTab[]> {
    const here = this.hub.localTabs(accountId);
    const rows = await this.directory.extensions(accountId);
    const out = [...here];
    for (const r of rows) {
      if (r.instance === this.directory.instance) continue; // this process's own, fresher above
      for (const t of r.tabs) out.push({ ...t, tab: handleOf(r.prefix, t.tab) });
    }
    if (!out.length && !this.hub.connected(accountId) && !rows.length) throw notConnected();
    return out;
  }

  async call<K extends BridgeOp>(
    accountId: string,
    sessionId: string,
    handle: string,
    op: K,
    args: BridgeOps[K]["args"],
    hooks: CallHooks = {},
  ): Promise<BridgeOps[K]["result"]> {
    if (this.hub.holds(accountId, handle)) return this.hub.call(accountId, sessionId, handle, op, args, hooks);
    const dot = handle.indexOf(".");
    const holder = (rows: PresenceRow[]) => {
      const row = dot > 0 ? rows.find((r) => r.prefix === handle.slice(0, dot)) : undefined;
      return row?.tabs.some((t) => t.tab === handle.slice(dot + 1)) ? row : undefined;
    };
    const cached = this.routes.get(accountId);
    let row = cached && performance.now() - cached.at < ROUTE_TTL_MS ? holder(cached.rows) : undefined;
    if (!row) {
      const rows = (await this.directory.extensions(accountId)).filter((r) => r.instance !== this.directory.instance);
      this.routes.set(accountId, { at: performance.now(), rows });
      row = holder(rows);
      if (!row) {
        if (!rows.length && !this.hub.connected(accountId)) throw notConnected();
        throw noTab(handle);
      }
    }
    let peers = this.remote.get(sessionId);
    if (!peers) this.remote.set(sessionId, (peers = new Set()));
    peers.add(row.url);
    try {
      return (await this.relay.call(row.url, { account: accountId, session: sessionId, handle, op, args }, hooks)) as BridgeOps[K]["result"];
    } catch (err) {
      this.routes.delete(accountId); // the holder went away or let the tab go: read afresh next time
      throw err;
    }
  }
}

/**
 * The hub's presence hooks, writing to the directory. A connection's writes run in order (its
 * tabs never land before its row, its removal never before its insert); a failed write is
 * logged, never thrown: the connection works here whatever the database says.
 */
export function presenceHooks(directory: Directory, logger: Logger): PresenceHooks {
  const chains = new Map<string, Promise<unknown>>();
  const inOrder = (what: string, c: PresenceInfo, write: () => Promise<unknown>, last = false) => {
    const next = (chains.get(c.connection) ?? Promise.resolve())
      .then(write)
      .catch((err: unknown) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, `cluster: could not record ${what}`));
    chains.set(c.connection, next);
    if (last) void next.then(() => chains.get(c.connection) === next && chains.delete(c.connection));
  };
  return {
    prefix: (accountId, extension) => directory.prefix(accountId, extension),
    connected: (c) => inOrder("a connection", c, () => directory.connected(c.accountId, c.extension, c.prefix, c.connection, c.tabs)),
    tabs: (c) => inOrder("shared tabs", c, () => directory.refresh(c.accountId, c.extension, c.connection, c.tabs)),
    beat: (c) => inOrder("a heartbeat", c, () => directory.refresh(c.accountId, c.extension, c.connection, c.tabs)),
    disconnected: (c) => inOrder("a disconnection", c, () => directory.disconnected(c.accountId, c.extension, c.connection), true),
  };
}
