// The compiled raw-element check must answer exactly what zod answers: it decides alone
// whether a snapshot body's elements are valid (zod only words the refusal).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RawElementSchema, validateObserveRequest, validateSnapshotRequest } from "@sightline/shared/contract";
import { compilePredicate, predicateSource } from "../../src/contract/predicate.js";

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296;
  };
}

// Values JSON can carry, plus the in-process ones (undefined, NaN, ±Infinity) a local caller can pass.
const ODD: unknown[] = [
  undefined, null, true, false, 0, -0, 1, -1.5, 1e308, NaN, Infinity, -Infinity, "", "x", "12", "null", "true",
  [], [1], ["a"], {}, { x: 1 }, { x: 1, y: 2, width: 3, height: 4 }, { x: "1", y: 2, width: 3, height: 4 }, { x: 1, y: 2, width: 3 },
  [{ id: 1, rect: { x: 0, y: 0, width: 1, height: 1 } }], [{ id: "1" }], new Date(0),
];

function validElement(r: () => number): Record<string, unknown> {
  return {
    id: Math.floor(r() * 1000),
    tag: "a",
    rect: { x: r() * 100, y: r() * 100, width: 10, height: 10, extra: "kept" },
    styles: { z_index: r() < 0.5 ? "auto" : 3, cursor: "pointer", font_weight: 700, opacity: "1", custom: [1] },
    attributes: { href: "/x", role: null, checked: true, disabled: 0, nearby_text: "near", data_foo: { deep: 1 } },
    text: "Buy",
    in_viewport: true,
    is_occluded: false,
    iframe_content: r() < 0.2 ? [{ anything: 1 }] : null,
    scroll_y: 0,
    center_x: 5,
    group_key: "g",
    unknown_extra: "tolerated",
  };
}

/** One random change somewhere in a valid element: a field set to an odd value, or deleted. */
function mutate(el: Record<string, unknown>, r: () => number): unknown {
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const odd = pick(ODD);
  const where = r();
  if (where < 0.05) return odd; // the element itself
  const nested = pick(["rect", "styles", "attributes", null, null]);
  const target = nested && typeof el[nested] === "object" && el[nested] !== null ? (el[nested] as Record<string, unknown>) : el;
  const key = pick([...Object.keys(target), "id", "text", "z_index", "x", "role", "brand_new"]);
  if (r() < 0.15) delete target[key];
  else target[key] = odd;
  return el;
}

describe("compilePredicate", () => {
  it("agrees with RawElementSchema.safeParse on 20,000 generated elements, valid and not", () => {
    const check = compilePredicate(RawElementSchema);
    const r = rng(7);
    let yes = 0;
    let no = 0;
    for (let i = 0; i < 20_000; i++) {
      let v: unknown = validElement(r);
      const changes = Math.floor(r() * 3); // 0: valid as generated; 1–2 changes
      for (let c = 0; c < changes && typeof v === "object" && v !== null && !Array.isArray(v); c++) v = mutate(v as Record<string, unknown>, r);
      const zod = RawElementSchema.safeParse(v).success;
      if (check(v) !== zod) throw new Error(`disagree (zod ${zod}) on ${JSON.stringify(v)}`);
      if (zod) yes++;
      else no++;
    }
    // Both answers well represented, or the agreement would prove little.
    expect(yes).toBeGreaterThan(5_000);
    expect(no).toBeGreaterThan(5_000);
  }, 30_000); // 20,000 schema parses: seconds on a loaded 2-core machine

  it("refuses to compile what it cannot check exactly (a refinement, a bound, a strict object)", () => {
    expect(() => compilePredicate(z.number().refine((n) => n > 1))).toThrow(/checks/);
    expect(() => compilePredicate(z.object({ a: z.string().min(2) }))).toThrow(/checks/);
    expect(() => compilePredicate(z.strictObject({ a: z.string() }))).toThrow(/catchall/);
    expect(() => compilePredicate(z.enum(["a", "b"]))).toThrow(/not supported/);
  });

  it("embeds field names as string literals, never as code", () => {
    const src = predicateSource(z.looseObject({ 'a"]; throw 1; //': z.string() }));
    const check = compilePredicate(z.looseObject({ 'a"]; throw 1; //': z.string() }));
    expect(src).toContain(JSON.stringify('a"]; throw 1; //'));
    expect(check({ 'a"]; throw 1; //': "ok" })).toBe(true);
    expect(check({})).toBe(false);
  });

  it("leaves the wording of a refusal to zod", () => {
    const body = { url: "https://x.test", raw_elements: [{ id: 1, rect: { x: 0, y: 0, width: 1, height: 1 } }, { id: 2, rect: { x: 0, y: "0", width: 1, height: 1 } }] };
    expect(() => validateSnapshotRequest(body)).toThrow("Invalid element format: raw_elements[1].rect.y: expected number");
    expect(() => validateSnapshotRequest({ ...body, raw_elements: [{ id: 1e400, rect: { x: 0, y: 0, width: 1, height: 1 } }] })).toThrow(/raw_elements\[0\]\.id/);
  });
});

describe("validateObserveRequest capture", () => {
  const el = (id: number) => ({ id, tag: "a", text: `link ${id}`, rect: { x: 0, y: id * 20, width: 100, height: 18 } });
  it("accepts thousands of raw elements and still words a bad one (or a bad field beside them) as zod does", () => {
    const raw_elements = Array.from({ length: 5_000 }, (_, i) => el(i + 1));
    const body = { url: "https://intranet.example/", mode: "map", capture: { raw_elements, title: "t" } };
    expect(validateObserveRequest(body)).toBe(body);
    const bad = { ...body, capture: { raw_elements: [...raw_elements.slice(0, 3), { id: "4", rect: el(4).rect }] } };
    expect(() => validateObserveRequest(bad)).toThrow("Invalid field: capture.raw_elements[3].id: expected number");
    expect(() => validateObserveRequest({ ...body, capture: { raw_elements, title: 5 } })).toThrow("Invalid field: capture.title: expected string");
    expect(() => validateObserveRequest({ ...body, capture: { raw_elements: "x" } })).toThrow(/^Invalid field: capture\.raw_elements: expected array/);
  });
});
