// diagnostics: metrics, captcha passthrough, requires_vision and a confidence score with
// machine-readable reasons. Confidence starts at 1 and each reason subtracts its penalty.
import type { Captcha, ClientMetrics, DiagnosticReason, Diagnostics } from "../contract/index.js";

/** Reason codes `diagnostics.reasons[].code` can carry, with their penalties. */
export const DIAGNOSTIC_PENALTIES = {
  no_elements: 0.6,
  captcha_detected: 0.4,
  requires_vision: 0.3,
  page_not_ready: 0.25,
  few_interactive: 0.15,
  mostly_occluded: 0.2,
  dom_not_quiet: 0.1,
  modal_open: 0.1,
  viewport_derived: 0,
} as const;
export type DiagnosticCode = keyof typeof DIAGNOSTIC_PENALTIES;

/**
 * quiet_ms below this means the DOM was still changing when collected. Kept low: collectors
 * start their mutation clock at injection, so a static page collected right away reports a
 * small quiet_ms too.
 */
const QUIET_MS_MIN = 100;
/** Fewer interactive elements than this is suspicious for a page with content. */
const FEW_INTERACTIVE = 3;
/** requires_vision: pictures cover at least this share of the viewport ... */
const VISION_COVERAGE = 0.5;
/** ... and at most this many interactive elements were found. */
const VISION_MAX_INTERACTIVE = 5;

export interface DiagnosticsInput {
  metrics: ClientMetrics | null | undefined;
  captcha: Captcha | null | undefined;
  rawCount: number;
  interactiveCount: number;
  /** Interactive elements inside the viewport, and how many of those are occluded. */
  interactiveInViewport: number;
  occludedInViewport: number;
  /** Summed viewport share (0..1, capped) of canvas / img / svg / video elements. */
  visualCoverage: number;
  /** Largest single canvas's viewport share. */
  canvasCoverage: number;
  modalCount: number;
  viewportDerived: boolean;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function buildDiagnostics(d: DiagnosticsInput): Diagnostics {
  const reasons: DiagnosticReason[] = [];
  const add = (code: DiagnosticCode, message: string, scale = 1) =>
    reasons.push({ code, message, penalty: Math.round(DIAGNOSTIC_PENALTIES[code] * scale * 100) / 100 });

  const m = d.metrics ?? null;
  const ready_state = typeof m?.ready_state === "string" ? m.ready_state : null;
  const quiet_ms = typeof m?.quiet_ms === "number" && Number.isFinite(m.quiet_ms) ? m.quiet_ms : null;
  const node_count = typeof m?.node_count === "number" && Number.isFinite(m.node_count) ? m.node_count : null;

  if (d.rawCount === 0) add("no_elements", "the request contained no raw elements");

  const captcha = d.captcha ?? null;
  if (captcha?.detected) {
    const c = typeof captcha.confidence === "number" ? Math.min(1, Math.max(0, captcha.confidence)) : 1;
    add("captcha_detected", `a captcha was detected (confidence ${c.toFixed(2)})`, Math.max(0.5, c));
  }

  let requires_vision = false;
  let requires_vision_reason: string | null = null;
  if (d.rawCount > 0 && d.interactiveCount <= VISION_MAX_INTERACTIVE) {
    if (d.canvasCoverage >= 0.4) {
      requires_vision = true;
      requires_vision_reason = `a canvas covers ${pct(d.canvasCoverage)} of the viewport and only ${d.interactiveCount} interactive element(s) were found`;
    } else if (d.visualCoverage >= VISION_COVERAGE) {
      requires_vision = true;
      requires_vision_reason = `images, canvas or SVG cover ${pct(d.visualCoverage)} of the viewport and only ${d.interactiveCount} interactive element(s) were found`;
    }
  }
  if (requires_vision) add("requires_vision", requires_vision_reason as string);

  if (ready_state !== null && ready_state !== "complete") {
    add("page_not_ready", `document.readyState was "${ready_state}"`, ready_state === "loading" ? 1 : 0.6);
  }
  if (quiet_ms !== null && quiet_ms < QUIET_MS_MIN) {
    add("dom_not_quiet", `the DOM changed ${Math.round(quiet_ms)} ms before collection`);
  }
  if (d.rawCount > 0 && d.interactiveCount < FEW_INTERACTIVE && !requires_vision) {
    add("few_interactive", `only ${d.interactiveCount} interactive element(s) found`);
  }
  if (d.interactiveInViewport >= 2 && d.occludedInViewport / d.interactiveInViewport > 0.5) {
    add("mostly_occluded", `${d.occludedInViewport} of ${d.interactiveInViewport} interactive elements in the viewport are covered by other elements`);
  }
  if (d.modalCount > 0) add("modal_open", `${d.modalCount} modal or overlay is open over the page`);
  if (d.viewportDerived) add("viewport_derived", "the viewport was not sent and was derived from element bounds");

  let confidence = 1;
  for (const r of reasons) confidence -= r.penalty;
  confidence = Math.round(Math.min(1, Math.max(0, confidence)) * 100) / 100;

  return {
    confidence,
    reasons,
    metrics: {
      ready_state,
      quiet_ms,
      node_count,
      interactive_count: d.interactiveCount,
      raw_elements_count: d.rawCount,
    },
    captcha,
    requires_vision,
    requires_vision_reason,
  };
}
