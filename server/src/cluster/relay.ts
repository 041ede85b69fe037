// The hop between instances: an HTTP request from the instance an agent reached to the one
// holding the person's extension (or serving the agent's MCP session), authenticated with the
// cluster secret every instance has. A bridge call's answer comes back as newline-delimited
// JSON: progress lines as the extension sends them (an approval wait's "waiting for the
// person"), a beat every few seconds while nothing else comes, then one result line. The
// result line has the shape of a bridge result frame, so a capture it carries is refined from
// its text like one that came over the socket (capture-frames.ts).
import { request, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { AGENT_ERROR_CODES, AgentError, type AgentErrorCode, type CallHooks } from "@sightline/shared/agent";
import type { BridgeOp } from "@sightline/shared/agent/bridge";
import { rememberFrame } from "../bridge/capture-frames.js";

/** The header carrying the cluster secret on every internal request. */
export const CLUSTER_AUTH_HEADER = "sightline-cluster-auth";
/** The header naming the account an internal MCP request is for (its key was checked where it arrived). */
export const CLUSTER_ACCOUNT_HEADER = "sightline-account";
export const INTERNAL_PREFIX = "/internal/v1";
export const RELAY_CALL_PATH = `${INTERNAL_PREFIX}/bridge/call`;
export const RELAY_RELEASE_PATH = `${INTERNAL_PREFIX}/bridge/release`;
export const RELAY_MCP_PATH = `${INTERNAL_PREFIX}/mcp`;
/** A relayed call's stream says "still here" this often; silence for 3 of these is a dead peer. */
export const RELAY_BEAT_MS = 5_000;

/** Constant-time check of a presented secret. */
export function secretMatches(given: string | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface RelayedCall {
  account: string;
  session: string;
  handle: string;
  op: BridgeOp;
  args: unknown;
}

/** One line of a relayed call's answer. */
export type RelayLine =
  | { type: "progress"; message: string }
  | { type: "beat" }
  | { type: "result"; ok: true; data: unknown }
  | { type: "result"; ok: false; error: { code: string; message: string; detail?: Record<string, unknown> } };

const KNOWN_CODES = new Set<string>(AGENT_ERROR_CODES);

const gone = (why: string) =>
  new AgentError("not_connected", `the Sightline instance holding this browser's connection ${why} (the browser reconnects to another instance by itself; retry in a few seconds)`);

export class Relay {
  /** Keep-alive connections to the other instances: a hop costs no TCP handshake. */
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });

  constructor(
    private readonly secret: string,
    private readonly logger: Logger,
    private readonly beatMs = RELAY_BEAT_MS,
  ) {}

  /** Sends a bridge call to the instance at `base` and waits for its answer, progress relayed. */
  call(base: string, body: RelayedCall, hooks: CallHooks = {}): Promise<unknown> {
    if (hooks.signal?.aborted) return Promise.reject(new AgentError("failed", "the call was cancelled"));
    const data = Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      let settled = false;
      let silence: ReturnType<typeof setTimeout> | undefined;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(silence);
        hooks.signal?.removeEventListener("abort", onAbort);
        fn();
      };
      const req = request(`${base}${RELAY_CALL_PATH}`, {
        method: "POST",
        agent: this.agent,
        headers: { "content-type": "application/json", "content-length": data.length, [CLUSTER_AUTH_HEADER]: this.secret },
      });
      // Cancelled by the agent: the request goes, and the holder cancels the extension's card.
      const onAbort = () => finish(() => (req.destroy(), reject(new AgentError("failed", "the call was cancelled"))));
      hooks.signal?.addEventListener("abort", onAbort, { once: true });
      const quiet = () => {
        clearTimeout(silence);
        silence = setTimeout(() => finish(() => (req.destroy(), reject(gone("stopped answering during the call")))), 3 * this.beatMs);
      };
      quiet();
      req.on("error", (err: Error & { code?: string }) => finish(() => reject(gone(err.code === "ECONNREFUSED" ? "is not running" : "went away during the call"))));
      req.on("response", (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          res.resume();
          this.logger.error({ status: res.statusCode, peer: base }, "cluster: an instance refused a relayed bridge call (is SIGHTLINE_CLUSTER_SECRET the same everywhere?)");
          return finish(() => reject(gone(`refused the relayed call (${res.statusCode})`)));
        }
        let pending: Buffer[] = [];
        const line = (text: string) => {
          if (!text) return;
          const msg = JSON.parse(text) as RelayLine;
          if (msg.type === "progress") hooks.onProgress?.(msg.message);
          else if (msg.type === "result") {
            finish(() => {
              if (msg.ok) {
                if (body.op === "capture" && typeof msg.data === "object" && msg.data !== null) rememberFrame(msg.data, text);
                const after = body.op === "act" ? (msg.data as { capture?: unknown } | null)?.capture : undefined;
                if (typeof after === "object" && after !== null) rememberFrame(after, text, "capture");
                resolve(msg.data);
              } else {
                const code = KNOWN_CODES.has(msg.error.code) ? (msg.error.code as AgentErrorCode) : "failed";
                reject(new AgentError(code, msg.error.message, msg.error.detail));
              }
            });
          }
        };
        res.on("data", (chunk: Buffer) => {
          quiet();
          let at = chunk.indexOf(10);
          while (at >= 0) {
            pending.push(chunk.subarray(0, at));
            const text = Buffer.concat(pending).toString("utf8");
            pending = [];
            try {
              line(text);
            } catch (err) {
              finish(() => reject(new AgentError("failed", `the instance holding the browser sent an unreadable answer (${String(err)})`)));
            }
            chunk = chunk.subarray(at + 1);
            at = chunk.indexOf(10);
          }
          if (chunk.length) pending.push(chunk);
        });
        res.on("end", () => finish(() => reject(gone("ended the call without an answer"))));
        res.on("error", () => finish(() => reject(gone("went away during the call"))));
        res.on("close", () => finish(() => reject(gone("went away during the call"))));
      });
      req.end(data);
    });
  }

  /** Tells the instance at `base` that an agent session ended (its leases there go). */
  async release(base: string, session: string): Promise<void> {
    const data = Buffer.from(JSON.stringify({ session }));
    await new Promise<void>((resolve) => {
      const req = request(`${base}${RELAY_RELEASE_PATH}`, {
        method: "POST",
        agent: this.agent,
        headers: { "content-type": "application/json", "content-length": data.length, [CLUSTER_AUTH_HEADER]: this.secret },
      });
      req.on("response", (res) => (res.resume(), resolve()));
      req.on("error", () => resolve()); // gone: its leases went with it
      req.end(data);
    });
  }

  /**
   * Forwards an MCP request to the instance serving its session and streams the answer back
   * (JSON or an SSE stream) as it comes. Resolves false when that instance could not be
   * reached before anything was answered (the caller takes the session over).
   */
  forwardMcp(base: string, account: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<boolean> {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = { [CLUSTER_AUTH_HEADER]: this.secret, [CLUSTER_ACCOUNT_HEADER]: account };
    for (const h of ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) {
      const v = req.headers[h];
      if (typeof v === "string") headers[h] = v;
    }
    if (data) headers["content-length"] = data.length;
    return new Promise((resolve) => {
      const out = request(`${base}${RELAY_MCP_PATH}`, { method: req.method, agent: this.agent, headers });
      let answered = false;
      out.on("error", () => {
        if (!answered) resolve(false);
        else res.destroy();
      });
      out.on("response", (peer) => {
        answered = true;
        const pass: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(peer.headers)) if (v !== undefined && k !== "connection" && k !== "keep-alive" && k !== "transfer-encoding") pass[k] = v;
        res.writeHead(peer.statusCode ?? 502, pass);
        peer.pipe(res);
        peer.on("error", () => res.destroy());
        peer.on("aborted", () => res.destroy());
        resolve(true);
      });
      // The agent went away (or cancelled a stream): so does the hop.
      res.on("close", () => out.destroy());
      out.end(data ?? undefined);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Writes a relayed call's answer lines (the holder's side of `Relay.call`). */
export function relayWriter(res: ServerResponse, beatMs = RELAY_BEAT_MS): { send(line: RelayLine): void; end(line: RelayLine | string): void } {
  res.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
  res.flushHeaders();
  const beat = setInterval(() => send({ type: "beat" }), beatMs);
  const send = (line: RelayLine) => {
    if (!res.writableEnded) res.write(`${JSON.stringify(line)}\n`);
  };
  res.once("close", () => clearInterval(beat));
  return {
    send,
    /** The result line; a string is sent as it is (a capture's frame: a result line already). */
    end: (line) => {
      clearInterval(beat);
      if (!res.writableEnded) res.end(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
    },
  };
}
