// A refinement worker thread (see engine.ts): runs snapshot jobs with the shared refinement
// engine and the rank model the server loaded.
import { parentPort, workerData } from "node:worker_threads";
import { refineSnapshot } from "@sightline/shared/refine";
import { rerankerFromModel } from "../rank-model.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./engine.js";
import { runCaptureCheck, runCaptureRefine, runSnapshotJob } from "./job.js";

const setup = workerData as WorkerSetup;
const port = parentPort!;
const engine = { refine: refineSnapshot, reranker: setup.rankModel == null ? null : rerankerFromModel(setup.rankModel) };

port.on("message", (msg: ToWorker) => {
  const { id } = msg;
  const outcome =
    msg.kind === "snapshot"
      ? runSnapshotJob(msg.job, engine, () => port.postMessage({ id, type: "valid" } satisfies FromWorker))
      : msg.kind === "check"
        ? runCaptureCheck(msg.source, msg.maxElements)
        : runCaptureRefine(msg.job, engine);
  port.postMessage({ id, type: "done", outcome } satisfies FromWorker);
});
