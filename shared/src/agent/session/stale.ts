// Stale ids, in one home: an id whose element is gone is answered, never guessed at. The page
// work (perform, the extension's approval step) says "stale" with staleError; the session turns
// it into the answer the agent gets, naming the current element most like the one that went
// (same role and name first, then same name, then same role nearest to where it was), for the
// agent to retry: never used for it.
import type { RefinedElement } from "../../contract/index.js";
import { formatElement } from "../../prompt/format.js";
import { AgentError } from "../core/errors.js";
import { compact, nameOf } from "./elements.js";

/** The element behind `id` is no longer on the page (said where the page is looked at). */
export function staleError(id: number): AgentError {
  return new AgentError("stale", `element [${id}] is no longer on the page`, { id });
}

export function isStale(err: unknown): err is AgentError {
  return err instanceof AgentError && err.code === "stale";
}

const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim().toLowerCase();
const label = (el: RefinedElement) => norm(el.name) || norm(el.text);

function distance(a: RefinedElement, b: RefinedElement): number {
  const ay = a.doc_y ?? a.center_y ?? a.bbox.y;
  const by = b.doc_y ?? b.center_y ?? b.bbox.y;
  return Math.hypot((a.center_x ?? a.bbox.x) - (b.center_x ?? b.bbox.x), ay - by);
}

export function closestElement(gone: RefinedElement, current: RefinedElement[]): RefinedElement | null {
  const others = current.filter((el) => el.id !== gone.id);
  const name = label(gone);
  const byDistance = (list: RefinedElement[]) => list.sort((a, b) => distance(gone, a) - distance(gone, b))[0] ?? null;
  if (name) {
    const same = others.filter((el) => el.role === gone.role && label(el) === name);
    if (same.length) return byDistance(same);
    const named = others.filter((el) => label(el) === name);
    if (named.length) return byDistance(named);
  }
  const role = others.filter((el) => el.role === gone.role && distance(gone, el) < 200);
  return byDistance(role);
}

/** What the agent is told when `gone` went stale: what it was, and the closest current element. */
export function staleAnswer(gone: RefinedElement, current: RefinedElement[]): AgentError {
  const near = closestElement(gone, current);
  const hint = near ? `; the closest current element is ${formatElement(near)}` : "; take a new snapshot";
  return new AgentError("stale", `element [${gone.id}] ${gone.role} "${nameOf(gone)}" is no longer on the page${hint}`, {
    id: gone.id,
    closest: near ? compact(near) : null,
  });
}
