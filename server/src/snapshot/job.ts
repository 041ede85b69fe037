// One /v1/snapshot's CPU work, the same wherever it runs (a worker thread or, inline, the
// main thread): parse the body text → validate → (report "valid", so the caller can charge
// while we refine) → refine → render the body's parts. Pure apart from `onValid`.
// Also the same work for the page captures the extension sends over the bridge (an MCP
// session's snapshot): check one against the contract, refine one.
import { ContractError, validateSnapshotRequest, type ErrorCode, type RefineResult, type SnapshotRequest } from "@sightline/shared/contract";
import type { Reranker } from "@sightline/shared/rank";
import type { refineSnapshot } from "@sightline/shared/refine";
import { parseJsonText } from "../http/json.js";
import { snapshotParts, type JobTiming, type SnapshotParts } from "./render.js";

export type { JobTiming };

export interface SnapshotJob {
  /** The request body, unparsed: UTF-8 bytes (moved, not copied, to a worker) or text. */
  body: Uint8Array | string;
  /** Most raw elements accepted (SIGHTLINE_MAX_RAW_ELEMENTS). */
  maxElements: number;
  /** Server cap on options.limit (SIGHTLINE_SNAPSHOT_CAP). */
  cap: number;
}

/** What a job needs to refine. */
export interface RefineEngine {
  refine: typeof refineSnapshot;
  reranker: Reranker | null;
}

/** A ContractError as plain data (it crosses a thread boundary). */
export interface ContractErrorData {
  code: ErrorCode;
  short: string;
  message: string;
}

/** Where a job's time went, in ms (reported to callers as Server-Timing; see routes/snapshot.ts). */

export type SnapshotOutcome =
  | ({ ok: true; timing: JobTiming } & SnapshotParts)
  /** The body is not a valid request: a 4xx, never charged (onValid was not called). */
  | { ok: false; stage: "invalid"; error: ContractErrorData }
  /** Refinement (or the job itself) failed: a 500; a credit taken after onValid is refunded. */
  | { ok: false; stage: "failed"; message: string };

export const toErrorData = (err: ContractError): ContractErrorData => ({ code: err.code, short: err.short, message: err.message });
export const fromErrorData = (e: ContractErrorData): ContractError => new ContractError(e.code, e.short, e.message);

// Invalid sequences become U+FFFD and a leading BOM is dropped, as co-body's decoding does.
const utf8 = new TextDecoder("utf-8");

const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));

export function runSnapshotJob(job: SnapshotJob, engine: RefineEngine, onValid: () => void): SnapshotOutcome {
  const t0 = performance.now();
  let req, t1;
  try {
    const text = typeof job.body === "string" ? job.body : utf8.decode(job.body);
    const parsed = parseJsonText(text);
    t1 = performance.now();
    req = validateSnapshotRequest(parsed, { maxElements: job.maxElements });
  } catch (err) {
    if (err instanceof ContractError) return { ok: false, stage: "invalid", error: toErrorData(err) };
    return { ok: false, stage: "failed", message: describe(err) };
  }
  const t2 = performance.now();
  onValid();
  try {
    const t3 = performance.now();
    const refined = engine.refine(req, { cap: job.cap, reranker: engine.reranker });
    const t4 = performance.now();
    const parts = snapshotParts(req, refined);
    const timing = { parse: t1 - t0, validate: t2 - t1, refine: t4 - t3, render: performance.now() - t4, onValid: t3 - t2 };
    return { ok: true, timing, ...parts };
  } catch (err) {
    return { ok: false, stage: "failed", message: describe(err) };
  }
}

// ---- captures from the extension (MCP sessions over the bridge) -------------------------------

/**
 * A page capture to check or refine: the text of the bridge frame that carried it (a result
 * message, the capture is its `data`; parsed where the job runs, so a big capture is never
 * cloned between threads), or the capture itself.
 */
export type CaptureSource = { frame: string } | { request: unknown };

/** Refines a capture as an MCP tool call asks (goal, limit), after validating it. */
export interface CaptureRefineJob {
  source: CaptureSource;
  goal?: string;
  limit?: number;
  /** Server cap on the limit (SIGHTLINE_SNAPSHOT_CAP). */
  cap: number;
  /** Most raw elements accepted (SIGHTLINE_MAX_RAW_ELEMENTS). */
  maxElements: number;
}

/** What checking a capture found: it is a valid snapshot request, or why not. */
export type CaptureCheck = { ok: true } | { ok: false; stage: "invalid"; error: ContractErrorData } | { ok: false; stage: "failed"; message: string };

export type CaptureRefineOutcome =
  | { ok: true; result: RefineResult }
  | { ok: false; stage: "invalid"; error: ContractErrorData }
  | { ok: false; stage: "failed"; message: string };

function captureOf(source: CaptureSource, maxElements: number): SnapshotRequest {
  const raw = "frame" in source ? (parseJsonText(source.frame) as { data?: unknown } | null)?.data : source.request;
  return validateSnapshotRequest(raw, { maxElements });
}

function failure(err: unknown): { ok: false; stage: "invalid"; error: ContractErrorData } | { ok: false; stage: "failed"; message: string } {
  if (err instanceof ContractError) return { ok: false, stage: "invalid", error: toErrorData(err) };
  return { ok: false, stage: "failed", message: describe(err) };
}

/** Parses (from a frame) and validates a capture with the contract. */
export function runCaptureCheck(source: CaptureSource, maxElements: number): CaptureCheck {
  try {
    captureOf(source, maxElements);
    return { ok: true };
  } catch (err) {
    return failure(err);
  }
}

/** Validates and refines a capture. */
export function runCaptureRefine(job: CaptureRefineJob, engine: RefineEngine): CaptureRefineOutcome {
  let req: SnapshotRequest;
  try {
    req = captureOf(job.source, job.maxElements);
  } catch (err) {
    return failure(err);
  }
  try {
    const body: SnapshotRequest = { ...req, ...(job.goal ? { goal: job.goal } : {}), ...(job.limit ? { options: { limit: job.limit } } : {}) };
    return { ok: true, result: engine.refine(body, { cap: job.cap, reranker: engine.reranker }) };
  } catch (err) {
    return failure(err);
  }
}
