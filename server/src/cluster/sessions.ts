// MCP sessions on any instance. A session lives in the process that opened it (its MCP
// server, the agent's working memory, the secrets it typed: never written to the database);
// PostgreSQL records which instance that is. A request for it reaching another instance is
// forwarded there over the internal hop and its answer (JSON or an SSE stream) streamed back;
// when that instance is dead, the instance the request reached takes the session over (one
// wins, by a conditional update) and re-establishes it under the same id and agent, so its
// tab leases carry on. Nothing is charged twice: charges are made where the call runs, once.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Directory } from "./directory.js";
import type { Relay } from "./relay.js";

/** A session's row is renewed at most this often (its expiry is `idleMs` away). */
const TOUCH_EVERY_MS = 60_000;

/** What McpSessions tells the directory (mcp/sessions.ts SessionHooks; declared here so the two do not import each other). */
export interface SessionEvents {
  opened(id: string, account: string, agentId: string): void;
  used(id: string): void;
  ended(id: string): void;
}

/** Re-establishes a session here (McpSessions.open with a resumed session). */
export type ResumeSession<E> = (resume: { id: string; agentId: string; protocolVersion?: string }) => Promise<E>;

export class ClusterSessions {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly directory: Directory,
    private readonly relay: Relay,
    private readonly logger: Logger,
    /** How long an unused session lives (mcp/sessions.ts this.idleMs). */
    private readonly idleMs: number,
  ) {}

  /** What McpSessions tells the directory. */
  hooks(): SessionEvents {
    const quietly = (what: string, p: Promise<unknown>) =>
      void p.catch((err: unknown) => this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, `cluster: could not record ${what}`));
    return {
      opened: (id, account, agentId) => {
        this.touched.set(id, Date.now());
        quietly("a new MCP session", this.directory.sessionOpened(id, account, agentId, this.idleMs));
      },
      used: (id) => {
        const now = Date.now();
        if (now - (this.touched.get(id) ?? 0) < TOUCH_EVERY_MS) return;
        this.touched.set(id, now);
        quietly("an MCP session's use", this.directory.sessionUsed(id, this.idleMs));
      },
      ended: (id) => {
        this.touched.delete(id);
        quietly("an MCP session's end", this.directory.sessionEnded(id));
      },
    };
  }

  /**
   * A session this process does not have: "forwarded" when the request was answered by the
   * instance serving it, the entry when it was re-established here, undefined when there is
   * no such session of this account (404 as before).
   */
  async find<E>(
    resume: ResumeSession<E>,
    id: string,
    account: string,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<"forwarded" | E | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.directory.session(id, account);
      if (!row) return undefined;
      if (row.owner !== this.directory.instance && row.url) {
        if (await this.relay.forwardMcp(row.url, account, req, res, body)) return "forwarded";
        // It died between the lookup and the hop: its presence lock goes with it; look again.
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      // Its instance is gone (or it is this one's from before a restart): take it over.
      if (row.owner === this.directory.instance || (await this.directory.takeOver(id, row.owner, this.idleMs))) {
        const protocol = req.headers["mcp-protocol-version"];
        const entry = await resume({ id, agentId: row.agentId, ...(typeof protocol === "string" ? { protocolVersion: protocol } : {}) });
        this.touched.set(id, Date.now());
        this.logger.info({ session: id, from: row.owner }, "cluster: re-established an MCP session whose instance is gone");
        return entry;
      }
      // Another instance took it over first: forward there on the next round.
    }
    return undefined;
  }
}
