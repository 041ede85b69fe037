// The person in the loop, in the background worker: which tabs are shared, what an agent's call
// does on them, which actions wait for Approve / Reject in the side panel, pause and take over,
// and the activity log. Calls come from the bridge client; decisions come from the panel.
import { browser, type Browser } from "wxt/browser";
import {
  ACTIVITY_FORMAT,
  AgentError,
  assessAction,
  isAgentError,
  isSecretTarget,
  loggableAction,
  MASK,
  SecretValues,
  type ActionOutcome,
  type Decision,
  type ActionResult,
  type ActionTarget,
  type AgentAction,
  type AgentTab,
  type RiskAssessment,
} from "@sightline/shared/agent/core";
import { markListeners, screenshotWithMarks, waitOnPage } from "@sightline/shared/agent/perform";
import type { BridgeOps, CallMessage } from "@sightline/shared/agent/bridge";
import type { SnapshotRequest } from "@sightline/shared/contract";
import { ensureInjected, exec } from "../inject.js";
import { loadSettings } from "../panel/settings.js";
import { explainTabError } from "../tab-errors.js";
import { ALARM, BridgeClient, type Replier } from "./client.js";
import * as cdp from "./debugger.js";
import { ExtensionDriver } from "./driver.js";
import { loggableFields } from "@sightline/shared/agent/core";
// issue 33 hooks: dialogs, pointer input, fill_form cards (./tools.ts).
import { needsDebugger, performOnTab, refuseWhileDialog, riskExtras, watchDialogs } from "./tools.js";
import { AGENT_STATE_TAG, type AgentMode, type AgentRequest, type AgentState, type AgentStateEnvelope, type LogEntry, type PendingApproval } from "./state.js";

const SHARED_KEY = "sightline.agent.shared";
const SITES_KEY = "sightline.agent.sites";
const LOG_KEY = "sightline.agent.log";
const MAX_LOG = 500;
/** A pending approval reminds the agent it is still waiting this often. */
const PROGRESS_EVERY_MS = 15_000;

interface Waiting {
  approval: PendingApproval;
  /** The person's decision. */
  decide(d: { approve: boolean; text?: string }): void;
  /** The server gave up on the call, or the tab stopped being shared. */
  cancel(): void;
}

type Sightline = {
  collect(o?: unknown): Promise<SnapshotRequest>;
  read(o?: unknown): Promise<{ title: string; description: string; content: string }>;
  receiveListenerMarks(): void;
};
type Overlay = { highlight(b: unknown, s?: unknown): boolean; scrollTo(b: unknown, s?: unknown): boolean };

/** Observing calls run without asking. */
const OBSERVED: Decision = { tier: "observe", by: "policy", verdict: "approved" };

/** Actions that need trusted input (the debugger); the others use the page agent or chrome.tabs. */
const needsInput = (a: AgentAction) => a.kind === "click" || a.kind === "type" || a.kind === "press" || needsDebugger(a);

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

export class Supervisor {
  private shared = new Set<number>();
  /** Last committed URL of shared tabs (in memory: a worker that slept answers tabs.get's). */
  private urls = new Map<number, string>();
  private allowedSites = new Set<string>();
  private mode: AgentMode = "running";
  private readonly waiting = new Map<string, Waiting>();
  private log: LogEntry[] = [];
  /** Calls held by Pause / Take over, released by resume. */
  private held: (() => void)[] = [];
  /** The person took over since these tabs' last act: the agent's picture of them is stale. */
  private takenOver = new Set<number>();
  /** One act at a time per tab. */
  private readonly chains = new Map<number, Promise<unknown>>();
  /**
   * Text typed into secret fields (shared/src/agent/core/secrets.ts), in the worker's memory only:
   * masked in the log and in every answer, wherever a page echoes it (the server's session
   * does the same; this also covers a text the person edited on the card).
   */
  private readonly typed = new SecretValues();
  readonly client: BridgeClient;
  private loaded: Promise<void>;

  constructor() {
    this.client = new BridgeClient({
      config: async () => {
        await this.loaded;
        const s = await loadSettings();
        if (!s.backendUrl || !s.apiKey) return { off: "set a backend URL and API key in Settings to let agents in" };
        if (!this.shared.size) return { off: "share a tab to connect" };
        return { backendUrl: s.backendUrl, apiKey: s.apiKey };
      },
      tabs: () => this.tabs(),
      onCall: (call, reply) => void this.handle(call, reply),
      onCancel: (id) => this.waiting.get(id)?.cancel(),
      onState: () => this.broadcast(),
    });
    this.loaded = this.load();
  }

  private async load(): Promise<void> {
    const s = await browser.storage.session.get([SHARED_KEY, SITES_KEY, LOG_KEY]).catch(() => ({}) as Record<string, unknown>);
    const ids = (s[SHARED_KEY] as number[] | undefined) ?? [];
    // Tabs closed while the worker slept are dropped.
    const alive = await Promise.all(ids.map((id) => browser.tabs.get(id).then(() => id, () => null)));
    this.shared = new Set(alive.filter((id): id is number => id !== null));
    this.allowedSites = new Set((s[SITES_KEY] as string[] | undefined) ?? []);
    this.log = (s[LOG_KEY] as LogEntry[] | undefined) ?? [];
  }

  private persist(): void {
    void browser.storage.session
      .set({ [SHARED_KEY]: [...this.shared], [SITES_KEY]: [...this.allowedSites], [LOG_KEY]: this.log.slice(-MAX_LOG) })
      .catch(() => undefined);
  }

  state(): AgentState {
    return {
      connection: this.client.state,
      shared: [...this.shared],
      attached: [...this.shared].filter((id) => cdp.isAttached(id)),
      allowedSites: [...this.allowedSites],
      mode: this.mode,
      pending: [...this.waiting.values()].map((w) => w.approval),
      log: this.log.slice(-200),
    };
  }

  private broadcast(): void {
    const env: AgentStateEnvelope = { tag: AGENT_STATE_TAG, state: this.state() };
    // Only the extension's own pages listen; no panel open is fine.
    browser.runtime.sendMessage(env).catch(() => undefined);
    const n = this.waiting.size;
    void browser.action.setBadgeText({ text: n ? String(n) : "" }).catch(() => undefined);
    void browser.action.setBadgeBackgroundColor?.({ color: "#ff1f8f" })?.catch(() => undefined);
  }

  // ---- start, tabs and sharing ------------------------------------------------------------

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
    // A tab a shared page itself opened (a target=_blank link, window.open) joins the share.
    // Not tabs.onCreated's openerTabId: Chromium also names the front tab the opener of a tab
    // the person opens with Ctrl+T or the new-tab button, and that tab is the person's own.
    browser.webNavigation.onCreatedNavigationTarget.addListener((d) => {
      if (!this.shared.has(d.sourceTabId) || this.shared.has(d.tabId)) return;
      this.shared.add(d.tabId);
      this.urls.set(d.tabId, d.url);
      this.changed();
    });
    // Without host permissions tabs.get hides a joined tab's URL; the committed one is known.
    browser.webNavigation.onCommitted.addListener((d) => {
      if (d.frameId === 0 && this.shared.has(d.tabId)) this.urls.set(d.tabId, d.url);
    });
    browser.tabs.onRemoved.addListener((id) => {
      this.urls.delete(id);
      if (this.shared.delete(id)) this.changed();
    });
    browser.tabs.onUpdated.addListener((id, info) => {
      if (this.shared.has(id) && (info.url !== undefined || info.title !== undefined || info.status === "complete")) void this.client.sendTabs();
    });
    browser.tabs.onActivated.addListener(() => void this.client.sendTabs());
  }

  private changed(): void {
    this.persist();
    this.broadcast();
    void this.client.ensure().then(() => this.client.sendTabs());
  }

  async tabs(): Promise<AgentTab[]> {
    await this.loaded;
    const out: AgentTab[] = [];
    for (const id of this.shared) {
      const t = await browser.tabs.get(id).catch(() => null);
      if (!t) continue;
      out.push({ tab: String(id), url: t.url || this.urls.get(id) || "", title: t.title ?? "", active: !!t.active });
    }
    return this.typed.scrub(out);
  }

  private async share(tabId: number, on: boolean): Promise<void> {
    await this.loaded;
    if (on) this.shared.add(tabId);
    else {
      this.shared.delete(tabId);
      await cdp.detach(tabId);
      for (const w of [...this.waiting.values()]) if (w.approval.tabId === tabId) w.cancel();
    }
    this.changed();
    if (!this.shared.size) this.client.stop("share a tab to connect");
  }

  // ---- panel requests ---------------------------------------------------------------------

  async request(req: AgentRequest): Promise<AgentState> {
    await this.loaded;
    switch (req.type) {
      case "agent-state":
        break;
      case "agent-share":
        await this.share(req.tabId, req.on);
        break;
      case "agent-decide":
        this.waiting.get(req.id)?.decide({ approve: req.approve, text: req.text });
        break;
      case "agent-allow-site":
        if (req.on) this.allowedSites.add(req.origin);
        else this.allowedSites.delete(req.origin);
        this.persist();
        break;
      case "agent-mode":
        this.setMode(req.mode);
        break;
      case "agent-reconnect":
        await this.client.restart();
        break;
    }
    this.broadcast();
    return this.state();
  }

  private setMode(mode: AgentMode): void {
    if (mode === "takeover") for (const id of this.shared) this.takenOver.add(id);
    this.mode = mode;
    if (mode === "running") for (const go of this.held.splice(0)) go();
  }

  // ---- calls ------------------------------------------------------------------------------

  private tabOf(call: CallMessage): number {
    const id = Number(call.tab);
    if (!Number.isInteger(id) || !this.shared.has(id)) throw new AgentError("no_tab", `tab "${call.tab}" is not shared with the agent`);
    return id;
  }

  /** Holds a call while the person paused the agent or took over. */
  private async whileHeld(reply: Replier): Promise<void> {
    while (this.mode !== "running") {
      reply.progress(this.mode === "paused" ? "paused by the person: the call runs when they resume" : "the person has taken over the tab: the call runs when they hand back");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, PROGRESS_EVERY_MS);
        this.held.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private async handle(call: CallMessage, reply: Replier): Promise<void> {
    const started = Date.now();
    let tabId = -1;
    try {
      await this.loaded;
      tabId = this.tabOf(call);
      await this.whileHeld(reply);
      tabId = this.tabOf(call); // still shared after the wait
      const data = await this.run(call, tabId, reply, started);
      // A screenshot's PNG is not text (its masks are drawn in the page).
      reply.ok(call.op === "screenshot" ? data : this.typed.scrub(data));
    } catch (raw) {
      const err = this.typed.scrubError(raw);
      const e = isAgentError(err) ? err : new AgentError("failed", this.typed.scrub(explainTabError(err)));
      if (call.op !== "act") this.record({ tabId, tool: call.op, summary: call.op, decision: OBSERVED, error: e.message, started });
      reply.fail(e.code, e.message, e.detail);
    }
  }

  private async run(call: CallMessage, tabId: number, reply: Replier, started: number): Promise<unknown> {
    const driver = new ExtensionDriver(tabId);
    if (call.op !== "act") refuseWhileDialog(tabId, null); // issue 33: a dialog blocks the page
    switch (call.op) {
      case "capture": {
        await ensureInjected(tabId);
        // Holding the debugger (the person let the agent act here): listener records from CDP,
        // so controls made clickable only by script are found as in headless Chromium. Best
        // effort: without them the collector reads the page's looks.
        if (cdp.isAttached(tabId)) {
          await exec(tabId, () => (globalThis as unknown as { sightline: Sightline }).sightline.receiveListenerMarks(), []);
          await markListeners((method, params) => cdp.send(tabId, method, params)).catch(() => 0);
        }
        // textVisibility: elements whose text the person cannot see are marked (text_hidden).
        const req = await exec(tabId, async () => (globalThis as unknown as { sightline: Sightline }).sightline.collect({ textVisibility: true }), []);
        this.record({ tabId, tool: "snapshot", summary: `Read the elements of ${req.url}`, decision: OBSERVED, started });
        return req;
      }
      case "read": {
        await ensureInjected(tabId);
        // markHidden: every run the person cannot see comes back wrapped in ⟦hidden⟧ marks.
        const r = await exec(tabId, async () => (globalThis as unknown as { sightline: Sightline }).sightline.read({ format: "markdown", markHidden: true }), []);
        const url = await driver.url();
        this.record({ tabId, tool: "read", summary: `Read the text of ${url}`, decision: OBSERVED, started });
        return { url, title: r.title, description: r.description, content: r.content } satisfies BridgeOps["read"]["result"];
      }
      case "screenshot": {
        const { marks } = call.args as BridgeOps["screenshot"]["args"];
        const png = await screenshotWithMarks(driver, marks);
        this.record({ tabId, tool: "screenshot", summary: `Screenshot with ${marks.length} marks`, decision: OBSERVED, started });
        return { png } satisfies BridgeOps["screenshot"]["result"];
      }
      case "wait": {
        const args = call.args as BridgeOps["wait"]["args"];
        const found = await waitOnPage(driver, { text: args.text, timeoutMs: Math.min(args.timeoutMs, 60_000) });
        this.record({ tabId, tool: "wait", summary: args.text ? `Wait for "${args.text}"` : "Wait until the page is quiet", decision: OBSERVED, ...(found ? {} : { error: "not found in time" }), started });
        return { found } satisfies BridgeOps["wait"]["result"];
      }
      case "hidden_text": {
        const texts = await driver.call("hiddenText", {});
        return { texts } satisfies BridgeOps["hidden_text"]["result"];
      }
      case "act": {
        const { action, target } = call.args as BridgeOps["act"]["args"];
        const prev = this.chains.get(tabId) ?? Promise.resolve();
        const next = prev.catch(() => undefined).then(() => this.act(call.id, tabId, action, target, reply, started));
        this.chains.set(tabId, next);
        return next;
      }
    }
  }

  private async act(callId: string, tabId: number, action: AgentAction, target: ActionTarget | null, reply: Replier, started: number): Promise<ActionResult> {
    const driver = new ExtensionDriver(tabId);
    const pageUrl = await driver.url();
    const id = "id" in action && action.id !== undefined ? action.id : null;
    if (this.takenOver.has(tabId)) {
      this.takenOver.delete(tabId);
      if (id !== null || action.kind === "press") {
        // Not "stale" (one element gone): the whole picture is old. The server's session answers
        // with what the person changed and the page as it is now (shared/src/agent/session/session.ts).
        throw new AgentError("handed_back", "the person took over this tab and handed it back", { takenOver: true });
      }
    }
    refuseWhileDialog(tabId, action); // issue 33
    const facts = id !== null ? await driver.call("describe", { id }) : null;
    if (id !== null && !facts) throw new AgentError("stale", `element [${id}] is no longer on the page`, { id });
    const extras = await riskExtras(tabId, driver, action); // issue 33: the dialog, fill_form's fields
    for (const v of extras.secrets) this.typed.add(v);
    const risk = assessAction(action, { pageUrl, target, facts, ...extras });
    const secret = action.kind === "type" && (risk.secret || isSecretTarget(target));
    if (secret) this.typed.add(action.text);
    const origin = originOf(pageUrl);
    const ask = risk.tier === "sensitive" || (risk.tier === "act" && !this.allowedSites.has(origin));
    let decision: Decision = { tier: risk.tier, by: "policy", verdict: "approved" };
    let performed = action;
    const base = { tabId, tool: action.kind, pageUrl, target, started };
    if (ask) {
      const got = await this.askPerson(callId, tabId, origin, action, risk, facts?.form ?? null, reply);
      if (!got.approve) {
        const error = got.cancelled ? "the call was cancelled while waiting for the person" : "rejected by the person";
        this.record({ ...base, summary: risk.summary, action: this.loggable(action, target, risk), decision: { tier: risk.tier, by: got.cancelled ? "policy" : "person", verdict: "rejected" }, error });
        throw new AgentError("rejected", error);
      }
      decision = { tier: risk.tier, by: "person", verdict: "approved" };
      if (got.text !== undefined && action.kind === "type" && got.text !== action.text) {
        if (secret) this.typed.add(got.text);
        performed = { ...action, text: got.text };
        decision = { ...decision, verdict: "edited" };
      }
    }
    const summary = performed === action ? risk.summary : assessAction(performed, { pageUrl, target, facts, ...extras }).summary;
    try {
      // Trusted input needs the debugger, attached to this shared tab on first use.
      if (needsInput(performed)) {
        await cdp.attach(tabId).catch((err: unknown) => {
          throw new AgentError("failed", `Sightline could not attach the browser's debugger to this tab (needed for trusted clicks and typing): ${String(err)}`);
        });
        await watchDialogs(tabId);
      }
      const result = await performOnTab(tabId, driver, performed); // issue 33: dialogs never hang it
      this.record({ ...base, summary, action: this.loggable(performed, target, risk), decision, outcome: result.outcome, urlAfter: result.url });
      return { ...result, decision };
    } catch (err) {
      const msg = this.typed.scrub(isAgentError(err) ? err.message : explainTabError(err));
      this.record({ ...base, summary, action: this.loggable(performed, target, risk), decision, error: msg });
      throw err;
    }
  }

  /** A secret text never reaches the log (the page's facts or the agent's picture say secret). */
  private loggable(action: AgentAction, target: ActionTarget | null, risk: RiskAssessment): AgentAction {
    return this.typed.scrub(action.kind === "type" && risk.secret ? { ...action, text: MASK } : loggableFields(loggableAction(action, target)));
  }

  private askPerson(
    callId: string,
    tabId: number,
    origin: string,
    action: AgentAction,
    risk: RiskAssessment,
    form: PendingApproval["form"],
    reply: Replier,
  ): Promise<{ approve: boolean; text?: string; cancelled?: boolean }> {
    const approval: PendingApproval = this.typed.scrub({
      id: callId,
      tabId,
      origin,
      tier: risk.tier,
      summary: risk.summary,
      reasons: risk.reasons,
      action: this.loggable(action, null, risk),
      targetId: "id" in action && action.id !== undefined ? action.id : null,
      form,
      secret: risk.secret,
      attachesDebugger: needsInput(action) && !cdp.isAttached(tabId),
      at: Date.now(),
    });
    const message = `waiting for the person's approval in the Sightline side panel: ${risk.summary}`;
    reply.progress(message);
    const reminder = setInterval(() => reply.progress(message), PROGRESS_EVERY_MS);
    void this.highlight(tabId, approval.targetId);
    return new Promise((resolve) => {
      const finish = (r: { approve: boolean; text?: string; cancelled?: boolean }) => {
        if (!this.waiting.delete(callId)) return;
        clearInterval(reminder);
        void this.highlight(tabId, null);
        this.broadcast();
        resolve(r);
      };
      this.waiting.set(callId, {
        approval,
        decide: (d) => finish({ approve: d.approve, text: d.text }),
        cancel: () => finish({ approve: false, cancelled: true }),
      });
      this.broadcast();
    });
  }

  private async highlight(tabId: number, id: number | null): Promise<void> {
    try {
      await ensureInjected(tabId);
      const box = id === null ? null : { id, rect: { x: 0, y: 0, width: 0, height: 0 } };
      await exec(
        tabId,
        (b: unknown) => {
          const a = (globalThis as unknown as { __sightlineAgent: Overlay }).__sightlineAgent;
          if (b) a.scrollTo(b);
          return a.highlight(b);
        },
        [box] as [unknown],
      );
    } catch {
      // The highlight is a help, not a condition.
    }
  }

  private record(e: {
    tabId: number;
    tool: string;
    summary: string;
    decision: Decision;
    started: number;
    pageUrl?: string;
    action?: AgentAction;
    target?: ActionTarget | null;
    outcome?: ActionOutcome;
    urlAfter?: string;
    error?: string;
  }): void {
    const urlNow = e.pageUrl !== undefined ? Promise.resolve(e.pageUrl) : browser.tabs.get(e.tabId).then((t: Browser.tabs.Tab) => t.url ?? "", () => "");
    void urlNow.then((url) => {
      // Whatever the page echoed of a typed secret (its address, a title in an error) is masked.
      const entry: LogEntry = this.typed.scrub({
        format: ACTIVITY_FORMAT,
        at: new Date().toISOString(),
        tab: String(e.tabId),
        tool: e.tool,
        url,
        ...(e.action ? { action: e.action } : {}),
        ...(e.target ? { target: e.target } : {}),
        decision: e.decision,
        ...(e.error ? { outcome: "error" as const, error: e.error } : e.outcome ? { outcome: e.outcome } : {}),
        ...(e.urlAfter ? { url_after: e.urlAfter } : {}),
        summary: e.summary,
        ms: Date.now() - e.started,
      });
      this.log.push(entry);
      if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
      this.persist();
      this.broadcast();
    });
  }
}
