// The person's-tab backend: every AgentBackend call becomes a bridge call to the extension
// that shared the tab. The extension does the page work (and asks the person before acting).
// A navigate is held to the host policy of /v1/observe before it is relayed: an agent steered
// by a page must not walk the person's browser into their intranet or a metadata address.
import { AgentError, checkNavigableUrl, type ActionResult, type ActionTarget, type AgentAction, type AgentBackend, type AgentTab, type CallHooks, type MarkBox, type ReadPage } from "@sightline/shared/agent";
import type { SnapshotRequest } from "@sightline/shared/contract";
import type { BridgeOp, BridgeOps } from "@sightline/shared/bridge";
import { checkRequestUrl, DEFAULT_POLICY, EgressRefusal, hostAllowedByName, type HostPolicy, type Lookup } from "@sightline/shared/net";

/** The policy the server holds navigate URLs to (config.observe's SIGHTLINE_ALLOW_PRIVATE_HOSTS). */
export interface NavigationPolicy {
  policy: HostPolicy;
  /** The server's resolver (tests may give another). */
  lookup?: Lookup;
}

const POLICY_HINT = "an agent may not open private, loopback, link-local or metadata addresses (the server's operator can allow hosts with SIGHTLINE_ALLOW_PRIVATE_HOSTS)";

/**
 * Refuses a navigate URL the policy refuses, as bad_url. The person's browser resolves names
 * itself, so the server's answer is the best it can know: a name it cannot resolve is not
 * known to be public and is refused too, unless the policy names it.
 */
async function checkNavigate(raw: string, nav: NavigationPolicy): Promise<void> {
  const url = checkNavigableUrl(raw);
  if (hostAllowedByName(url.hostname, nav.policy)) return;
  try {
    await checkRequestUrl(raw, nav.policy, nav.lookup);
  } catch (err) {
    if (!(err instanceof EgressRefusal)) throw err;
    const why = err.reason === "unresolvable" ? `${err.message} by the Sightline server, so it is not known to be public` : err.message;
    throw new AgentError("bad_url", `Invalid URL: ${why}; ${POLICY_HINT}`);
  }
}

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
    private readonly navigation: NavigationPolicy = { policy: DEFAULT_POLICY },
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
  async act(tab: string, action: AgentAction, target: ActionTarget | null, hooks?: CallHooks): Promise<ActionResult> {
    if (action.kind === "navigate") await checkNavigate(action.url, this.navigation);
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
