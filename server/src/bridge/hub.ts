// The bridge hub: the extension connections of every account, the tabs each shared, the calls
// in flight to them, and which agent session holds which tab. Transport-free: the WebSocket
// route (routes/bridge.ts) hands each socket over as a BridgeSocket and feeds it its frames.
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { AGENT_ERROR_CODES, AgentError, type AgentBackend, type AgentErrorCode, type AgentTab, type CallHooks } from "@sightline/shared/agent";
import {
  BridgeBackend,
  BRIDGE_PROTOCOL_VERSION,
  CLOSE,
  HEARTBEAT_MS,
  parseExtensionMessage,
  type BridgeOp,
  type BridgeOps,
  type CallMessage,
  type NavigateCheck,
  type ServerMessage,
} from "@sightline/shared/agent/bridge";
import type { Account } from "../ledger/index.js";
import type { AuthFailures } from "../middleware/auth-failures.js";
import { validateSnapshotRequest, ContractError } from "@sightline/shared/contract";
import { navigateCheck, type NavigationPolicy } from "./navigate.js";
import { rememberFrame } from "./capture-frames.js";
import { uploadReader } from "./uploads.js";
import type { Bridge } from "./index.js";

/** What the hub needs of a socket (a `ws` WebSocket has all of it). */
export interface BridgeSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
  /** Drops the connection without a closing handshake (a peer that stopped answering). */
  terminate(): void;
}

/** What the route feeds the hub for one socket. */
export interface SocketHandlers {
  message(raw: string): void;
  closed(): void;
  /** The peer sent more than it may (before hello: a few KB; after: the message limit). The
   *  route closes the socket (1009); the hub counts a failed hello or fails the calls in flight. */
  oversized(limitBytes: number): void;
}

/** Who is on the other end of a socket, as the route sees it. */
export interface AcceptOptions {
  /** The client its failed hellos count against (auth-failures.ts clientKey). */
  client?: string;
  /** Called once hello succeeded (the route lifts its before-hello frame limit). */
  onHello?(): void;
}

export interface HubOptions {
  authenticate(key: string): Promise<Readonly<Account> | null>;
  logger: Logger;
  /** Failed hellos count here, per client; a client out of attempts is closed 4429 unheard. */
  authFailures?: AuthFailures;
  /**
   * Checks a capture the extension answered with against the contract, from the text of its
   * frame: null when it is a valid snapshot request, else why not. The server runs it on a
   * refinement worker; by default it runs here.
   */
  checkCapture?(frame: string, key?: "capture"): Promise<string | null>;
  heartbeatMs?: number;
  /** How long the first message (hello) may take. */
  helloTimeoutMs?: number;
  /** A tab lease ends after this long without a call from its session. Default 5 minutes. */
  leaseIdleMs?: number;
  /** Observing calls (capture, read, screenshot) fail after this long. Default 30 s. */
  callTimeoutMs?: number;
  /**
   * An act call waits for the person's approval: it fails only after this long without any
   * progress from the extension. Default 10 minutes.
   */
  actIdleTimeoutMs?: number;
  /** What navigate URLs are held to before they are relayed (default: public addresses only). */
  navigation?: NavigationPolicy;
  /** Several instances on one database: where each connection is recorded (server/src/cluster). */
  presence?: PresenceHooks;
}

/**
 * What the hub tells the cluster's directory (server/src/cluster) about its connections, so
 * other instances find the person's tabs here. Failures are the directory's to log: a
 * connection works here whatever the database says.
 */
export interface PresenceHooks {
  /** The extension's handle prefix, the same on every instance. */
  prefix(accountId: string, extension: string): Promise<string>;
  connected(c: PresenceInfo): void;
  tabs(c: PresenceInfo): void;
  beat(c: PresenceInfo): void;
  disconnected(c: PresenceInfo): void;
}

export interface PresenceInfo {
  accountId: string;
  extension: string;
  prefix: string;
  /** This socket's id: a late "disconnected" of an older socket does not remove a newer one. */
  connection: string;
  tabs: AgentTab[];
}

const presenceOf = (c: Connection): PresenceInfo => ({ accountId: c.accountId, extension: c.instance, prefix: c.prefix, connection: c.id, tabs: c.tabs });

/** No extension of the account is connected (anywhere). */
export const notConnected = () =>
  new AgentError(
    "not_connected",
    "no browser is connected for this account: open the Sightline side panel, set this server and an API key of the same account in Settings, and share a tab",
  );

/** The handle names no shared tab. */
export const noTab = (handle: string) =>
  new AgentError("no_tab", `tab "${handle}" is not shared with the agent (the person shares tabs from the Sightline side panel); call tabs to list them`);

/** Agent-visible tab handle: unique per extension instance of the account ("b1.742"). */
export const handleOf = (prefix: string, extTab: string) => `${prefix}.${extTab}`;

interface Connection {
  /** Random id of this socket (presence rows name it). */
  id: string;
  socket: BridgeSocket;
  accountId: string;
  instance: string;
  /** Short per-account prefix of this extension instance's tab handles ("b1"). */
  prefix: string;
  /** The extension's own tab handles → what it told us about them. */
  tabs: AgentTab[];
  lastSeen: number;
  heartbeat: ReturnType<typeof setInterval>;
}

interface Pending {
  conn: Connection;
  op: BridgeOp;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer: ReturnType<typeof setTimeout>;
  onProgress?: (message: string) => void;
  /** Restarts the timeout (progress from an act call waiting for the person). */
  rearm(): void;
}

interface Lease {
  sessionId: string;
  lastUsed: number;
}

const MINUTE = 60_000;

/** Codes an extension may answer with; anything else becomes "failed". */
const KNOWN_CODES = new Set<AgentErrorCode>(AGENT_ERROR_CODES);

export class BridgeHub implements Bridge {
  /** accountId → instance → connection. */
  private readonly accounts = new Map<string, Map<string, Connection>>();
  /** accountId → instance → prefix, kept across reconnects so handles stay the same. */
  private readonly prefixes = new Map<string, Map<string, string>>();
  private readonly pending = new Map<string, Pending>();
  /** `${accountId} ${handle}` → lease. */
  private readonly leases = new Map<string, Lease>();
  private readonly heartbeatMs: number;
  private readonly helloTimeoutMs: number;
  private readonly leaseIdleMs: number;
  private readonly callTimeoutMs: number;
  private readonly actIdleTimeoutMs: number;
  private closed = false;
  private readonly navigate: NavigateCheck;

  constructor(private readonly opts: HubOptions) {
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.helloTimeoutMs = opts.helloTimeoutMs ?? 10_000;
    this.leaseIdleMs = opts.leaseIdleMs ?? 5 * MINUTE;
    this.callTimeoutMs = opts.callTimeoutMs ?? 30_000;
    this.actIdleTimeoutMs = opts.actIdleTimeoutMs ?? 10 * MINUTE;
    this.navigate = navigateCheck(opts.navigation);
  }

  // ---- the Bridge interface ---------------------------------------------------------------

  backendFor(accountId: string, sessionId: string): AgentBackend {
    return new BridgeBackend(this, accountId, sessionId, this.navigate, uploadReader());
  }

  release(sessionId: string): void {
    for (const [k, lease] of this.leases) if (lease.sessionId === sessionId) this.leases.delete(k);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const conns of this.accounts.values()) {
      for (const conn of conns.values()) this.drop(conn, CLOSE.shutdown, "server shutting down");
    }
    this.accounts.clear();
  }

  // ---- connections ------------------------------------------------------------------------

  /** Takes a new socket: it must say hello (with a valid key) first. */
  accept(socket: BridgeSocket, { client = "", onHello }: AcceptOptions = {}): SocketHandlers {
    let conn: Connection | null = null;
    let ended = false;
    // A socket that never said a valid hello is a failed attempt of its client.
    const failed = () => this.opts.authFailures?.failed(client);
    const helloTimer = setTimeout(() => {
      if (!conn && !ended) {
        failed();
        socket.close(CLOSE.protocol, "no hello");
      }
    }, this.helloTimeoutMs);
    let greeting = false;
    return {
      message: (raw) => {
        if (ended) return;
        const msg = parseExtensionMessage(raw);
        if (!msg) {
          if (!conn) failed();
          socket.close(CLOSE.protocol, "not a bridge message");
          return;
        }
        if (!conn) {
          if (msg.type !== "hello" || greeting) {
            if (!greeting) {
              failed();
              socket.close(CLOSE.protocol, "say hello first");
            }
            return;
          }
          greeting = true;
          void this.hello(socket, msg.key, msg.instance, msg.version, client).then((c) => {
            clearTimeout(helloTimer);
            if (ended) {
              if (c) this.forget(c);
              return;
            }
            conn = c;
            if (c) onHello?.();
          });
          return;
        }
        conn.lastSeen = Date.now();
        switch (msg.type) {
          case "hello":
            socket.close(CLOSE.protocol, "hello twice");
            return;
          case "tabs":
            conn.tabs = msg.tabs.map((t) => ({ tab: String(t.tab), url: String(t.url), title: String(t.title ?? ""), active: t.active === true }));
            this.opts.presence?.tabs(presenceOf(conn));
            return;
          case "result":
            this.settle(conn, msg.id, msg.ok, msg.data, msg.error, raw);
            return;
          case "progress": {
            const p = this.pending.get(msg.id);
            if (p && p.conn === conn) {
              p.rearm();
              p.onProgress?.(msg.message);
            }
            return;
          }
          case "pong":
            return;
        }
      },
      closed: () => {
        ended = true;
        clearTimeout(helloTimer);
        if (conn) this.forget(conn);
      },
      oversized: (limitBytes) => {
        if (ended) return;
        if (!conn) {
          failed();
          return;
        }
        const mb = Math.round((limitBytes / 1024 / 1024) * 10) / 10;
        this.opts.logger.warn({ account: conn.accountId, prefix: conn.prefix, limit_bytes: limitBytes }, "bridge: message over the size limit; connection closed");
        this.forget(
          conn,
          `the browser sent a message larger than the bridge's limit of ${mb} MB (SIGHTLINE_BRIDGE_MAX_MESSAGE); the connection was reset (it reconnects by itself)`,
        );
      },
    };
  }

  private async hello(socket: BridgeSocket, key: string, instance: string, version: number, client: string): Promise<Connection | null> {
    if (this.closed) {
      socket.close(CLOSE.shutdown, "server shutting down");
      return null;
    }
    // Out of attempts: refused before the key is looked up (and this refusal is not counted).
    const wait = this.opts.authFailures?.blocked(client) ?? 0;
    if (wait > 0) {
      socket.close(CLOSE.rateLimited, `too many failed attempts from this client; retry in ${wait} s`);
      return null;
    }
    const failed = (code: number, reason: string) => {
      this.opts.authFailures?.failed(client);
      socket.close(code, reason);
      return null;
    };
    if (version !== BRIDGE_PROTOCOL_VERSION) {
      return failed(CLOSE.protocol, `protocol version ${version} is not ${BRIDGE_PROTOCOL_VERSION}: update the extension or the server`);
    }
    if (!instance || instance.length > 100) return failed(CLOSE.protocol, "bad instance id");
    const account = key && key.length <= 512 ? await this.opts.authenticate(key) : null;
    if (!account) return failed(CLOSE.unauthorized, "invalid API key");
    if (!account.active) {
      socket.close(CLOSE.forbidden, "this API key's account is deactivated");
      return null;
    }
    let prefix: string;
    try {
      prefix = this.opts.presence ? await this.opts.presence.prefix(account.id, instance) : this.prefixFor(account.id, instance);
    } catch (err) {
      this.opts.logger.error({ err }, "bridge: could not look up the extension's handle prefix");
      socket.close(CLOSE.shutdown, "the server cannot reach its database; reconnect later");
      return null;
    }
    if (this.closed) {
      socket.close(CLOSE.shutdown, "server shutting down");
      return null;
    }
    // The same extension instance again (its worker restarted, the network came back): the
    // newer socket wins and the older one is told why.
    const old = this.accounts.get(account.id)?.get(instance);
    if (old) this.drop(old, CLOSE.replaced, "replaced by a newer connection of the same extension");
    let conns = this.accounts.get(account.id);
    if (!conns) this.accounts.set(account.id, (conns = new Map()));
    const conn: Connection = {
      id: randomBytes(9).toString("base64url"),
      socket,
      accountId: account.id,
      instance,
      prefix,
      tabs: [],
      lastSeen: Date.now(),
      heartbeat: setInterval(() => this.beat(conn), this.heartbeatMs),
    };
    conns.set(instance, conn);
    this.opts.presence?.connected(presenceOf(conn));
    this.send(conn, { type: "welcome", account: account.id, heartbeatMs: this.heartbeatMs });
    this.opts.logger.info({ account: account.id, prefix: conn.prefix }, "bridge: extension connected");
    return conn;
  }

  private prefixFor(accountId: string, instance: string): string {
    let m = this.prefixes.get(accountId);
    if (!m) this.prefixes.set(accountId, (m = new Map()));
    let p = m.get(instance);
    if (!p) m.set(instance, (p = `b${m.size + 1}`));
    return p;
  }

  private beat(conn: Connection): void {
    // Three heartbeats without a word: the peer is gone (a sleeping laptop, a dead network).
    if (Date.now() - conn.lastSeen > 3 * this.heartbeatMs) {
      this.drop(conn, CLOSE.protocol, "heartbeat lost", true);
      return;
    }
    this.send(conn, { type: "ping" });
    this.opts.presence?.beat(presenceOf(conn));
  }

  private send(conn: Connection, msg: ServerMessage): void {
    try {
      conn.socket.send(JSON.stringify(msg));
    } catch {
      // The socket is closing; its close handler cleans up.
    }
  }

  private drop(conn: Connection, code: number, reason: string, terminate = false): void {
    this.forget(conn);
    try {
      if (terminate) conn.socket.terminate();
      else conn.socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  /** The connection is gone: its calls fail (with `why`), its tabs disappear. */
  private forget(conn: Connection, why = "the browser disconnected during the call (it reconnects by itself; try again in a few seconds)"): void {
    clearInterval(conn.heartbeat);
    const conns = this.accounts.get(conn.accountId);
    if (conns?.get(conn.instance) === conn) {
      conns.delete(conn.instance);
      if (!conns.size) this.accounts.delete(conn.accountId);
      this.opts.presence?.disconnected(presenceOf(conn));
      this.opts.logger.info({ account: conn.accountId, prefix: conn.prefix }, "bridge: extension disconnected");
    }
    for (const [id, p] of this.pending) {
      if (p.conn !== conn) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new AgentError("not_connected", why));
    }
  }

  private async checkCapture(frame: string, key?: "capture"): Promise<string | null> {
    if (this.opts.checkCapture) return this.opts.checkCapture(frame, key).catch((err: unknown) => String(err));
    try {
      const data = (JSON.parse(frame) as { data?: unknown }).data;
      validateSnapshotRequest(key ? (data as Record<string, unknown> | undefined)?.[key] : data);
      return null;
    } catch (err) {
      return err instanceof ContractError ? err.message : String(err);
    }
  }

  // ---- what backends use ------------------------------------------------------------------

  /** Is any extension of the account connected. */
  connected(accountId: string): boolean {
    return (this.accounts.get(accountId)?.size ?? 0) > 0;
  }

  /** The tabs the account's extensions shared, with handles unique across them. */
  tabs(accountId: string): AgentTab[] {
    if (!this.connected(accountId)) throw notConnected();
    return this.localTabs(accountId);
  }

  /** The tabs shared through this process's connections (none: empty). */
  localTabs(accountId: string): AgentTab[] {
    const out: AgentTab[] = [];
    for (const conn of this.accounts.get(accountId)?.values() ?? []) for (const t of conn.tabs) out.push({ ...t, tab: handleOf(conn.prefix, t.tab) });
    return out;
  }

  /** Whether the extension sharing `handle` is connected to this process (its prefix is here). */
  holds(accountId: string, handle: string): boolean {
    const prefix = handle.slice(0, Math.max(0, handle.indexOf(".")));
    for (const conn of this.accounts.get(accountId)?.values() ?? []) if (conn.prefix === prefix) return true;
    return false;
  }

  private find(accountId: string, handle: string): { conn: Connection; extTab: string } {
    const dot = handle.indexOf(".");
    const prefix = handle.slice(0, dot);
    const extTab = handle.slice(dot + 1);
    const conns = this.accounts.get(accountId);
    if (!conns?.size) return void this.tabs(accountId) as never; // throws not_connected
    for (const conn of conns.values()) {
      if (dot > 0 && conn.prefix === prefix && conn.tabs.some((t) => t.tab === extTab)) return { conn, extTab };
    }
    throw noTab(handle);
  }

  /** Takes or renews `sessionId`'s lease on a tab; another live lease makes it busy. */
  private lease(accountId: string, sessionId: string, handle: string, take: boolean): void {
    const k = `${accountId} ${handle}`;
    const now = Date.now();
    const held = this.leases.get(k);
    if (held && held.sessionId !== sessionId && now - held.lastUsed < this.leaseIdleMs) {
      if (!take) return; // looking is fine; acting is what a lease protects
      const idle = Math.round((now - held.lastUsed) / 1000);
      throw new AgentError(
        "busy",
        `tab "${handle}" is being driven by another agent session (last call ${idle} s ago); it becomes free when that session ends or after ${Math.round(this.leaseIdleMs / 1000)} s without calls`,
      );
    }
    if (take || held?.sessionId === sessionId) this.leases.set(k, { sessionId, lastUsed: now });
  }

  /** Sends one operation to the extension that owns `handle` and waits for its answer. */
  async call<K extends BridgeOp>(
    accountId: string,
    sessionId: string,
    handle: string,
    op: K,
    args: BridgeOps[K]["args"],
    hooks: CallHooks = {},
  ): Promise<BridgeOps[K]["result"]> {
    if (this.closed) throw new AgentError("not_connected", "the server is shutting down");
    const { conn, extTab } = this.find(accountId, handle);
    this.lease(accountId, sessionId, handle, op === "act" || op === "tab_close");
    const id = randomBytes(9).toString("base64url");
    const limit =
      op === "act" ? this.actIdleTimeoutMs : op === "wait" ? (args as BridgeOps["wait"]["args"]).timeoutMs + this.callTimeoutMs : this.callTimeoutMs;
    if (hooks.signal?.aborted) throw new AgentError("failed", "the call was cancelled");
    return new Promise<BridgeOps[K]["result"]>((resolve, reject) => {
      const giveUp = (err: AgentError) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(p.timer);
        this.send(conn, { type: "cancel", id });
        reject(err);
      };
      const expire = () => giveUp(new AgentError("timeout", `the browser did not answer ${op} within ${Math.round(limit / 1000)} s`));
      // The agent gave up (its MCP request was cancelled): the person's card goes too.
      hooks.signal?.addEventListener("abort", () => giveUp(new AgentError("failed", "the call was cancelled")), { once: true });
      const p: Pending = {
        conn,
        op,
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: hooks.onProgress,
        timer: setTimeout(expire, limit),
        rearm: () => {
          clearTimeout(p.timer);
          p.timer = setTimeout(expire, limit);
        },
      };
      this.pending.set(id, p);
      const msg: CallMessage<K> = { type: "call", id, tab: extTab, op, args };
      this.send(conn, msg as CallMessage);
    });
  }

  private settle(conn: Connection, id: string, ok: boolean, data: unknown, error: { code: string; message: string; detail?: Record<string, unknown> } | undefined, frame: string): void {
    const p = this.pending.get(id);
    if (!p || p.conn !== conn) return; // late answer to a call that timed out
    this.pending.delete(id);
    clearTimeout(p.timer);
    // Tabs the extension names (one it opened, one a link opened) get this connection's prefix.
    if (ok && p.op === "tab_open" && data && typeof data === "object") {
      const t = data as AgentTab;
      t.tab = handleOf(conn.prefix, String(t.tab));
    }
    const opened = ok && p.op === "act" ? (data as { opened?: unknown } | null)?.opened : undefined;
    if (Array.isArray(opened)) for (const t of opened as { tab: string }[]) t.tab = handleOf(conn.prefix, String(t.tab));
    if (ok && p.op === "capture") {
      // Whatever the extension sends is checked before anyone refines or charges for it.
      void this.checkCapture(frame).then((why) => {
        if (why !== null) {
          p.reject(new AgentError("failed", `the browser sent a capture that is not a valid snapshot request (${why}); nothing was charged for it`));
          return;
        }
        rememberFrame(data as object, frame);
        p.resolve(data);
      });
      return;
    }
    const after = ok && p.op === "act" ? (data as { capture?: unknown } | null)?.capture : undefined;
    if (after && typeof after === "object") {
      // The page after the action came with it: checked like any capture. One that is not valid
      // is dropped (the action did happen), and the session captures again, checked there.
      void this.checkCapture(frame, "capture").then((why) => {
        if (why !== null) delete (data as { capture?: unknown }).capture;
        else rememberFrame(after, frame, "capture");
        p.resolve(data);
      });
      return;
    }
    if (ok) p.resolve(data);
    else {
      const code = KNOWN_CODES.has(error?.code as AgentErrorCode) ? (error!.code as AgentErrorCode) : "failed";
      p.reject(new AgentError(code, String(error?.message ?? "the browser could not do it"), error?.detail));
    }
  }
}
