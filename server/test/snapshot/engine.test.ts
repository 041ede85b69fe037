// The /v1/snapshot engines: the worker pool gives the same answer as the main thread, reports
// "valid" before refining (that is when the route charges), never reports it for a bad body,
// and a worker that dies fails only its own job (the next one gets a fresh worker).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test, vi } from "vitest";
import { SnapshotResponseSchema } from "@sightline/shared/contract";
import { refineSnapshot } from "@sightline/shared/refine";
import { createLogger } from "../../src/logger.js";
import { inlineEngine, renderSnapshotBody, workerEngine, type SnapshotEngine, type SnapshotOutcome } from "../../src/snapshot/index.js";

const logger = createLogger("silent");
const job = (body: unknown) => ({ body: typeof body === "string" ? body : JSON.stringify(body), maxElements: 1000, cap: 100 });
const els = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  tag: i % 3 === 0 ? "button" : "a",
  text: i === 41 ? "Search flights" : `item ${i}`,
  rect: { x: 10 + (i % 5) * 120, y: 20 + i * 30, width: 100, height: 24 },
}));
const request = { url: "https://a.example/", viewport: { width: 1280, height: 800 }, raw_elements: els, goal: "search flights" };

async function run(engine: SnapshotEngine, body: unknown): Promise<{ outcome: SnapshotOutcome; valid: number }> {
  let valid = 0;
  const outcome = await engine.run(job(body), () => void valid++);
  return { outcome, valid };
}

const workers = workerEngine({ size: 2, setup: { rankModel: null }, logger });
const inline = inlineEngine({ refine: refineSnapshot, reranker: null });
afterAll(() => workers.close());

describe("worker engine", () => {
  test("answers exactly as the main thread does, in the contract's response shape", async () => {
    const [w, i] = await Promise.all([run(workers, request), run(inline, request)]);
    expect(w.valid).toBe(1);
    if (!w.outcome.ok || !i.outcome.ok) throw new Error("expected success");
    const { timing, ...answer } = w.outcome;
    const { timing: _, ...inlineAnswer } = i.outcome;
    expect(answer).toEqual(inlineAnswer);
    // Timed where the work ran (the worker), every stage of it.
    expect(Object.keys(timing).sort()).toEqual(["onValid", "parse", "refine", "render", "validate"]);
    expect(timing.parse).toBeGreaterThan(0);
    expect(timing.refine).toBeGreaterThan(0);
    const body = JSON.parse(renderSnapshotBody(w.outcome, { timestamp: "2026-01-01T00:00:00.000Z", credits_remaining: 7 }));
    expect(SnapshotResponseSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ status: "success", credits_used: 1, credits_remaining: 7, url: "https://a.example/" });
    expect(body.elements[0].text).toBe("Search flights");
  });

  test("many concurrent jobs across the workers each get their own answer", async () => {
    const bodies = Array.from({ length: 24 }, (_, k) => ({ ...request, url: `https://a.example/${k}` }));
    const outs = await Promise.all(bodies.map((b) => run(workers, b)));
    outs.forEach(({ outcome }, k) => expect(outcome.ok && JSON.parse(outcome.url)).toBe(`https://a.example/${k}`));
  });

  test("bad bodies are contract errors and never reported valid", async () => {
    const cases: [unknown, RegExp][] = [
      ["{not json", /^Invalid JSON payload: /],
      ["42", /^Invalid JSON payload: invalid JSON, only supports object and array/],
      ['{"url":"https://a.example/","raw_elements":[],"__proto__":{"x":1}}', /^Invalid JSON payload: .*prototype/],
      [{ raw_elements: [] }, /^Missing required field/],
      [{ ...request, viewport: { width: -1, height: 5 } }, /^Invalid viewport dimensions/],
    ];
    for (const [body, message] of cases) {
      const { outcome, valid } = await run(workers, body);
      expect(valid).toBe(0);
      expect(outcome.ok === false && outcome.stage === "invalid" && outcome.error.message).toMatch(message);
    }
  });
});

describe("captures from the extension (MCP sessions)", () => {
  const frame = (data: unknown) => JSON.stringify({ type: "result", id: "c1", ok: true, data });
  test("a worker checks and refines a capture from its frame's text exactly as the main thread does", async () => {
    expect(await workers.check({ frame: frame(request) }, 1000)).toEqual({ ok: true });
    const job = { source: { frame: frame(request) }, goal: "search flights", limit: 5, cap: 100, maxElements: 1000 };
    const [w, i] = await Promise.all([workers.refine(job), inline.refine({ ...job, source: { request } })]);
    if (!w.ok || !i.ok) throw new Error("expected success");
    expect(w.result).toEqual(i.result);
    expect(w.result.elements).toHaveLength(5);
    expect(w.result.elements[0].text).toBe("Search flights");
  });

  test("refuses what is not a valid snapshot request, with the contract's wording, and never refines it", async () => {
    for (const engine of [workers, inline]) {
      expect(await engine.check({ frame: frame({ url: 5, raw_elements: "nope" }) }, 1000)).toMatchObject({
        ok: false,
        stage: "invalid",
        error: { message: "Invalid field: url must be a string" },
      });
      expect(await engine.refine({ source: { request: { url: "u", raw_elements: els } }, cap: 100, maxElements: 10 })).toMatchObject({
        ok: false,
        stage: "invalid",
        error: { message: expect.stringMatching(/too many raw elements \(more than 10\)/) },
      });
      expect(await engine.check({ frame: "{not json" }, 1000)).toMatchObject({ ok: false, stage: "invalid" });
    }
  });
});

test("a job's timing keeps the caller's onValid (inline: the credit charge) out of refinement", async () => {
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  // 400 ms of charging: counted in refine, it alone would exceed the bound (refining this
  // request takes a few ms, far under 400 even on a loaded machine).
  const outcome = await inline.run(job(request), () => busy(400));
  if (!outcome.ok) throw new Error("expected success");
  expect(outcome.timing.onValid).toBeGreaterThanOrEqual(400);
  expect(outcome.timing.refine).toBeLessThan(400);
});

test("warm() starts the workers before any job (npm start does, so first requests do not wait ~0.3 s)", async () => {
  const engine = workerEngine({ size: 2, setup: { rankModel: null }, logger });
  try {
    const threads = () => readdirSync("/proc/self/task").length; // worker threads are OS threads of this process
    const before = threads();
    engine.warm();
    await vi.waitFor(() => expect(threads()).toBeGreaterThanOrEqual(before + 2), { timeout: 10_000 });
  } finally {
    await engine.close();
  }
});

describe("a worker that dies", () => {
  const dir = mkdtempSync(join(tmpdir(), "sightline-worker-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A stand-in worker speaking the pool's protocol: exits on "crash", else echoes the body.
  const script = join(dir, "crashy.mjs");
  writeFileSync(
    script,
    `import { parentPort } from "node:worker_threads";
     parentPort.on("message", ({ id, job }) => {
       if (job.body === "crash") process.exit(3);
       parentPort.postMessage({ id, type: "done", outcome: { ok: true, url: JSON.stringify(job.body), viewport: "{}", rest: '"error":null' } });
     });`,
  );

  test("fails only its own job, and the next job runs on a fresh worker", async () => {
    const engine = workerEngine({ size: 1, setup: { rankModel: null }, logger, script: pathToFileURL(script) });
    try {
      const crashed = await engine.run(job("crash"), () => undefined);
      expect(crashed).toMatchObject({ ok: false, stage: "failed" });
      expect(await engine.run(job("again"), () => undefined)).toMatchObject({ ok: true, url: '"again"' });
    } finally {
      await engine.close();
    }
  });
});
