// Fuzzes /v1/snapshot with 10,000+ generated malformed bodies (wrong types, huge numbers,
// NaN-like strings, deep nesting, __proto__ keys, 100k elements, unicode, truncated JSON): never
// a 5xx, never a crash, every error in the 7.2 shape. Bodies are made from a fixed seed
// (reproducible). All 10,000 go through the route's own job in process (runSnapshotJob: parse →
// validate → refine → render, what a refinement worker runs) and their answers are rendered as
// the server renders them; every 20th, and the huge ones, also go over keep-alive loopback HTTP
// to the real server, which must answer the status the job predicted.
import { request, Agent } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ErrorBodySchema, ERROR_CODES, errorBody } from "@sightline/shared/contract";
import { refineSnapshot } from "@sightline/shared/refine";
import { fromErrorData, renderSnapshotBody, runSnapshotJob } from "../../server/src/snapshot/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";

let sl: Sightline;
let key: string;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
beforeAll(async () => {
  sl = await startSightline({ config: { bodyLimitBytes: 10 * 1024 * 1024 } });
  key = await sl.createKey(1_000_000);
});
afterAll(async () => {
  agent.destroy();
  await sl.close();
});

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(0x5eed);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const STRANGE_STRINGS = ["", "NaN", "Infinity", "-Infinity", "-0", "1e999", "0x1F", "null", "undefined", "true", " 12 ", "١٢٣", "💥🔥", "\u0000\u0001", "\ud800", "ｗｉｄｅ", "e\u0301", "<script>", "'; DROP TABLE x;--", "a".repeat(5000), "__proto__", "constructor"];
const STRANGE_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, -1e308, 1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, -0.0000001, [], [null], {}, { a: 1 }, ...STRANGE_STRINGS];

function validBody(n: number): Record<string, unknown> {
  return {
    url: "https://fuzz.example/",
    viewport: { width: 1280, height: 800 },
    // A goal sends valid-by-chance bodies through goal ranking, the costliest path: 1 in 10.
    ...(rnd() < 0.1 ? { goal: "search" } : {}),
    options: { limit: 10, filter: { min_area: 1, allowed_roles: ["button"] } },
    client_metrics: { ready_state: "complete", quiet_ms: 100, node_count: 50 },
    raw_elements: Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      tag: "button",
      text: `B${i}`,
      rect: { x: i, y: i * 10, width: 50, height: 20 },
      styles: { z_index: "1", cursor: "pointer" },
      attributes: { role: "button", aria_label: "x", checked: null },
      in_viewport: true,
      is_occluded: false,
    })),
  };
}

/** Every path to a leaf or container of `v`. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...prefix, Array.isArray(v) ? Number(k) : k], out);
  return out;
}
function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown, del = false): void {
  let cur = root as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) cur = cur[p] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (del) delete cur[last];
  else cur[last] = value;
}
function nest(depth: number, open: string, close: string, inner = "1"): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** One malformed body as the raw text to send. */
function malformed(): string {
  const kind = int(10);
  const base = validBody(1 + int(4));
  switch (kind) {
    case 0: // a wrong type or strange value somewhere
    case 1: {
      // two or three changes, so most bodies really are malformed (each valid one costs a refinement)
      for (let k = 2 + int(2); k > 0; k--) {
        const all = paths(base).filter((p) => p.length > 0);
        setAt(base, pick(all), pick(STRANGE_VALUES));
      }
      return JSON.stringify(base);
    }
    case 2: {
      // a required field removed, or a few fields removed
      const all = paths(base).filter((p) => p.length > 0);
      setAt(base, rnd() < 0.5 ? [pick(["url", "raw_elements"])] : pick(all), undefined, true);
      return JSON.stringify(base);
    }
    case 3: {
      // truncated JSON
      const text = JSON.stringify(base);
      return text.slice(0, 1 + int(text.length - 2));
    }
    case 4: // not an object at all, or garbage
      return pick(["null", "true", "0", "-1e999", '"str"', "[]", "[{}]", "NaN", "{", "}", "{{}}", "{'url':1}", "\u00ff\u00fe", "💥", "{\"url\":\"x\",}", "\ufeff{}", " ", "[".repeat(50), JSON.stringify("a".repeat(1000))]);
    case 5: {
      // deep nesting in several places
      const depth = pick([100, 1000, 5000, 20000]);
      const where = int(4);
      if (where === 0) return `{"url":"https://a.b","raw_elements":${nest(depth, "[", "]")}}`;
      if (where === 1) return `{"url":"https://a.b","raw_elements":[{"id":1,"rect":{"x":0,"y":0,"width":1,"height":1},"extra":${nest(depth, '{"a":', "}")}}]}`;
      if (where === 2) return `{"url":"https://a.b","raw_elements":[],"options":${nest(depth, '{"filter":', "}")}}`;
      let frames = '{"id":1,"rect":{"x":0,"y":0,"width":1,"height":1}}';
      for (let i = 0; i < Math.min(depth, 200); i++) frames = `{"id":${i + 2},"rect":{"x":0,"y":0,"width":1,"height":1},"iframe_content":[${frames}]}`;
      return `{"url":"https://a.b","raw_elements":[${frames}]}`;
    }
    case 6: {
      // prototype-pollution keys at the top, in an element, in attributes
      const k = pick(["__proto__", "constructor", "prototype"]);
      const payload = k === "constructor" ? '{"prototype":{"polluted":1}}' : '{"polluted":1}';
      return pick([
        `{"${k}":${payload},"url":"https://a.b","raw_elements":[]}`,
        `{"url":"https://a.b","raw_elements":[{"id":1,"rect":{"x":0,"y":0,"width":1,"height":1},"${k}":${payload}}]}`,
        `{"url":"https://a.b","raw_elements":[{"id":1,"rect":{"x":0,"y":0,"width":1,"height":1},"attributes":{"${k}":${payload}}}]}`,
      ]);
    }
    case 7: {
      // huge numbers and NaN-like strings where numbers belong
      const field = pick(["id", "x", "y", "width", "height", "limit", "vw", "vh", "min_area", "scroll_y"]);
      const val = pick(["1e400", "-1e400", "1e308", "-1e308", '"NaN"', '"Infinity"', "123456789012345678901234567890", "0.1e-400", '"12"', "-0"]);
      const el = { id: 1, rect: { x: 0, y: 0, width: 10, height: 10 }, scroll_y: 0 } as Record<string, unknown>;
      let text = JSON.stringify({ url: "https://a.b", viewport: { width: 100, height: 100 }, options: { limit: 5, filter: { min_area: 0 } }, raw_elements: [el] });
      const re = { id: /"id":1/, x: /"x":0/, y: /"y":0/, width: /"width":10/, height: /"height":10/, limit: /"limit":5/, vw: /"width":100/, vh: /"height":100/, min_area: /"min_area":0/, scroll_y: /"scroll_y":0/ }[field]!;
      text = text.replace(re, (m) => `${m.split(":")[0]}:${val}`);
      return text;
    }
    case 8: {
      // unicode everywhere: keys and values
      const s = () => pick(STRANGE_STRINGS) + String.fromCodePoint(int(0x10ffff));
      const body: Record<string, unknown> = { url: s(), raw_elements: [{ id: int(5), tag: s(), text: s(), rect: { x: 0, y: 0, width: 5, height: 5 }, [s()]: s(), attributes: { [s()]: s(), role: s() } }], goal: s(), [s()]: s() };
      if (rnd() < 0.7) setAt(body, [pick(["raw_elements", "url", "goal"])], pick(STRANGE_VALUES));
      return JSON.stringify(body);
    }
    default: {
      // one bad element hidden in a list
      const body = validBody(20 + int(200));
      const els = body.raw_elements as Record<string, unknown>[];
      els[int(els.length)] = pick<unknown>([null, 1, "el", [], {}, { id: 1 }, { id: 1, rect: null }, { id: 1, rect: { x: 0, y: 0, width: 1 } }, { id: 1, rect: { x: 0, y: 0, width: 1, height: 1 }, iframe_content: 5 }]) as Record<string, unknown>;
      return JSON.stringify(body);
    }
  }
}

/** A few huge bodies: 100k elements (valid and with one bad element), a near-limit string, an over-limit body. */
function huge(): { body: string; expect: number[] }[] {
  const els = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, rect: { x: 0, y: i, width: 1, height: 1 } }));
  const bad = els(100_000) as unknown[];
  bad[99_999] = { id: "x" };
  return [
    { body: JSON.stringify({ url: "https://a.b", raw_elements: els(100_000) }), expect: [400] }, // over the element cap
    { body: JSON.stringify({ url: "https://a.b", raw_elements: bad }), expect: [400] },
    { body: JSON.stringify({ url: "https://a.b", raw_elements: [], note: "é".repeat(4_500_000) }), expect: [200] },
    { body: JSON.stringify({ url: "https://a.b", raw_elements: [], note: "x".repeat(11 * 1024 * 1024) }), expect: [413] },
  ];
}

function send(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const buf = Buffer.from(body, "utf8");
    const req = request(
      `${sl.origin}/v1/snapshot`,
      { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": buf.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(buf);
  });
}

/** 5xx answers, kept to report them all at the end rather than stop at the first. */
const serverErrors: string[] = [];

function check(body: string, r: { status: number; text: string }, tally: Map<number, number>): void {
  tally.set(r.status, (tally.get(r.status) ?? 0) + 1);
  const where = `status ${r.status} for body ${body.slice(0, 300)} → ${r.text.slice(0, 200)}`;
  if (r.status >= 500) {
    serverErrors.push(where);
    return;
  }
  const parsed = JSON.parse(r.text) as Record<string, unknown>;
  if (r.status === 200) {
    expect(parsed.status, where).toBe("success");
    return;
  }
  const e = ErrorBodySchema.safeParse(parsed);
  expect(e.success, where).toBe(true);
  expect(ERROR_CODES[e.data!.error_code], where).toBe(r.status);
  expect(typeof e.data!.credits_remaining, where).toBe("number");
}

/** What the server answers a body that fits its body limit: the route's job, run here, and the
 *  body rendered the way routes/snapshot.ts and middleware/errors.ts render it. */
function answerInProcess(body: string): { status: number; text: string } {
  const config = sl.server.config;
  try {
    const outcome = runSnapshotJob(
      { body: Buffer.from(body, "utf8"), maxElements: config.maxRawElements, cap: config.snapshotCap },
      { refine: refineSnapshot, reranker: sl.server.reranker },
      () => undefined,
    );
    if (outcome.ok) return { status: 200, text: renderSnapshotBody(outcome, { timestamp: new Date().toISOString(), credits_remaining: 1 }) };
    if (outcome.stage === "failed") return { status: 500, text: outcome.message };
    const err = fromErrorData(outcome.error);
    return { status: err.status, text: JSON.stringify(errorBody(err, "snapshot", { credits_remaining: 1, request_id: "fuzz" })) };
  } catch (thrown) {
    return { status: 500, text: `the job threw: ${String(thrown)}` }; // the server would log a 500
  }
}

/** One body in SAMPLE also goes over HTTP. */
const SAMPLE = 20;

// Some generated bodies are valid by chance and reach the engine, so this needs the real one
// (refineSnapshot with the reranker the server loaded).
test("10,000 malformed bodies: never a 5xx, always the error shape, the server stays up", async () => {
  const N = 10_000;
  const tally = new Map<number, number>();
  const sampled: { body: string; status: number }[] = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const body = malformed();
    const r = answerInProcess(body);
    check(body, r, tally);
    if (i % SAMPLE === 0) sampled.push({ body, status: r.status });
  }
  expect(serverErrors.slice(0, 5), `${serverErrors.length} answers were 5xx`).toEqual([]);
  expect([...tally.values()].reduce((a, b) => a + b, 0)).toBe(N);
  expect(tally.get(400) ?? 0).toBeGreaterThan(N / 2); // most bodies are really malformed
  expect(({} as Record<string, unknown>).polluted).toBeUndefined(); // the parser ran in this process

  const t1 = performance.now();
  // Over HTTP: the sample answers as the job predicted, and the huge bodies.
  const httpTally = new Map<number, number>();
  const mismatches: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < sampled.length) {
      const { body, status } = sampled[next++];
      const r = await send(body);
      check(body, r, httpTally);
      if (r.status !== status) mismatches.push(`HTTP ${r.status}, in process ${status}: ${body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 12 }, worker));
  const t2 = performance.now();
  for (const h of huge()) {
    const r = await send(h.body).catch((err: Error) => ({ status: -1, text: err.message }));
    expect(h.expect, `${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
    check(h.body, r, httpTally);
  }
  const s = (a: number, b: number) => `${((b - a) / 1000).toFixed(1)} s`;
  console.log(
    `fuzz: ${N} bodies in process (${s(t0, t1)}), statuses ${JSON.stringify(Object.fromEntries(tally))}; ` +
      `${sampled.length} + 4 huge over HTTP (${s(t1, t2)} + ${s(t2, performance.now())}), statuses ${JSON.stringify(Object.fromEntries(httpTally))}`,
  );
  expect(serverErrors.slice(0, 5), `${serverErrors.length} answers were 5xx`).toEqual([]);
  expect(mismatches.slice(0, 5), `${mismatches.length} HTTP answers differ from the job's`).toEqual([]);
  expect([...httpTally.values()].reduce((a, b) => a + b, 0)).toBe(sampled.length + 4);
  // Nothing leaked into prototypes, and the server still serves.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((await fetch(`${sl.origin}/health`)).status).toBe(200);
}, 600_000);
