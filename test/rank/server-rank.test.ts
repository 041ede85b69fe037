// The server loads the committed reranker at start and applies it to goal requests; switched off
// or with a broken model file, goal ranking stays heuristic and requests still succeed.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSightline, type Sightline } from "../support/sightline-server.js";

const page = {
  url: "https://shop.test/",
  viewport: { width: 1280, height: 900 },
  goal: "search for running shoes",
  raw_elements: [
    ...Array.from({ length: 12 }, (_, i) => ({ id: i + 1, tag: "a", text: `Category ${i}`, rect: { x: 10, y: 100 + i * 30, width: 120, height: 20 }, attributes: { href: `/c/${i}` } })),
    { id: 50, tag: "input", text: "", rect: { x: 400, y: 20, width: 300, height: 32 }, attributes: { input_type: "search", placeholder: "Search products", name: "q" } },
    { id: 51, tag: "button", text: "Go", rect: { x: 710, y: 20, width: 40, height: 32 }, attributes: {} },
    { id: 60, tag: "a", text: "Shoes", rect: { x: 10, y: 500, width: 80, height: 20 }, attributes: { href: "/shoes" } },
  ],
};

async function snapshot(sl: Sightline, key: string) {
  const res = await fetch(`${sl.origin}/v1/snapshot`, { method: "POST", headers: sl.headers(key), body: JSON.stringify(page) });
  expect(res.status).toBe(200);
  return (await res.json()) as { elements: { id: number; ml_probability: number | null; ml_score: number | null; heuristic_index: number | null; fused_rank_index: number | null; importance: number }[]; ml_rerank: Record<string, unknown> };
}

describe("goal reranker in the server", () => {
  let dir: string;
  const servers: Sightline[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-rank-"));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  test("loads the committed model by default and applies it", async () => {
    const sl = await startSightline({ env: {} });
    servers.push(sl);
    expect(sl.server.reranker).not.toBeNull();
    const r = await snapshot(sl, await sl.createKey(2));
    expect(r.ml_rerank).toMatchObject({ enabled: true, applied: true, reason: "applied", error: null, candidate_count: 15 });
    expect(r.elements[0].id).toBe(50);
    let total = 0;
    r.elements.forEach((e, i) => {
      expect(e.fused_rank_index).toBe(i);
      expect(typeof e.heuristic_index).toBe("number");
      expect(typeof e.ml_score).toBe("number");
      total += e.ml_probability!;
      if (i > 0) expect(e.importance).toBeLessThanOrEqual(r.elements[i - 1].importance);
    });
    expect(total).toBeCloseTo(1, 3);
  });

  test("SIGHTLINE_ML_RERANK=0 keeps the heuristic order", async () => {
    const sl = await startSightline({ env: { SIGHTLINE_ML_RERANK: "0" } });
    servers.push(sl);
    const r = await snapshot(sl, await sl.createKey(2));
    expect(r.ml_rerank).toMatchObject({ enabled: false, applied: false, reason: "disabled" });
    expect(r.elements[0].id).toBe(50);
    expect(r.elements.every((e) => e.ml_probability === null && e.heuristic_index === e.fused_rank_index)).toBe(true);
  });

  test("a broken model file never fails a request", async () => {
    const bad = join(dir, "bad-model.json");
    await writeFile(bad, '{"format":"sightline-rank-linear/1","features":["nope"]');
    const sl = await startSightline({ env: { SIGHTLINE_RANK_MODEL: bad } });
    servers.push(sl);
    expect(sl.server.reranker).toBeNull();
    const r = await snapshot(sl, await sl.createKey(2));
    expect(r.ml_rerank).toMatchObject({ applied: false });
    expect(r.elements[0].id).toBe(50);
  });
});
