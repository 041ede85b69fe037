// diagnostics: metrics, captcha passthrough, requires_vision, confidence reasons.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { DiagnosticsSchema } from "@sightline/shared/contract";
import { button, input, link, listingPage, raw, request } from "./factory.js";

const codes = (r: ReturnType<typeof refineSnapshot>) => r.diagnostics!.reasons.map((x) => x.code);

describe("diagnostics", () => {
  it("a healthy page: confidence 1, no reasons, metrics from the client plus counts", () => {
    const p = listingPage(10);
    const frameKid = button("In frame", { y: 500 });
    const frame = raw("iframe", { y: 400, width: 600, height: 300, iframe_content: [frameKid] });
    const r = refineSnapshot(request([...p.elements, frame], { client_metrics: { ready_state: "complete", quiet_ms: 800, node_count: 345 } }));
    const d = r.diagnostics!;
    expect(DiagnosticsSchema.safeParse(d).success).toBe(true);
    expect(d.confidence).toBe(1);
    expect(d.reasons).toEqual([]);
    expect(d.metrics).toEqual({ ready_state: "complete", quiet_ms: 800, node_count: 345, interactive_count: 13, raw_elements_count: 14 });
    expect(d.captcha).toBeNull();
    expect(d.requires_vision).toBe(false);
  });

  it("absent client metrics are null", () => {
    const m = refineSnapshot(request([button("A"), button("B"), button("C")])).diagnostics!.metrics;
    expect([m.ready_state, m.quiet_ms, m.node_count]).toEqual([null, null, null]);
  });

  it("passes the client's captcha through and lowers confidence", () => {
    const captcha = { detected: true, confidence: 0.9, evidence: { iframe_src_hits: ["https://www.google.com/recaptcha/api2/anchor"] } };
    const p = listingPage(5);
    const r = refineSnapshot(request(p.elements, { client_diagnostics: { captcha } }));
    expect(r.diagnostics!.captcha).toEqual(captcha);
    expect(codes(r)).toContain("captcha_detected");
    expect(r.diagnostics!.confidence).toBeLessThan(0.7);
  });

  it("flags a canvas-heavy page as requiring vision", () => {
    const r = refineSnapshot(request([raw("canvas", { width: 1280, height: 700 }), button("Play")]));
    expect(r.diagnostics!.requires_vision).toBe(true);
    expect(r.diagnostics!.requires_vision_reason).toMatch(/canvas/);
    expect(codes(r)).toContain("requires_vision");
    const imgs = refineSnapshot(request([
      raw("img", { width: 640, height: 800, attributes: { alt: "" } }), raw("img", { x: 640, width: 640, height: 800 }),
    ]));
    expect(imgs.diagnostics!.requires_vision).toBe(true);
    expect(refineSnapshot(request(listingPage(10).elements)).diagnostics!.requires_vision).toBe(false);
  });

  it("explains lower confidence with machine-readable reasons", () => {
    const r = refineSnapshot(request([link("Only")], { client_metrics: { ready_state: "loading", quiet_ms: 20, node_count: 10 } }));
    expect(codes(r)).toEqual(expect.arrayContaining(["page_not_ready", "dom_not_quiet", "few_interactive"]));
    for (const reason of r.diagnostics!.reasons) {
      expect(typeof reason.message).toBe("string");
      expect(reason.penalty).toBeGreaterThan(0);
    }
    expect(r.diagnostics!.confidence).toBeLessThan(0.6);
    const empty = refineSnapshot(request([]));
    expect(codes(empty)).toContain("no_elements");
    expect(empty.elements).toEqual([]);
  });

  it("reports mostly occluded pages", () => {
    const els = [0, 1, 2, 3].map((i) => button(`B${i}`, { y: i * 40, is_occluded: i > 0 }));
    expect(codes(refineSnapshot(request(els)))).toContain("mostly_occluded");
  });

  it("confidence stays within 0..1 when everything goes wrong", () => {
    const r = refineSnapshot(request([raw("canvas", { width: 1280, height: 800 })], {
      client_metrics: { ready_state: "loading", quiet_ms: 0 },
      client_diagnostics: { captcha: { detected: true, confidence: 1 } },
    }));
    expect(r.diagnostics!.confidence).toBeGreaterThanOrEqual(0);
    expect(r.diagnostics!.confidence).toBeLessThan(0.2);
    void input;
  });
});
