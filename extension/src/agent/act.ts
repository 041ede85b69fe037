// One agent action on a shared tab: the page's facts about its target, the risk tier, the
// person's approval when the policy asks for it, then the action itself and its log entry.
import {
  AgentError,
  assessAction,
  isAgentError,
  isSecretTarget,
  loggableAction,
  MASK,
  type ActionResult,
  type ActionTarget,
  type AgentAction,
  type Decision,
  type RiskAssessment,
  type SecretValues,
} from "@sightline/shared/agent/core";
import { performAction } from "@sightline/shared/agent/perform";
import { explainTabError } from "../tab-errors.js";
import type { Approvals } from "./approvals.js";
import type { Replier } from "./client.js";
import * as cdp from "./debugger.js";
import { ExtensionDriver } from "./driver.js";
import type { ActivityLog } from "./log.js";
import type { Mode } from "./mode.js";
import type { PendingApproval } from "./state.js";

export interface ActDeps {
  readonly typed: SecretValues;
  readonly approvals: Approvals;
  readonly log: ActivityLog;
  readonly mode: Mode;
}

/** Actions that need trusted input (the debugger); the others use the page agent or chrome.tabs. */
export const needsInput = (a: AgentAction) => a.kind === "click" || a.kind === "type" || a.kind === "press";

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
};

/** A secret text never reaches the log (the page's facts or the agent's picture say secret). */
function loggable(typed: SecretValues, action: AgentAction, target: ActionTarget | null, risk: RiskAssessment): AgentAction {
  return typed.scrub(action.kind === "type" && risk.secret ? { ...action, text: MASK } : loggableAction(action, target));
}

export async function act(
  deps: ActDeps,
  callId: string,
  tabId: number,
  action: AgentAction,
  target: ActionTarget | null,
  reply: Replier,
  started: number,
): Promise<ActionResult> {
  const { typed, approvals, log } = deps;
  const driver = new ExtensionDriver(tabId);
  const pageUrl = await driver.url();
  const id = "id" in action && action.id !== undefined ? action.id : null;
  if (deps.mode.takeHandedBack(tabId)) {
    if (id !== null || action.kind === "press") {
      // Not "stale" (one element gone): the whole picture is old. The server's session answers
      // with what the person changed and the page as it is now (shared/src/agent/session/session.ts).
      throw new AgentError("handed_back", "the person took over this tab and handed it back", { takenOver: true });
    }
  }
  const facts = id !== null ? await driver.call("describe", { id }) : null;
  if (id !== null && !facts) throw new AgentError("stale", `element [${id}] is no longer on the page`, { id });
  const risk = assessAction(action, { pageUrl, target, facts });
  const secret = action.kind === "type" && (risk.secret || isSecretTarget(target));
  if (secret) typed.add(action.text);
  const origin = originOf(pageUrl);
  const ask = risk.tier === "sensitive" || (risk.tier === "act" && !approvals.siteAllowed(origin));
  let decision: Decision = { tier: risk.tier, by: "policy", verdict: "approved" };
  let performed = action;
  const base = { tabId, tool: action.kind, pageUrl, target, started };
  if (ask) {
    const approval: PendingApproval = typed.scrub({
      id: callId,
      tabId,
      origin,
      tier: risk.tier,
      summary: risk.summary,
      reasons: risk.reasons,
      action: loggable(typed, action, null, risk),
      targetId: id,
      form: facts?.form ?? null,
      secret: risk.secret,
      attachesDebugger: needsInput(action) && !cdp.isAttached(tabId),
      at: Date.now(),
    });
    const got = await approvals.ask(approval, reply);
    if (!got.approve) {
      const error = got.cancelled ? "the call was cancelled while waiting for the person" : "rejected by the person";
      log.record({ ...base, summary: risk.summary, action: loggable(typed, action, target, risk), decision: { tier: risk.tier, by: got.cancelled ? "policy" : "person", verdict: "rejected" }, error });
      throw new AgentError("rejected", error);
    }
    decision = { tier: risk.tier, by: "person", verdict: "approved" };
    if (got.text !== undefined && action.kind === "type" && got.text !== action.text) {
      if (secret) typed.add(got.text);
      performed = { ...action, text: got.text };
      decision = { ...decision, verdict: "edited" };
    }
  }
  const summary = performed === action ? risk.summary : assessAction(performed, { pageUrl, target, facts }).summary;
  try {
    // Trusted input needs the debugger, attached to this shared tab on first use.
    if (needsInput(performed)) {
      await cdp.attach(tabId).catch((err: unknown) => {
        throw new AgentError("failed", `Sightline could not attach the browser's debugger to this tab (needed for trusted clicks and typing): ${String(err)}`);
      });
    }
    const result = await performAction(driver, performed);
    log.record({ ...base, summary, action: loggable(typed, performed, target, risk), decision, outcome: result.outcome, urlAfter: result.url });
    return { ...result, decision };
  } catch (err) {
    const msg = typed.scrub(isAgentError(err) ? err.message : explainTabError(err));
    log.record({ ...base, summary, action: loggable(typed, performed, target, risk), decision, error: msg });
    throw err;
  }
}
