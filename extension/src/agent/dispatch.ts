// Bridge calls from the server, on the tabs the person shared: each op to the page work it
// means, held while the person paused or took over, one act at a time per tab, and the answer
// (typed secrets masked) or the error sent back.
import { browser } from "wxt/browser";
import { AgentError, assessAction, isAgentError, originOf, type Decision } from "@sightline/shared/agent/core";
import { screenshotWithMarks, waitOnPage } from "@sightline/shared/agent/perform";
import type { BridgeOps, CallMessage } from "@sightline/shared/agent/bridge";
import { ensureInjected, exec } from "../inject.js";
import { explainTabError } from "../tab-errors.js";
import { act, askOrReject, type ActDeps } from "./act.js";
import { capturePage } from "./capture.js";
import type { Replier } from "./client.js";
import { ExtensionDriver } from "./driver.js";
import { refuseWhileDialog } from "./tools.js";
import type { Sharing } from "./sharing.js";

type Sightline = {
  read(o?: unknown): Promise<{ title: string; description: string; content: string }>;
};

/** Observing calls run without asking. */
const OBSERVED: Decision = { tier: "observe", by: "policy", verdict: "approved" };

export interface CallDeps extends ActDeps {
  readonly sharing: Sharing;
  /** The bridge: the tabs are sent before a tab op answers (the server then knows them). */
  readonly client: { sendTabs(): Promise<void> };
  /** Resolves once the state kept in session storage is back. */
  readonly loaded: Promise<void>;
}

export class Dispatch {
  /** One act at a time per tab. */
  private readonly chains = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: CallDeps) {}

  async handle(call: CallMessage, reply: Replier): Promise<void> {
    const { typed, sharing, log, mode } = this.deps;
    const started = Date.now();
    let tabId = -1;
    try {
      await this.deps.loaded;
      tabId = sharing.tabOf(call.tab);
      await mode.whileHeld(reply);
      tabId = sharing.tabOf(call.tab); // still shared after the wait
      const data = await this.run(call, tabId, reply, started);
      // A screenshot's PNG is not text (its masks are drawn in the page).
      reply.ok(call.op === "screenshot" ? data : typed.scrub(data));
    } catch (raw) {
      const err = typed.scrubError(raw);
      const e = isAgentError(err) ? err : new AgentError("failed", typed.scrub(explainTabError(err)));
      if (call.op !== "act") log.record({ tabId, tool: call.op, summary: call.op, decision: OBSERVED, error: e.message, started });
      reply.fail(e.code, e.message, e.detail);
    }
  }

  private async run(call: CallMessage, tabId: number, reply: Replier, started: number): Promise<unknown> {
    const { log } = this.deps;
    const driver = new ExtensionDriver(tabId);
    if (call.op !== "act") await refuseWhileDialog(tabId, null); // a dialog blocks the page
    switch (call.op) {
      case "capture": {
        const args = call.args as BridgeOps["capture"]["args"];
        const req = await capturePage(tabId, { summary: args.summary === true });
        // Only the captures the agent asked for are its snapshots; a stale hint's is not.
        if (!args.internal) log.record({ tabId, tool: "snapshot", summary: `Read the elements of ${req.url}`, decision: OBSERVED, started });
        return req;
      }
      case "read": {
        await ensureInjected(tabId);
        // markHidden: every run the person cannot see comes back wrapped in ⟦hidden⟧ marks.
        const r = await exec(tabId, async () => (globalThis as unknown as { sightline: Sightline }).sightline.read({ format: "markdown", markHidden: true }), []);
        const url = await driver.url();
        log.record({ tabId, tool: "read", summary: `Read the text of ${url}`, decision: OBSERVED, started });
        return { url, title: r.title, description: r.description, content: r.content } satisfies BridgeOps["read"]["result"];
      }
      case "screenshot": {
        const { marks } = call.args as BridgeOps["screenshot"]["args"];
        const png = await screenshotWithMarks(driver, marks);
        log.record({ tabId, tool: "screenshot", summary: `Screenshot with ${marks.length} marks`, decision: OBSERVED, started });
        return { png } satisfies BridgeOps["screenshot"]["result"];
      }
      case "wait": {
        const args = call.args as BridgeOps["wait"]["args"];
        const found = await waitOnPage(driver, { text: args.text, timeoutMs: Math.min(args.timeoutMs, 60_000) });
        log.record({ tabId, tool: "wait", summary: args.text ? `Wait for "${args.text}"` : "Wait until the page is quiet", decision: OBSERVED, ...(found ? {} : { error: "not found in time" }), started });
        return { found } satisfies BridgeOps["wait"]["result"];
      }
      case "hidden_text": {
        const texts = await driver.call("hiddenText", {});
        return { texts } satisfies BridgeOps["hidden_text"]["result"];
      }
      case "tab_open":
        return this.openTab(call, tabId, (call.args as BridgeOps["tab_open"]["args"]).url, reply, started);
      case "tab_select": {
        await this.deps.sharing.select(tabId);
        await this.deps.client.sendTabs();
        log.record({ tabId, tool: "tab_select", summary: "Switch to this tab", decision: OBSERVED, started });
        return {};
      }
      case "tab_close": {
        const url = await driver.url().catch(() => "");
        await this.deps.sharing.close(tabId);
        await this.deps.client.sendTabs();
        log.record({ tabId, tool: "tab_close", summary: `Close the tab of ${url}`, pageUrl: url, decision: OBSERVED, started });
        return {};
      }
      case "act": {
        const args = call.args as BridgeOps["act"]["args"];
        const prev = this.chains.get(tabId) ?? Promise.resolve();
        const next = prev.catch(() => undefined).then(() => act(this.deps, call.id, tabId, args, reply, started));
        this.chains.set(tabId, next);
        return next;
      }
    }
  }

  /** tab_open, asked like a navigate (its tier and reasons, policy.ts), then opened beside the tab. */
  private async openTab(call: CallMessage, from: number, url: string, reply: Replier, started: number): Promise<BridgeOps["tab_open"]["result"]> {
    const { approvals, log, sharing } = this.deps;
    const pageUrl = await new ExtensionDriver(from).url();
    const action = { kind: "navigate", url } as const;
    const origin = originOf(pageUrl);
    const risk = assessAction(action, { pageUrl, target: null, facts: null, siteAllowed: approvals.siteAllowed(origin) });
    const summary = risk.summary.replace(/^Open \S+/, (m) => `${m} in a new tab`);
    let decision: Decision = { tier: risk.tier, by: "policy", verdict: "approved" };
    if (risk.ask) {
      await askOrReject(
        this.deps,
        { id: call.id, tabId: from, origin, tier: risk.tier, summary, reasons: risk.reasons, action, targetId: null, form: null, secret: false, attachesDebugger: false, at: Date.now() },
        reply,
        { tabId: from, tool: "tab_open", summary, pageUrl, started },
      );
      decision = { tier: risk.tier, by: "person", verdict: "approved" };
    }
    const tabId = await sharing.open(from, url);
    // Its page loaded (or 15 s passed): the agent's next call finds a document there.
    for (const end = Date.now() + 15_000; Date.now() < end; ) {
      const t = await browser.tabs.get(tabId).catch(() => null);
      if (!t || (t.status === "complete" && t.url && t.url !== "about:blank")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await this.deps.client.sendTabs();
    const t = await browser.tabs.get(tabId);
    log.record({ tabId, tool: "tab_open", summary, pageUrl: t.url ?? url, decision, started });
    return { tab: String(tabId), url: t.url || url, title: t.title ?? "", active: !!t.active };
  }
}
