// The activity log: one entry per agent call, as JSON Lines a person can keep, read and replay
// (`sightline replay LOG`). Values typed into secret fields never enter it (the one rule of
// secrets.ts decides which fields are secret). Isomorphic: the server, the extension panel
// and the CLI write and read the same format.
import type { ActionOutcome, AgentAction, Decision } from "./actions.js";
import type { ActionTarget } from "./backend.js";
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

/** The action as it may be logged: text typed into a secret field (secrets.ts) replaced by MASK. */
export function loggableAction(action: AgentAction, target: ActionTarget | null | undefined): AgentAction {
  if (action.kind === "type" && isSecretTarget(target)) return { ...action, text: MASK };
  return action;
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
