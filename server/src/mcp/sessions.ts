// MCP sessions of the Streamable HTTP transport: one MCP server per session, bound to the
// account whose key opened it (another key cannot use or end it), working in that account's
// shared tabs through the bridge. Idle sessions end; the server's shutdown ends them all.
// An account has at most SIGHTLINE_MCP_SESSIONS open (each costs its MCP server and memory):
// a new one closes the account's least recently used session without a call running, and when
// every one has a call running the new one is refused (429, a JSON-RPC error).
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AgentError, AgentSession, type Billable } from "@sightline/shared/agent";
import { ContractError, ERROR_NAMES, SNAPSHOT_CREDITS, type RefineResult, type SnapshotRequest } from "@sightline/shared/contract";
import { frameOf } from "../bridge/capture-frames.js";
import { createMcpServer } from "@sightline/shared/mcp";
import type { AppDeps } from "../koa-types.js";

/** A session unused this long ends (an agent that went away leaves no leases behind). */
export const MCP_IDLE_MS = 30 * 60_000;

/**
 * What the observing tools cost here: snapshot and screenshot refine the capture on this
 * server (as POST /v1/snapshot does: 1 credit); read runs in the person's tab (free).
 */
export const MCP_COSTS = { snapshot: SNAPSHOT_CREDITS, read: 0, screenshot: SNAPSHOT_CREDITS } as const;

interface Entry {
  account: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
  /** POST requests (calls) being answered now; a session with none is idle. */
  busy: number;
  /** Set once initialize was answered with a session id. */
  id?: string;
}

export class McpSessions {
  private readonly sessions = new Map<string, Entry>();
  /** Every open session of each account, initialized or still initializing. */
  private readonly byAccount = new Map<string, Set<Entry>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: Pick<AppDeps, "bridge" | "ledger" | "snapshots" | "config" | "logger">) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** The session `id` if it belongs to `account`; undefined when unknown or someone else's. */
  get(id: string, account: string): Entry | undefined {
    const e = this.sessions.get(id);
    if (!e || e.account !== account) return undefined;
    e.lastUsed = Date.now();
    return e;
  }

  /** Counts `res` (a POST being answered) as a call running in the session until it ends. */
  track(entry: Entry, res: ServerResponse): void {
    entry.busy++;
    res.once("close", () => {
      entry.busy--;
      entry.lastUsed = Date.now();
    });
  }

  /** Makes room for one more session of `account`, or throws the 429 that says why it cannot. */
  private async makeRoom(account: string): Promise<void> {
    const cap = this.deps.config.mcpSessionsPerAccount;
    const open = this.byAccount.get(account);
    if (!open || open.size < cap) return;
    const idle = [...open].filter((e) => e.busy === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    if (idle.length === 0) {
      throw new ContractError(
        "rate_limited",
        ERROR_NAMES.rateLimited,
        `${ERROR_NAMES.rateLimited}: this API key already has ${cap} MCP sessions open, each with a call running (SIGHTLINE_MCP_SESSIONS); end one (DELETE /mcp with its Mcp-Session-Id) or retry once a call is done`,
        5,
      );
    }
    // Enough of the least recently used idle ones that the new one fits (one, unless the cap shrank).
    const excess = open.size - cap + 1;
    for (const e of idle.slice(0, excess)) {
      this.deps.logger.info({ account, session: e.id }, "mcp: closed the oldest idle session for a new one (session limit)");
      await this.end(e);
    }
  }

  private forget(e: Entry): void {
    if (e.id) this.sessions.delete(e.id);
    const set = this.byAccount.get(e.account);
    set?.delete(e);
    if (set?.size === 0) this.byAccount.delete(e.account);
  }

  private async end(e: Entry): Promise<void> {
    this.forget(e);
    await e.server.close().catch(() => undefined);
  }

  /** An initialize that was refused left no session: its entry goes. */
  discardUnopened(e: Entry): void {
    if (!e.id) void this.end(e);
  }

  /** A new session for `account` (its id is known once initialize has been handled). */
  async open(account: string): Promise<Entry> {
    await this.makeRoom(account);
    const { bridge, ledger, config } = this.deps;
    const sessionRef: { id?: string } = {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessionRef.id = id;
        entry.id = id;
        this.sessions.set(id, entry);
      },
    });
    // On the refinement workers, as /v1/snapshot: a capture the extension sent is validated
    // there and refined from its frame's text (capture-frames.ts).
    const refine = async (req: SnapshotRequest, opts: { goal?: string; limit?: number }): Promise<RefineResult> => {
      const frame = frameOf(req);
      const out = await this.deps.snapshots.refine({
        source: frame ? { frame } : { request: req },
        ...(opts.goal ? { goal: opts.goal } : {}),
        ...(opts.limit ? { limit: opts.limit } : {}),
        cap: config.snapshotCap,
        maxElements: config.maxRawElements,
      });
      if (out.ok) return out.result;
      if (out.stage === "invalid") throw new AgentError("failed", `the browser sent a capture that is not a valid snapshot request (${out.error.message}); nothing was charged for it`);
      this.deps.logger.error({ err: out.message }, "mcp: refinement failed");
      throw new AgentError("failed", "the capture could not be refined; nothing was charged for it");
    };
    // Charged like the REST call: taken before the work, given back when it fails.
    const bill = async <T>(what: Billable, run: () => Promise<T>): Promise<T> => {
      const credits = MCP_COSTS[what];
      if (credits === 0) return run();
      const reservation = await ledger.reserve(account, credits);
      try {
        const out = await run();
        reservation.commit();
        return out;
      } catch (err) {
        await reservation.release();
        throw err;
      }
    };
    const agentId = randomUUID();
    const backend = bridge.backendFor(account, agentId);
    const session = new AgentSession({ backend, refine, bill });
    const server = createMcpServer(session, { backend: "extension", costs: MCP_COSTS });
    const entry: Entry = { account, transport, server, lastUsed: Date.now(), busy: 0 };
    let set = this.byAccount.get(account);
    if (!set) this.byAccount.set(account, (set = new Set()));
    set.add(entry);
    transport.onclose = () => {
      this.forget(entry);
      bridge.release(agentId);
    };
    await server.connect(transport);
    return entry;
  }

  private sweep(): void {
    const cutoff = Date.now() - MCP_IDLE_MS;
    for (const [id, e] of this.sessions) {
      if (e.lastUsed < cutoff && e.busy === 0) void this.end(e);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.byAccount.values()].flatMap((s) => [...s]);
    this.sessions.clear();
    this.byAccount.clear();
    await Promise.all(all.map((e) => e.server.close().catch(() => undefined)));
  }
}
