// The rules of POST /v1/snapshot (spec 4.2) and the 2.8 response shape, over real HTTP.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SnapshotResponseSchema, type SnapshotResponse } from "@sightline/shared/contract";
import { refineSnapshot } from "@sightline/shared/refine";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { call, el, expectError, page } from "./http.js";

let sl: Sightline;
let key: string;
beforeAll(async () => {
  sl = await startSightline();
  key = await sl.createKey(1000);
});
afterAll(() => sl.close());

async function snapshot(body: unknown, k = key): Promise<SnapshotResponse> {
  const r = await call(sl.origin, "/v1/snapshot", { key: k, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return SnapshotResponseSchema.parse(r.body);
}

describe("spec 4.2", () => {
  test("rule 1: a success costs exactly 1 credit and says so", async () => {
    const k = await sl.createKey(10);
    const a = await snapshot(page(3), k);
    expect(a.credits_used).toBe(1);
    expect(a.credits_remaining).toBe(9);
    const b = await snapshot(page(3), k);
    expect(b.credits_remaining).toBe(8);
    expect(await sl.credits(k)).toBe(8);
  });

  test("the response has the 2.8 shape and echoes the url", async () => {
    const before = Date.now();
    const r = await snapshot(page(3));
    expect(r.status).toBe("success");
    expect(r.error).toBeNull();
    expect(r.url).toBe("https://shop.example/");
    expect(Date.parse(r.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(r.viewport).toEqual({ width: 1280, height: 800 });
    // Rule 5: ML reranking needs a goal; without one it never applies.
    expect(r.ml_rerank?.applied).toBe(false);
    expect(JSON.stringify(r)).not.toContain("screenshot");
  });

  test("Server-Timing says where the server's time went, stage by stage, readable from a browser origin", async () => {
    const r = await call(sl.origin, "/v1/snapshot", { key, body: page(400), headers: { origin: "chrome-extension://abc" } });
    expect(r.status).toBe(200);
    const stages = Object.fromEntries(
      (r.headers.get("server-timing") ?? "").split(", ").map((m) => {
        const [name, dur] = m.split(";dur=");
        return [name, Number(dur)];
      }),
    );
    expect(Object.keys(stages)).toEqual(["read", "handoff", "parse", "validate", "refine", "render", "charge"]);
    for (const ms of Object.values(stages)) expect(ms).toBeGreaterThanOrEqual(0);
    // 400 elements are parsed, checked and refined: that work takes measurable time.
    expect(stages.parse + stages.validate + stages.refine).toBeGreaterThan(0);
    expect(r.headers.get("access-control-expose-headers")).toContain("Server-Timing");
  });

  test("rule 2: without a viewport, the response viewport is derived from element bounds", async () => {
    const body = { url: "https://a.example/", raw_elements: [el(1, { rect: { x: 0, y: 0, width: 300, height: 40 } }), el(2, { rect: { x: 900, y: 500, width: 100, height: 100 } })] };
    const r = await snapshot(body);
    expect(r.viewport.width).toBeGreaterThanOrEqual(1000);
    expect(r.viewport.height).toBeGreaterThanOrEqual(600);
  });

  test("rule 3: limit defaults to 50", async () => {
    expect((await snapshot(page(120))).elements).toHaveLength(50);
  });

  test("rule 3: a limit below the cap is honoured, above the cap is reduced to 100", async () => {
    expect((await snapshot(page(120, { options: { limit: 7 } }))).elements).toHaveLength(7);
    expect((await snapshot(page(150, { options: { limit: 500 } }))).elements).toHaveLength(100);
  });

  test("rule 3: SIGHTLINE_SNAPSHOT_CAP sets the cap", async () => {
    const capped = await startSightline({ env: { SIGHTLINE_SNAPSHOT_CAP: "10" } });
    try {
      const k = await capped.createKey(5);
      const r = await call(capped.origin, "/v1/snapshot", { key: k, body: page(40, { options: { limit: 30 } }) });
      expect(r.status).toBe(200);
      expect((r.body.elements as unknown[]).length).toBe(10);
      const d = await call(capped.origin, "/v1/snapshot", { key: k, body: page(40) });
      expect((d.body.elements as unknown[]).length).toBe(10); // default 50 is capped too
    } finally {
      await capped.close();
    }
  });

  test("rule 4: elements come ordered by importance, highest first", async () => {
    const body = page(0, {
      raw_elements: [
        el(1, { tag: "div", text: "Some text" }),
        el(2, { tag: "a", text: "Footer link", attributes: { href: "/about" } }),
        el(3, { tag: "input", text: "", attributes: { input_type: "search", aria_label: "Search" } }),
        el(4, { tag: "h2", text: "Heading" }),
        el(5, { tag: "button", text: "Buy now" }),
      ],
    });
    const r = await snapshot(body);
    const scores = r.elements.map((e) => e.importance);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.elements[0].id).toBe(3); // a text input (high tier) beats links and buttons
  });

  test("with a goal, the goal's target comes first and ml_rerank says whether it applied", async () => {
    const links = Array.from({ length: 30 }, (_, i) => el(i + 10, { tag: "a", text: `Category ${i}`, attributes: { href: `/c/${i}` } }));
    const search = el(2, { tag: "input", text: "", attributes: { input_type: "search", placeholder: "Search products" }, rect: { x: 400, y: 700, width: 300, height: 36 } });
    const r = await snapshot(page(0, { raw_elements: [...links, search], goal: "search for shoes" }));
    expect(r.elements[0].id).toBe(2);
    expect(typeof r.ml_rerank?.applied).toBe("boolean");
    expect(r.elements[0].fused_rank_index).toBe(0);
  });

  test("a visible search box outranks a footer link; an occluded button loses to a visible one", async () => {
    const body = page(0, {
      raw_elements: [
        el(1, { tag: "a", text: "Privacy", attributes: { href: "/privacy" }, rect: { x: 20, y: 3000, width: 60, height: 16 }, in_viewport: false }),
        el(2, { tag: "input", text: "", attributes: { input_type: "search", placeholder: "Search" }, rect: { x: 400, y: 20, width: 300, height: 36 } }),
        el(3, { tag: "button", text: "Continue", is_occluded: true, rect: { x: 100, y: 300, width: 120, height: 40 } }),
        el(4, { tag: "button", text: "Continue", is_occluded: false, rect: { x: 100, y: 400, width: 120, height: 40 } }),
      ],
    });
    const ids = (await snapshot(body)).elements.map((e) => e.id);
    expect(ids.indexOf(2)).toBeLessThan(ids.indexOf(1));
    expect(ids.indexOf(4)).toBeLessThan(ids.indexOf(3));
  });

  test("the response is what the engine computes in process, plus the server's fields", async () => {
    const body = page(25, { goal: "buy" });
    const r = await snapshot(body);
    const local = refineSnapshot(body, { cap: 100, reranker: sl.server.reranker });
    expect(r.elements.map((e) => e.id)).toEqual(local.elements.map((e) => e.id));
    expect(r.viewport).toEqual(local.viewport);
  });
});

test("a refinement failure answers 500 in the error shape and charges nothing", async () => {
  const broken = await startSightline({
    refine: () => {
      throw new Error("boom");
    },
  });
  try {
    const k = await broken.createKey(3);
    const r = await call(broken.origin, "/v1/snapshot", { key: k, body: page(2) });
    const e = expectError(r, 500, "Internal error");
    expect(e.error).not.toContain("boom"); // internals are logged, not returned
    expect(e.credits_remaining).toBe(3);
    expect(await broken.credits(k)).toBe(3);
  } finally {
    await broken.close();
  }
});

test("GET /openapi.json documents both endpoints from the contract schemas", async () => {
  const r = await call(sl.origin, "/openapi.json");
  expect(r.status).toBe(200);
  const doc = r.body as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>; securitySchemes: Record<string, unknown> } };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/v1/snapshot", "/v1/observe", "/v1/screenshots/{id}", "/health"]));
  expect(Object.keys(doc.paths["/v1/snapshot"].post.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "402", "403", "413", "429"]));
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  const req = doc.components.schemas.SnapshotRequest;
  expect(req.required).toEqual(expect.arrayContaining(["url", "raw_elements"]));
  expect(Object.keys(doc.components.schemas.SnapshotResponse.properties ?? {})).toEqual(
    expect.arrayContaining(["status", "url", "timestamp", "viewport", "credits_used", "credits_remaining", "elements", "ml_rerank", "diagnostics", "modal_grids", "error"]),
  );
  expect(Object.keys(doc.components.schemas.RefinedElement.properties ?? {})).toContain("fused_rank_index");
});

test("an invalid request from a key with no credits is a 400, not a 402 (validation first)", async () => {
  const k = await sl.createKey(0);
  expectError(await call(sl.origin, "/v1/snapshot", { key: k, body: { url: "x" } }), 400, "Missing required field");
});
