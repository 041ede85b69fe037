// One MCP server under test, seen by the bench's scripted agent: spawned over stdio with the
// real MCP SDK client, its tools loaded through LangChain's MCP adapter, every call timed at the
// MCP request and counted twice: the text items of the result (what an agent that reads text
// sees) and the content of the LangChain ToolMessage the adapter builds from the same result.
// Bounded: every call has a timeout, and close() ends the server and every process it started.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { loadMcpTools } from "@langchain/mcp-adapters";
import { countTokens } from "@sightline/shared/prompt";

export interface ServerCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** One tool call as the bench records it. */
export interface CallRecord {
  tool: string;
  /** What kind of step this was, for the per-call medians (snapshot, click, type, navigate…). */
  kind: string;
  /** The MCP request's round trip. */
  ms: number;
  /** o200k tokens of the result's text items, summed. */
  text_tokens: number;
  /** o200k tokens of the ToolMessage content as the adapter built it (a string, or its blocks as JSON). */
  message_tokens: number;
  /** Whether the result carried structuredContent. */
  structured: boolean;
  error: boolean;
}

export const CALL_TIMEOUT_MS = 60_000;

/** Tokens of a ToolMessage's content: the string itself, or the content blocks as JSON, which is
 * what reaches a model when the blocks carry more than text (structuredContent is such a key). */
export function messageTokens(content: ToolMessage["content"]): number {
  return typeof content === "string" ? countTokens(content) : countTokens(JSON.stringify(content));
}

/** Every process under `pid` (children first), from /proc: the browsers a server launched. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces or parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      walk(c);
      out.push(c);
    }
  };
  walk(pid);
  return out;
}

/** CPU time (user + system, ms) the process `pid` and everything under it have used so far. */
export function cpuMs(pid: number): number {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      // ended
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class PeerSession {
  readonly calls: CallRecord[] = [];
  /** Every answer's text, in order (a failed run's report shows the last ones). */
  readonly answers: string[] = [];
  /** Milliseconds from spawn until `initialize` was answered. */
  initializeMs = NaN;
  /** CPU time the server's processes used until `initialize` was answered: a figure the machine's load hardly moves. */
  initializeCpuMs = NaN;
  toolsListTokens = NaN;
  toolCount = NaN;
  serverVersion = "";
  private tools = new Map<string, StructuredToolInterface>();
  private client = new Client({ name: "sightline-bench", version: "1.0.0" });
  private transport: StdioClientTransport;
  private stderr: string[] = [];
  private spawnedAt = 0;
  private nextCallId = 1;
  private kind = "";
  private lastRaw: CallToolResult | null = null;
  private lastMs = NaN;

  constructor(readonly name: string, private cmd: ServerCommand) {
    this.transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, env: cmd.env, cwd: cmd.cwd, stderr: "pipe" });
    this.transport.stderr?.on("data", (d: Buffer) => {
      if (this.stderr.length < 200) this.stderr.push(d.toString("utf8"));
    });
  }

  /** Spawns the server and waits for `initialize`; lists its tools and loads them through LangChain. */
  async start(): Promise<void> {
    this.spawnedAt = performance.now();
    await this.client.connect(this.transport, { timeout: CALL_TIMEOUT_MS });
    this.initializeMs = performance.now() - this.spawnedAt;
    if (this.transport.pid) this.initializeCpuMs = cpuMs(this.transport.pid);
    this.serverVersion = `${this.client.getServerVersion()?.name ?? "?"} ${this.client.getServerVersion()?.version ?? "?"}`;
    const listed = await this.client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    this.toolCount = listed.tools.length;
    this.toolsListTokens = countTokens(JSON.stringify(listed.tools));
    // Time and keep every raw result at the MCP request, under the adapter.
    const callTool = this.client.callTool.bind(this.client);
    this.client.callTool = (async (params, schema, options) => {
      const t = performance.now();
      try {
        const r = (await callTool(params, schema, { ...options, timeout: CALL_TIMEOUT_MS })) as CallToolResult;
        this.lastRaw = r;
        return r;
      } finally {
        this.lastMs = performance.now() - t;
      }
    }) as Client["callTool"];
    for (const tool of await loadMcpTools(this.name, this.client, { throwOnLoadError: true, defaultToolTimeout: CALL_TIMEOUT_MS })) this.tools.set(tool.name, tool);
  }

  /** Milliseconds since spawn. */
  sinceSpawn(): number {
    return performance.now() - this.spawnedAt;
  }

  /**
   * Calls a tool through the LangChain tool (which calls the MCP client), records it, and returns
   * the result's text as the agent reads it. A tool error is returned as its text, marked.
   */
  async call(tool: string, args: Record<string, unknown>, kind: string): Promise<string> {
    const t = this.tools.get(tool);
    if (!t) throw new Error(`${this.name} has no tool ${tool}`);
    this.lastRaw = null;
    this.lastMs = NaN;
    this.kind = kind;
    let message: ToolMessage | null = null;
    let thrown: unknown = null;
    try {
      message = (await t.invoke({ name: tool, args, id: `call_${this.nextCallId++}`, type: "tool_call" })) as ToolMessage;
    } catch (err) {
      thrown = err; // the adapter throws on isError results (a ToolException); the raw result is kept
    }
    const raw = this.lastRaw as CallToolResult | null;
    const texts = (raw?.content ?? []).filter((c) => c.type === "text").map((c) => (c as { text: string }).text);
    const record: CallRecord = {
      tool,
      kind: this.kind,
      ms: this.lastMs,
      text_tokens: texts.reduce((n, s) => n + countTokens(s), 0),
      // On an error result the adapter throws a ToolException; an agent loop (LangGraph's ToolNode)
      // hands the model its message instead, so that is what is counted.
      message_tokens: message ? messageTokens(message.content) : thrown instanceof Error ? countTokens(thrown.message) : 0,
      structured: raw?.structuredContent !== undefined,
      error: Boolean(raw?.isError) || thrown !== null,
    };
    this.calls.push(record);
    this.answers.push(`${tool} ${JSON.stringify(args)}\n${texts.join("\n")}`);
    if (!raw) throw new Error(`${this.name} ${tool}: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    return texts.join("\n");
  }

  /** The server's stderr so far (for a failed run's report). */
  log(): string {
    return this.stderr.join("").slice(-4000);
  }

  /** Ends the server: close stdin (the polite way), then SIGTERM and SIGKILL whatever is left of its process tree. */
  async close(): Promise<{ leftovers: number }> {
    const pid = this.transport.pid;
    const tree = pid ? [...descendants(pid), pid] : [];
    await Promise.race([this.client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
    const deadline = Date.now() + 3000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    let leftovers = 0;
    for (const p of tree) {
      if (!alive(p)) continue;
      leftovers++;
      try {
        process.kill(p, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return { leftovers };
  }
}

/**
 * Processes whose command line names one of `dirs` (the fresh temporary directories this bench
 * gave its servers, so every match is ours) that are still running: a browser that outlived its
 * server. Ends them by pid and returns how many there were.
 */
export function killStragglers(dirs: string[]): number {
  let n = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!dirs.some((d) => cmdline.includes(d))) continue;
    try {
      process.kill(Number(name), "SIGKILL");
      n++;
    } catch {
      // gone
    }
  }
  return n;
}

/** The version of a package in bench/node_modules. */
export function packageVersion(dir: string): string {
  try {
    return (JSON.parse(readFileSync(`${dir}/package.json`, "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}

/** Chromium's version (the Debian wrapper script's own --version is broken on this machine). */
export function chromiumVersion(path: string): string {
  for (const bin of [path.replace(/^\/usr\/bin\/chromium$/, "/usr/lib/chromium/chromium"), path]) {
    try {
      return execFileSync(bin, ["--version"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      // try the next
    }
  }
  return "unknown";
}
