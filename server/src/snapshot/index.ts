// /v1/snapshot's work: parse → validate → refine → render, on worker threads or inline.
export { inlineEngine, workerEngine, type SnapshotEngine, type WorkerSetup } from "./engine.js";
export { fromErrorData, runSnapshotJob, type SnapshotJob, type SnapshotOutcome, type RefineEngine } from "./job.js";
export { renderSnapshotBody, snapshotParts, type SnapshotParts } from "./render.js";
