// Replaying an activity log: each recorded action again, on whatever page the session has.
// Element ids do not survive a reload, so a recorded target is found again by role and name;
// a value the log masked must be given by the person (`secrets`, keyed by the field's name).
import type { AgentAction } from "../core/actions.js";
import { AgentError } from "../core/errors.js";
import { MASK, type ActivityEntry } from "../core/activity.js";
import type { ActAnswer, AgentSession, CompactElement } from "./session.js";

const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim().toLowerCase();

/** Entries that changed the page and were let through: what a replay performs. */
export function replayable(entries: ActivityEntry[]): ActivityEntry[] {
  return entries.filter((e) => e.action && e.outcome !== "error" && e.decision?.verdict !== "rejected");
}

function find(elements: CompactElement[], target: NonNullable<ActivityEntry["target"]>): CompactElement | undefined {
  const name = norm(target.name);
  return (
    elements.find((el) => el.role === target.role && norm(el.name) === name) ??
    elements.find((el) => norm(el.name) === name && name !== "") ??
    elements.find((el) => el.role === target.role && name !== "" && norm(el.name).startsWith(name))
  );
}

export async function replayEntry(session: AgentSession, entry: ActivityEntry, secrets: Record<string, string> = {}): Promise<ActAnswer> {
  const recorded = entry.action;
  if (!recorded) throw new AgentError("bad_arguments", "this entry has no action");
  let action: AgentAction = recorded;
  if ("id" in recorded && recorded.id !== undefined && entry.target) {
    const snap = await session.snapshot(undefined, { limit: 100, token_budget: 20000 });
    const el = find(snap.elements, entry.target);
    if (!el) throw new AgentError("stale", `no ${entry.target.role} "${entry.target.name}" on ${snap.url} to ${entry.tool}`);
    action = { ...recorded, id: el.id } as AgentAction;
  }
  if (action.kind === "type" && action.text === MASK) {
    const name = entry.target?.name ?? "";
    const secret = Object.entries(secrets).find(([k]) => norm(k) === norm(name))?.[1];
    if (secret === undefined) throw new AgentError("bad_arguments", `the log masks what was typed into "${name}": give it with --secret "${name}=VALUE"`);
    action = { ...action, text: secret };
  }
  return session.act(undefined, action);
}
