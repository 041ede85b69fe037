// diff: what changed between two snapshots of the same page, matched by the collector's
// stable element ids (the same DOM node keeps its id across collections).
//
// Statuses (one per element, first that applies):
//   ADDED     id only in `current`.
//   REMOVED   id only in `previous`; the previous element is appended, marked REMOVED.
//   MODIFIED  role, text, name, value, input_type, href or a state (checked, disabled,
//             expanded, aria_*) differs, after collapsing whitespace.
//   MOVED     the element's centre moved more than MOVE_THRESHOLD_PX in document
//             coordinates (so scrolling alone is not a move), or its width or height
//             changed more than RESIZE_THRESHOLD_PX.
//   null      unchanged.
import type { DiffStatus, RefinedElement, SnapshotResponse } from "../contract/index.js";

/** Centre displacement, in CSS px, above which an element counts as MOVED. */
export const MOVE_THRESHOLD_PX = 8;
/** Width or height change, in CSS px, above which an element counts as MOVED. */
export const RESIZE_THRESHOLD_PX = 8;

export interface DiffSummary {
  added: number;
  removed: number;
  modified: number;
  moved: number;
  unchanged: number;
}

export type DiffSource = Pick<SnapshotResponse, "elements">;
export type DiffResult<T extends DiffSource> = T & { elements: RefinedElement[]; diff_summary: DiffSummary };

const norm = (v: string | null | undefined) => (v ?? "").replace(/\s+/g, " ").trim();

const COMPARED_TEXT = ["role", "text", "name", "value", "input_type", "href", "aria_checked", "aria_disabled", "aria_expanded"] as const;
const COMPARED_STATE = ["checked", "disabled", "expanded", "value_redacted"] as const;

function modified(a: RefinedElement, b: RefinedElement): boolean {
  for (const k of COMPARED_TEXT) if (norm(a[k]) !== norm(b[k])) return true;
  for (const k of COMPARED_STATE) if ((a[k] ?? null) !== (b[k] ?? null)) return true;
  return false;
}

/** Centre in document coordinates: doc_y already adds the scroll offset. */
function docCentre(el: RefinedElement): { x: number; y: number } {
  const x = el.center_x ?? el.bbox.x + el.bbox.width / 2;
  const y = el.doc_y ?? el.center_y ?? el.bbox.y + el.bbox.height / 2;
  return { x, y };
}

function moved(a: RefinedElement, b: RefinedElement): boolean {
  const p = docCentre(a);
  const q = docCentre(b);
  if (Math.hypot(p.x - q.x, p.y - q.y) > MOVE_THRESHOLD_PX) return true;
  return (
    Math.abs(a.bbox.width - b.bbox.width) > RESIZE_THRESHOLD_PX ||
    Math.abs(a.bbox.height - b.bbox.height) > RESIZE_THRESHOLD_PX
  );
}

/** The status of one element present in both snapshots. */
export function compareElements(previous: RefinedElement, current: RefinedElement): DiffStatus | null {
  if (modified(previous, current)) return "MODIFIED";
  if (moved(previous, current)) return "MOVED";
  return null;
}

/**
 * Returns `current` with every element's `diff_status` filled and the elements that
 * disappeared appended (from `previous`, marked REMOVED), plus counts in `diff_summary`.
 * Neither input is modified.
 */
export function diff<T extends DiffSource>(previous: DiffSource, current: T): DiffResult<T> {
  const before = new Map<number, RefinedElement>();
  for (const el of previous.elements ?? []) before.set(el.id, el);
  const summary: DiffSummary = { added: 0, removed: 0, modified: 0, moved: 0, unchanged: 0 };
  const seen = new Set<number>();
  const elements: RefinedElement[] = [];
  for (const el of current.elements ?? []) {
    seen.add(el.id);
    const old = before.get(el.id);
    const status: DiffStatus | null = old ? compareElements(old, el) : "ADDED";
    if (status === "ADDED") summary.added++;
    else if (status === "MODIFIED") summary.modified++;
    else if (status === "MOVED") summary.moved++;
    else summary.unchanged++;
    elements.push({ ...el, diff_status: status });
  }
  for (const el of previous.elements ?? []) {
    if (seen.has(el.id)) continue;
    summary.removed++;
    elements.push({ ...el, diff_status: "REMOVED" });
  }
  return { ...current, elements, diff_summary: summary };
}
