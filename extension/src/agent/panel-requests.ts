// What the side panel may ask of the supervisor: share a tab, decide a card, let act run on a
// site, pause / take over / resume, reconnect. Every request answers the new state.
import type { Approvals } from "./approvals.js";
import type { BridgeClient } from "./client.js";
import type { Mode } from "./mode.js";
import type { Sharing } from "./sharing.js";
import type { AgentRequest } from "./state.js";

export interface PanelDeps {
  readonly sharing: Sharing;
  readonly approvals: Approvals;
  readonly mode: Mode;
  readonly client: BridgeClient;
  persist(): void;
}

export async function answerPanel(deps: PanelDeps, req: AgentRequest): Promise<void> {
  switch (req.type) {
    case "agent-state":
      break;
    case "agent-share":
      await deps.sharing.share(req.tabId, req.on);
      if (!deps.sharing.size) deps.client.stop("share a tab to connect");
      break;
    case "agent-decide":
      deps.approvals.decide(req.id, { approve: req.approve, text: req.text });
      break;
    case "agent-allow-site":
      deps.approvals.allowSite(req.origin, req.on);
      deps.persist();
      break;
    case "agent-mode":
      deps.mode.set(req.mode, deps.sharing.ids());
      break;
    case "agent-reconnect":
      await deps.client.restart();
      break;
  }
}
