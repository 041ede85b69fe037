// A refinement worker thread (see engine.ts): runs snapshot jobs with the shared refinement
// engine and the rank model the server loaded.
import { parentPort, workerData } from "node:worker_threads";
import { refineSnapshot } from "@sightline/shared/refine";
import { rerankerFromModel } from "../rank-model.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./engine.js";
import { runSnapshotJob } from "./job.js";

const setup = workerData as WorkerSetup;
const port = parentPort!;
const engine = { refine: refineSnapshot, reranker: setup.rankModel == null ? null : rerankerFromModel(setup.rankModel) };

port.on("message", ({ id, job }: ToWorker) => {
  const outcome = runSnapshotJob(job, engine, () => port.postMessage({ id, type: "valid" } satisfies FromWorker));
  port.postMessage({ id, type: "done", outcome } satisfies FromWorker);
});
