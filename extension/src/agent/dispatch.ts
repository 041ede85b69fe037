// Bridge calls from the server, on the tabs the person shared: each op to the page work it
// means, held while the person paused or took over, one act at a time per tab, and the answer
// (typed secrets masked) or the error sent back.
import { AgentError, isAgentError, type Decision } from "@sightline/shared/agent/core";
import { screenshotWithMarks, waitOnPage } from "@sightline/shared/agent/perform";
import type { BridgeOps, CallMessage } from "@sightline/shared/agent/bridge";
import { ensureInjected, exec } from "../inject.js";
import { explainTabError } from "../tab-errors.js";
import { act, type ActDeps } from "./act.js";
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
    if (call.op !== "act") refuseWhileDialog(tabId, null); // a dialog blocks the page
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
      case "act": {
        const args = call.args as BridgeOps["act"]["args"];
        const prev = this.chains.get(tabId) ?? Promise.resolve();
        const next = prev.catch(() => undefined).then(() => act(this.deps, call.id, tabId, args, reply, started));
        this.chains.set(tabId, next);
        return next;
      }
    }
  }
}
