// The activity log: one entry per agent call, as JSON Lines a person can keep, read and replay
// (`sightline replay LOG`). Values typed into secret fields never enter it (the one rule of
// secrets.ts decides which fields are secret). Isomorphic: the server, the extension panel
// and the CLI write and read the same format.
import type { ActionOutcome, ActionTarget, AgentAction, Decision } from "./actions.js";
import { loggableFields } from "./policy-tools.js";
import { isSecretTarget, MASK } from "./secrets.js";

export { MASK };
export const ACTIVITY_FORMAT = "sightline-activity/1";

export interface ActivityEntry {
  format: typeof ACTIVITY_FORMAT;
  at: string;
  tab: string;
  tool: string;
  /** URL of the page the call was made on. */
  url: string;
  action?: AgentAction;
  target?: ActionTarget;
  decision?: Decision;
  outcome?: ActionOutcome | "error";
  error?: string;
  /** URL after the action. */
  url_after?: string;
  /** The diff lines the agent was given. */
  changes?: string[];
  /** The action seems to follow text the person cannot see (see provenance.ts). */
  follows_hidden_text?: boolean;
}

/**
 * The action as it may be logged: text typed into a secret field (secrets.ts) replaced by MASK.
 * `secret`: the page itself said the field is secret (policy.ts's verdict from its facts).
 */
export function loggableAction(action: AgentAction, target: ActionTarget | null | undefined, secret = false): AgentAction {
  if (action.kind === "type" && (secret || isSecretTarget(target))) return { ...action, text: MASK };
  if (action.kind === "upload" && action.content !== undefined) {
    // The file's bytes are not the log's: its name (and the card's size) say what was sent.
    const { content: _bytes, ...named } = action;
    return named;
  }
  return loggableFields(action); // a fill_form's secret fields (policy-tools.ts)
}

/** What an entry is built from; every writer of the log (session, extension) goes through activityEntry. */
export interface ActivityInput {
  tab: string;
  tool: string;
  url: string;
  /** When the call started (default: now). */
  at?: Date;
  /** The action as asked; its text is masked here when the target is secret. */
  action?: AgentAction;
  target?: ActionTarget | null;
  /** The page said the target is secret (policy.ts), beyond what the agent saw of it. */
  secret?: boolean;
  decision?: Decision;
  outcome?: ActionOutcome;
  /** The call failed: outcome "error" with this message. */
  error?: string;
  urlAfter?: string;
  changes?: string[];
  followsHiddenText?: boolean;
}

/**
 * The one builder of an activity entry. Secrets typed earlier (SecretValues) are the caller's to
 * scrub from the whole entry; the text of a type action into a secret field is masked here.
 */
export function activityEntry(e: ActivityInput): ActivityEntry {
  return {
    format: ACTIVITY_FORMAT,
    at: (e.at ?? new Date()).toISOString(),
    tab: e.tab,
    tool: e.tool,
    url: e.url,
    ...(e.action ? { action: loggableAction(e.action, e.target, e.secret) } : {}),
    ...(e.target ? { target: e.target } : {}),
    ...(e.decision ? { decision: e.decision } : {}),
    ...(e.error !== undefined ? { outcome: "error" as const, error: e.error } : e.outcome ? { outcome: e.outcome } : {}),
    ...(e.urlAfter ? { url_after: e.urlAfter } : {}),
    ...(e.changes ? { changes: e.changes } : {}),
    ...(e.followsHiddenText !== undefined ? { follows_hidden_text: e.followsHiddenText } : {}),
  };
}

export function toJsonLines(entries: ActivityEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length ? "\n" : "");
}

/** Parses a log; throws with the line number on a line that is not an entry of this format. */
export function parseJsonLines(text: string): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1}: not JSON`);
    }
    const e = v as Partial<ActivityEntry>;
    if (!e || e.format !== ACTIVITY_FORMAT || typeof e.tool !== "string" || typeof e.url !== "string") {
      throw new Error(`line ${i + 1}: not a ${ACTIVITY_FORMAT} entry`);
    }
    out.push(e as ActivityEntry);
  });
  return out;
}
