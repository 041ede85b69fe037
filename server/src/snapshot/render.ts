// The 2.8 success body of /v1/snapshot, rendered as JSON text in two steps: the refinement's
// parts (stringified where the refinement ran, possibly a worker thread) and the live fields
// the main thread knows only after charging (timestamp, credits_remaining). Joining strings
// saves cloning the refined elements between threads and stringifying them twice.
import { SNAPSHOT_CREDITS, type RefineResult, type SnapshotRequest, type SnapshotResponse } from "@sightline/shared/contract";

/** Where a snapshot job spent its time (ms), for Server-Timing. */
export interface JobTiming {
  /** UTF-8 decoding and JSON.parse of the body. */
  parse: number;
  validate: number;
  refine: number;
  /** JSON.stringify of the response's parts. */
  render: number;
  /** Spent in the caller's onValid (inline: the credit charge itself; on a worker: a message). */
  onValid: number;
}

/** JSON fragments of a success body (each valid JSON text, `rest` without its braces). */
export interface SnapshotParts {
  url: string;
  viewport: string;
  rest: string;
}

type Rest = Omit<SnapshotResponse, "status" | "url" | "timestamp" | "viewport" | "credits_used" | "credits_remaining">;

export function snapshotParts(req: SnapshotRequest, refined: RefineResult): SnapshotParts {
  const rest: Rest = {
    elements: refined.elements,
    dominant_group_key: refined.dominant_group_key,
    ml_rerank: refined.ml_rerank,
    diagnostics: refined.diagnostics,
    modal_detected: refined.modal_detected,
    modal_grids: refined.modal_grids,
    error: null,
  };
  return { url: JSON.stringify(req.url), viewport: JSON.stringify(refined.viewport), rest: JSON.stringify(rest).slice(1, -1) };
}

/** The whole body, fields in the contract's order. */
export function renderSnapshotBody(parts: SnapshotParts, live: { timestamp: string; credits_remaining: number }): string {
  return (
    `{"status":"success","url":${parts.url},"timestamp":${JSON.stringify(live.timestamp)},"viewport":${parts.viewport},` +
    `"credits_used":${SNAPSHOT_CREDITS},"credits_remaining":${live.credits_remaining},${parts.rest}}`
  );
}

/** Where a request's time went on the main thread, around its job (ms). */
export interface RequestTiming {
  /** Reading the body off the socket. */
  read: number;
  /** Waiting for a worker and the thread hand-offs (about 0 when the job ran inline). */
  handoff: number;
  /**
   * The credit charge on the request's path: inline, the charge itself (it runs before
   * refinement); on a worker, only the wait once the job was done (it overlaps refinement).
   */
  charge: number;
}

/**
 * The `Server-Timing` header (W3C Server Timing): a caller, browser devtools or the benchmark
 * sees where the server's time went, stage by stage, without server access.
 */
export function renderServerTiming(job: JobTiming, req: RequestTiming): string {
  const all = { read: req.read, handoff: req.handoff, parse: job.parse, validate: job.validate, refine: job.refine, render: job.render, charge: req.charge };
  return Object.entries(all)
    .map(([name, ms]) => `${name};dur=${Math.max(0, ms).toFixed(2)}`)
    .join(", ");
}
