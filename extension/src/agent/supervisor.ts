// The person in the loop, in the background worker. The supervisor puts the parts together and
// keeps their state in session storage: which tabs are shared (sharing.ts), what the panel may
// ask (panel-requests.ts), what an agent's call does on a tab (dispatch.ts, act.ts), the cards
// waiting for Approve / Reject (approvals.ts, highlight.ts), pause and take over (mode.ts) and
// the activity log (log.ts). Calls come from the bridge client; decisions come from the panel.
import { browser } from "wxt/browser";
import { SecretValues, type AgentTab } from "@sightline/shared/agent/core";
import { loadSettings } from "../panel/settings.js";
import { Approvals } from "./approvals.js";
import { ALARM, BridgeClient } from "./client.js";
import * as cdp from "./debugger.js";
import { Dispatch } from "./dispatch.js";
import { ActivityLog } from "./log.js";
import { Mode } from "./mode.js";
import { answerPanel } from "./panel-requests.js";
import { Sharing } from "./sharing.js";
import { AGENT_STATE_TAG, type AgentRequest, type AgentState, type AgentStateEnvelope, type LogEntry } from "./state.js";

const SHARED_KEY = "sightline.agent.shared";
const SITES_KEY = "sightline.agent.sites";
const LOG_KEY = "sightline.agent.log";

export class Supervisor {
  /**
   * Text typed into secret fields (shared/src/agent/core/secrets.ts), in the worker's memory only:
   * masked in the log and in every answer, wherever a page echoes it (the server's session
   * does the same; this also covers a text the person edited on the card).
   */
  readonly typed = new SecretValues();
  readonly mode = new Mode();
  readonly approvals = new Approvals(() => this.broadcast());
  readonly log = new ActivityLog(this.typed, () => {
    this.persist();
    this.broadcast();
  });
  readonly sharing = new Sharing({
    changed: () => this.changed(),
    tabsChanged: () => void this.client.sendTabs(),
    unshared: (tabId) => this.approvals.cancelTab(tabId),
  });
  readonly client: BridgeClient;
  readonly loaded: Promise<void>;
  private readonly dispatch: Dispatch;

  constructor() {
    this.client = new BridgeClient({
      config: async () => {
        await this.loaded;
        const s = await loadSettings();
        if (!s.backendUrl || !s.apiKey) return { off: "set a backend URL and API key in Settings to let agents in" };
        if (!this.sharing.size) return { off: "share a tab to connect" };
        return { backendUrl: s.backendUrl, apiKey: s.apiKey };
      },
      tabs: () => this.tabs(),
      onCall: (call, reply) => void this.dispatch.handle(call, reply),
      onCancel: (id) => this.approvals.cancel(id),
      onState: () => this.broadcast(),
    });
    this.loaded = this.load();
    this.dispatch = new Dispatch(this);
  }

  private async load(): Promise<void> {
    const s = await browser.storage.session.get([SHARED_KEY, SITES_KEY, LOG_KEY]).catch(() => ({}) as Record<string, unknown>);
    await this.sharing.restore((s[SHARED_KEY] as number[] | undefined) ?? []);
    this.approvals.restoreSites((s[SITES_KEY] as string[] | undefined) ?? []);
    this.log.restore((s[LOG_KEY] as LogEntry[] | undefined) ?? []);
  }

  persist(): void {
    void browser.storage.session
      .set({ [SHARED_KEY]: this.sharing.ids(), [SITES_KEY]: this.approvals.sites(), [LOG_KEY]: this.log.kept() })
      .catch(() => undefined);
  }

  state(): AgentState {
    return {
      connection: this.client.state,
      shared: this.sharing.ids(),
      attached: this.sharing.ids().filter((id) => cdp.isAttached(id)),
      allowedSites: this.approvals.sites(),
      mode: this.mode.mode,
      pending: this.approvals.pending(),
      log: this.log.recent(),
    };
  }

  private broadcast(): void {
    const env: AgentStateEnvelope = { tag: AGENT_STATE_TAG, state: this.state() };
    // Only the extension's own pages listen; no panel open is fine.
    browser.runtime.sendMessage(env).catch(() => undefined);
    const n = this.approvals.count;
    void browser.action.setBadgeText({ text: n ? String(n) : "" }).catch(() => undefined);
    void browser.action.setBadgeBackgroundColor?.({ color: "#ff1f8f" })?.catch(() => undefined);
  }

  start(): void {
    void this.loaded.then(() => this.client.ensure());
    // The alarm wakes a worker that slept (and with it the connection).
    void browser.alarms?.create(ALARM, { periodInMinutes: 0.5 });
    browser.alarms?.onAlarm.addListener((a) => {
      if (a.name === ALARM) void this.client.ensure();
    });
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === "local" && "sightline.settings" in changes) void this.client.restart();
    });
    this.sharing.listen();
  }

  private changed(): void {
    this.persist();
    this.broadcast();
    void this.client.ensure().then(() => this.client.sendTabs());
  }

  async tabs(): Promise<AgentTab[]> {
    await this.loaded;
    return this.typed.scrub(await this.sharing.tabs());
  }

  async request(req: AgentRequest): Promise<AgentState> {
    await this.loaded;
    await answerPanel(this, req);
    this.broadcast();
    return this.state();
  }
}
