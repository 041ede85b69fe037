// The person's-tab backend: every AgentBackend call becomes a bridge call to the extension
// that shared the tab. The extension does the page work (and asks the person before acting).
import type { ActionResult, ActionTarget, AgentAction, AgentBackend, AgentTab, CallHooks, MarkBox, ReadPage } from "@sightline/shared/agent";
import type { SnapshotRequest } from "@sightline/shared/contract";
import type { BridgeOp, BridgeOps } from "@sightline/shared/bridge";

/** What the backend needs of the hub (hub.ts implements it; declared here so the two modules do not import each other). */
export interface BridgeCalls {
  tabs(accountId: string): AgentTab[];
  call<K extends BridgeOp>(accountId: string, sessionId: string, handle: string, op: K, args: BridgeOps[K]["args"], hooks?: CallHooks): Promise<BridgeOps[K]["result"]>;
}

export class BridgeBackend implements AgentBackend {
  constructor(
    private readonly hub: BridgeCalls,
    private readonly accountId: string,
    private readonly sessionId: string,
  ) {}

  async tabs(): Promise<AgentTab[]> {
    return this.hub.tabs(this.accountId);
  }

  capture(tab: string): Promise<SnapshotRequest> {
    return this.hub.call(this.accountId, this.sessionId, tab, "capture", {});
  }

  read(tab: string): Promise<ReadPage> {
    return this.hub.call(this.accountId, this.sessionId, tab, "read", {});
  }

  async screenshot(tab: string, marks: MarkBox[]): Promise<string> {
    return (await this.hub.call(this.accountId, this.sessionId, tab, "screenshot", { marks })).png;
  }

  /** `hooks.onProgress` hears "waiting for the person's approval"; `hooks.signal` cancels the card. */
  act(tab: string, action: AgentAction, target: ActionTarget | null, hooks?: CallHooks): Promise<ActionResult> {
    return this.hub.call(this.accountId, this.sessionId, tab, "act", { action, target }, hooks);
  }

  async hiddenText(tab: string): Promise<string[]> {
    return (await this.hub.call(this.accountId, this.sessionId, tab, "hidden_text", {})).texts;
  }

  async wait(tab: string, opts: { text?: string; timeoutMs: number }): Promise<boolean> {
    const args = opts.text === undefined ? { timeoutMs: opts.timeoutMs } : { text: opts.text, timeoutMs: opts.timeoutMs };
    return (await this.hub.call(this.accountId, this.sessionId, tab, "wait", args)).found;
  }
}
