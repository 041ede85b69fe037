// Where /v1/snapshot's CPU work runs, and that of the captures the extension sends over the
// bridge (MCP sessions). A pool of worker threads by default
// (SIGHTLINE_REFINE_WORKERS, one per core): parsing, validating and refining a big payload
// takes milliseconds of pure CPU, which on the main thread would stall every other request
// (and /v1/observe's browser orchestration), and one thread cannot use a second core.
// `inlineEngine` runs the same job on the main thread (SIGHTLINE_REFINE_WORKERS=0, and tests
// that inject a faulty refine function).
import { AsyncResource } from "node:async_hooks";
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import {
  runCaptureCheck,
  runCaptureRefine,
  runSnapshotJob,
  type CaptureCheck,
  type CaptureRefineJob,
  type CaptureRefineOutcome,
  type CaptureSource,
  type RefineEngine,
  type SnapshotJob,
  type SnapshotOutcome,
} from "./job.js";

export interface SnapshotEngine {
  /** Runs a job; `onValid` fires once the body has validated, before refinement. Never rejects. */
  run(job: SnapshotJob, onValid: () => void): Promise<SnapshotOutcome>;
  /** Checks a capture from the extension against the contract. Never rejects. */
  check(source: CaptureSource, maxElements: number): Promise<CaptureCheck>;
  /** Validates and refines a capture from the extension. Never rejects. */
  refine(job: CaptureRefineJob): Promise<CaptureRefineOutcome>;
  /** Starts what would otherwise start on first use (worker threads take ~0.3 s to load). */
  warm(): void;
  close(): Promise<void>;
}

export function inlineEngine(engine: RefineEngine): SnapshotEngine {
  return {
    run: async (job, onValid) => runSnapshotJob(job, engine, onValid),
    check: async (source, maxElements) => runCaptureCheck(source, maxElements),
    refine: async (job) => runCaptureRefine(job, engine),
    warm: () => undefined,
    close: async () => undefined,
  };
}

/** Messages between the pool and a worker (worker.ts). */
export type ToWorker =
  | { id: number; kind: "snapshot"; job: SnapshotJob }
  | { id: number; kind: "check"; source: CaptureSource; maxElements: number }
  | { id: number; kind: "refine"; job: CaptureRefineJob };
export type FromWorker = { id: number; type: "valid" } | { id: number; type: "done"; outcome: SnapshotOutcome | CaptureCheck | CaptureRefineOutcome };

/** What a worker needs to build its engine: the rank model JSON the server loaded, or null. */
export interface WorkerSetup {
  rankModel: unknown;
}

interface Pending {
  onValid: () => void;
  resolve: (o: SnapshotOutcome | CaptureCheck | CaptureRefineOutcome) => void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Pending>;
}

/** The built worker script. From TypeScript sources (vitest) that is the build's copy. */
function workerScript(): URL {
  const sibling = new URL("./worker.js", import.meta.url);
  return existsSync(sibling) ? sibling : new URL("../../dist/snapshot/worker.js", import.meta.url);
}

/**
 * Bytes that own their whole ArrayBuffer can be moved to the worker instead of copied. A
 * Buffer that shares Node's small-allocation pool must not be (it would detach the pool):
 * those are copied into their own buffer first.
 */
function movable(body: Uint8Array | string): Uint8Array | string {
  if (typeof body === "string" || (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength)) return body;
  return new Uint8Array(body);
}
function transferList(body: Uint8Array | string): ArrayBuffer[] {
  return typeof body === "string" || !(body.buffer instanceof ArrayBuffer) ? [] : [body.buffer];
}

export function workerEngine(opts: { size: number; setup: WorkerSetup; logger: Logger; script?: URL }): SnapshotEngine {
  const script = opts.script ?? workerScript();
  const slots: (Slot | null)[] = Array.from({ length: opts.size }, () => null);
  let nextId = 1;
  let closed = false;

  // A worker that dies (a crash, an out-of-memory payload) fails only its own jobs; the next
  // job starts a fresh one.
  const spawn = (i: number): Slot => {
    const worker = new Worker(script, { workerData: opts.setup });
    const slot: Slot = { worker, jobs: new Map() };
    const fail = (why: string) => {
      if (slots[i] === slot) slots[i] = null;
      for (const p of slot.jobs.values()) p.resolve({ ok: false, stage: "failed", message: `refinement worker ${why}` });
      slot.jobs.clear();
    };
    worker.on("message", (msg: FromWorker) => {
      const p = slot.jobs.get(msg.id);
      if (!p) return;
      if (msg.type === "valid") return p.onValid();
      slot.jobs.delete(msg.id);
      p.resolve(msg.outcome);
    });
    worker.on("error", (err) => {
      opts.logger.error({ err }, "refinement worker failed");
      fail(`failed: ${err.message}`);
    });
    worker.on("exit", (code) => fail(`exited (${code})`));
    // Idle workers must not keep a stopping process alive.
    worker.unref();
    return slot;
  };

  // Least-busy worker; workers start on first use.
  const pick = (): Slot => {
    let best = -1;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s === null) {
        slots[i] = spawn(i);
        return slots[i]!;
      }
      if (best < 0 || s.jobs.size < slots[best]!.jobs.size) best = i;
    }
    return slots[best]!;
  };

  /** Sends one message to the least busy worker; resolves with its outcome. */
  const post = <O>(message: (id: number) => ToWorker, transfer: ArrayBuffer[] = [], onValid: () => void = () => undefined): Promise<O> => {
    if (closed) return Promise.resolve({ ok: false, stage: "failed", message: "the server is stopping" } as O);
    const slot = pick();
    const id = nextId++;
    return new Promise<O>((resolve) => {
      slot.jobs.set(id, { onValid, resolve: resolve as Pending["resolve"] });
      slot.worker.postMessage(message(id), transfer);
    });
  };

  return {
    run(job, onValid) {
      const body = movable(job.body);
      // Bound to the request's async context: the charge it makes is keyed by the request.
      return post<SnapshotOutcome>((id) => ({ id, kind: "snapshot", job: { ...job, body } }), transferList(body), AsyncResource.bind(onValid));
    },
    // A frame's text is copied to the worker (a string copy, not a structured clone of a
    // 50,000-element object graph: ~5 ms against ~300 ms on the main thread, measured).
    check: (source, maxElements) => post<CaptureCheck>((id) => ({ id, kind: "check", source, maxElements })),
    refine: (job) => post<CaptureRefineOutcome>((id) => ({ id, kind: "refine", job })),
    warm() {
      if (closed) return;
      for (let i = 0; i < slots.length; i++) slots[i] ??= spawn(i);
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s?.worker.terminate()));
    },
  };
}
