// The headless backend, started when it is first needed: an MCP server answers `initialize` and
// `tools/list` at once (a client gives up on a server that is silent for seconds), the browser
// is launched in the background meanwhile, and the first call that needs it waits for it. A
// browser that cannot start is that call's error (a tool error the agent and the person can
// read), not a server that never answers; the next call tries again.
import type { ActionResult, ActionTarget, AgentAction, AgentTab } from "../../core/actions.js";
import { AgentError, isAgentError } from "../../core/errors.js";
import type { AgentBackend, CallHooks, CaptureOptions, MarkBox, ReadPage } from "../../session/backend.js";
import type { SnapshotRequest } from "../../../contract/index.js";
import type { HeadlessBackend } from "./backend.js";

// Required<>: every optional method is passed on too (a missing one would turn a tool off silently).
export class DeferredBackend implements Required<AgentBackend> {
  private starting: Promise<HeadlessBackend> | null = null;
  private closed = false;

  /** `start` launches the browser and the backend on it (and may open a first page). */
  constructor(private readonly start: () => Promise<HeadlessBackend>) {}

  /** Starts the browser now, in the background; its outcome is reported by the first call. */
  warm(): void {
    this.ready().catch(() => undefined);
  }

  private ready(): Promise<HeadlessBackend> {
    if (this.closed) return Promise.reject(new AgentError("failed", "the browser is closed: the server is shutting down"));
    if (!this.starting) {
      const started = this.start().then(
        async (backend) => {
          // Closed while it started: nothing may be left running.
          if (this.closed) {
            await backend.close();
            throw new AgentError("failed", "the browser is closed: the server is shutting down");
          }
          return backend;
        },
        (err: unknown) => {
          // Forgotten once reported, so a later call tries again (the person may have fixed it).
          if (this.starting === started) this.starting = null;
          if (isAgentError(err)) throw err;
          const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
          throw new AgentError("failed", `the browser could not start: ${why}`);
        },
      );
      this.starting = started;
    }
    return this.starting;
  }

  async tabs(): Promise<AgentTab[]> {
    return (await this.ready()).tabs();
  }

  async capture(tab: string, opts?: CaptureOptions): Promise<SnapshotRequest> {
    return (await this.ready()).capture(tab, opts);
  }

  async read(tab: string): Promise<ReadPage> {
    return (await this.ready()).read(tab);
  }

  async screenshot(tab: string, marks: MarkBox[]): Promise<string> {
    return (await this.ready()).screenshot(tab, marks);
  }

  async act(tab: string, action: AgentAction, target: ActionTarget | null, hooks?: CallHooks): Promise<ActionResult> {
    const backend: AgentBackend = await this.ready();
    return backend.act(tab, action, target, hooks);
  }

  async openTab(url: string): Promise<AgentTab> {
    return (await this.ready()).openTab(url);
  }

  async selectTab(tab: string): Promise<void> {
    return (await this.ready()).selectTab(tab);
  }

  async closeTab(tab: string): Promise<void> {
    return (await this.ready()).closeTab(tab);
  }

  async hiddenText(tab: string): Promise<string[]> {
    return (await this.ready()).hiddenText(tab);
  }

  async wait(tab: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    return (await this.ready()).wait(tab, opts);
  }

  /** Closes the browser, also one still starting. */
  async close(): Promise<void> {
    this.closed = true;
    const started = this.starting;
    this.starting = null;
    if (started) await started.then((b) => b.close()).catch(() => undefined);
  }
}
