// MCP sessions of the Streamable HTTP transport: one MCP server per session, bound to the
// account whose key opened it (another key cannot use or end it), working in that account's
// shared tabs through the bridge. Idle sessions end; the server's shutdown ends them all.
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AgentSession, type Billable } from "@sightline/shared/agent";
import { SNAPSHOT_CREDITS, type SnapshotRequest } from "@sightline/shared/contract";
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
}

export class McpSessions {
  private readonly sessions = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: Pick<AppDeps, "bridge" | "ledger" | "refine" | "reranker" | "config" | "logger">) {
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

  /** A new session for `account` (its id is known once initialize has been handled). */
  async open(account: string): Promise<Entry> {
    const { bridge, ledger, config } = this.deps;
    const sessionRef: { id?: string } = {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessionRef.id = id;
        this.sessions.set(id, entry);
      },
    });
    const refine = async (req: SnapshotRequest, opts: { goal?: string; limit?: number }) => {
      const body: SnapshotRequest = { ...req, ...(opts.goal ? { goal: opts.goal } : {}), ...(opts.limit ? { options: { limit: opts.limit } } : {}) };
      return this.deps.refine(body, { cap: config.snapshotCap, reranker: this.deps.reranker });
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
    const entry: Entry = { account, transport, server, lastUsed: Date.now() };
    transport.onclose = () => {
      if (sessionRef.id) this.sessions.delete(sessionRef.id);
      bridge.release(agentId);
    };
    await server.connect(transport);
    return entry;
  }

  private sweep(): void {
    const cutoff = Date.now() - MCP_IDLE_MS;
    for (const [id, e] of this.sessions) {
      if (e.lastUsed < cutoff) {
        this.sessions.delete(id);
        void e.server.close().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => e.server.close().catch(() => undefined)));
  }
}
