// One agent action on a shared tab: the page's facts about its target, the risk tier, the
// person's approval when the policy asks for it, then the action itself and its log entry.
import {
  AgentError,
  assessAction,
  isAgentError,
  isSecretTarget,
  likelyDownload,
  loggableAction,
  originOf,
  type AgentAction,
  type Decision,
  type SecretValues,
} from "@sightline/shared/agent/core";
import type { BridgeOps } from "@sightline/shared/agent/bridge";
import { staleError } from "@sightline/shared/agent/perform";
import { explainTabError } from "../tab-errors.js";
import type { Answer, Approvals } from "./approvals.js";
import { capturePage } from "./capture.js";
import type { Replier } from "./client.js";
import * as cdp from "./debugger.js";
import { ExtensionDriver } from "./driver.js";
import type { ActivityLog, LogInput } from "./log.js";
import type { Mode } from "./mode.js";
import type { Sharing } from "./sharing.js";
import type { PendingApproval } from "./state.js";
// issue 33: dialogs, pointer input, fill_form cards (./tools.ts).
import { needsDebugger, performOnTab, refuseWhileDialog, riskExtras, watchDialogs } from "./tools.js";
import { watchDownloads } from "./downloads.js"; // issue 33: the answer names what the action downloaded

export interface ActDeps {
  readonly typed: SecretValues;
  readonly approvals: Approvals;
  readonly log: ActivityLog;
  readonly mode: Mode;
  /** Tabs a page opened during the action: the answer names them (issue 33). */
  readonly sharing: Sharing;
}

/** Actions that need trusted input (the debugger); the others use the page agent or chrome.tabs. */
export const needsInput = (a: AgentAction) => a.kind === "click" || a.kind === "type" || a.kind === "press" || needsDebugger(a);

/**
 * Shows the person the card and waits. Rejected (or cancelled): logged as `rejected` with
 * `entry`, and thrown as the agent's `rejected` error; approved: the person's answer.
 */
export async function askOrReject(
  deps: Pick<ActDeps, "approvals" | "log">,
  approval: PendingApproval,
  reply: Replier,
  entry: Omit<LogInput, "decision" | "error">,
): Promise<Answer> {
  const got = await deps.approvals.ask(approval, reply);
  if (got.approve) return got;
  const error = got.cancelled ? "the call was cancelled while waiting for the person" : "rejected by the person";
  deps.log.record({ ...entry, decision: { tier: approval.tier, by: got.cancelled ? "policy" : "person", verdict: "rejected" }, error });
  throw new AgentError("rejected", error);
}

export async function act(
  deps: ActDeps,
  callId: string,
  tabId: number,
  args: BridgeOps["act"]["args"],
  reply: Replier,
  started: number,
): Promise<BridgeOps["act"]["result"]> {
  const { typed, approvals, log } = deps;
  const { action, target } = args;
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
  await refuseWhileDialog(tabId, action); // a dialog blocks the page: only the dialog tool answers it
  const facts = id !== null ? await driver.call("describe", { id }) : null;
  if (id !== null && !facts) throw staleError(id);
  const extras = await riskExtras(tabId, driver, action, args.file); // the dialog, fill_form's fields, a file's size
  for (const v of extras.secrets) typed.add(v);
  const origin = originOf(pageUrl);
  // The policy decides the tier and whether the person is asked (shared/src/agent/core/policy.ts).
  const risk = assessAction(action, { pageUrl, target, facts, ...extras, siteAllowed: approvals.siteAllowed(origin) });
  const secret = action.kind === "type" && (risk.secret || isSecretTarget(target));
  if (secret) typed.add(action.text);
  let decision: Decision = { tier: risk.tier, by: "policy", verdict: "approved" };
  let performed = action;
  const base = { tabId, tool: action.kind, pageUrl, target, secret: risk.secret, started, followsHiddenText: args.followsHiddenText };
  if (risk.ask) {
    const approval: PendingApproval = typed.scrub({
      id: callId,
      tabId,
      origin,
      tier: risk.tier,
      summary: risk.summary,
      reasons: risk.reasons,
      // A secret text never reaches the card (the page's facts or the agent's picture say secret).
      action: typed.scrub(loggableAction(action, null, risk.secret)),
      targetId: id,
      form: facts?.form ?? null,
      secret: risk.secret,
      attachesDebugger: needsInput(action) && !cdp.isAttached(tabId),
      at: Date.now(),
    });
    const got = await askOrReject(deps, approval, reply, { ...base, summary: risk.summary, action });
    decision = { tier: risk.tier, by: "person", verdict: "approved" };
    if (got.text !== undefined && action.kind === "type" && got.text !== action.text) {
      if (secret) typed.add(got.text);
      performed = { ...action, text: got.text };
      decision = { ...decision, verdict: "edited" };
    }
  }
  const summary = performed === action ? risk.summary : assessAction(performed, { pageUrl, target, facts, ...extras }).summary;
  const downloads = watchDownloads(pageUrl, likelyDownload(facts));
  try {
    // Trusted input needs the debugger, attached to this shared tab on first use.
    if (needsInput(performed)) {
      await cdp.attach(tabId).catch((err: unknown) => {
        throw new AgentError("failed", `Sightline could not attach the browser's debugger to this tab (needed for trusted clicks and typing): ${String(err)}`);
      });
      await watchDialogs(tabId);
    }
    const since = Date.now();
    const done = await performOnTab(tabId, driver, performed, args.file); // a dialog never hangs it
    const files = await downloads.done();
    // A tab the page opened (a target=_blank link, window.open) joined the share: named in the answer.
    const opened = deps.sharing.openedBy(tabId, since - 50);
    const result = { ...done, ...(files.length ? { downloads: files } : {}), ...(opened.length ? { opened } : {}) };
    log.record({ ...base, summary, action: performed, decision, outcome: result.outcome, urlAfter: result.url });
    // A dialog blocks the page: nothing can be captured until the agent answers it.
    if (!args.capture || result.dialog) return { ...result, decision };
    // The page after the action, in the same answer (the server's session diffs it); after a
    // navigation only its top when the session asks (it lists the new page's first elements).
    const top = args.summary === true && result.outcome === "navigated";
    const capture = await capturePage(tabId, { summary: top }).catch(() => null);
    return { ...result, decision, capture, ...(top && capture ? { captureSummary: true } : {}) };
  } catch (err) {
    void downloads.done().catch(() => undefined);
    const msg = typed.scrub(isAgentError(err) ? err.message : explainTabError(err));
    log.record({ ...base, summary, action: performed, decision, error: msg });
    throw err;
  }
}
