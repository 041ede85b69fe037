// /v1/snapshot's work: parse → validate → refine → render, on worker threads or inline.
export { inlineEngine, workerEngine, type SnapshotEngine, type WorkerSetup } from "./engine.js";
export {
  fromErrorData,
  runSnapshotJob,
  type CaptureCheck,
  type CaptureRefineJob,
  type CaptureRefineOutcome,
  type CaptureSource,
  type JobTiming,
  type SnapshotJob,
  type SnapshotOutcome,
  type RefineEngine,
} from "./job.js";
export { renderServerTiming, renderSnapshotBody, snapshotParts, type RequestTiming, type SnapshotParts } from "./render.js";
