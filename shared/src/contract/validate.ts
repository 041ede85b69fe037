// Request validation: schema checks turned into the contract's error messages (7.1, 7.2).
import type { z } from "zod";
import { ContractError, ERROR_NAMES } from "./errors.js";
import { MAX_IFRAME_DEPTH } from "./limits.js";
import { compilePredicate } from "./predicate.js";
import { FilterSchema, ViewportSchema } from "./common.js";
import {
  ClientDiagnosticsSchema,
  ClientMetricsSchema,
  RawElementSchema,
  type RawElement,
  type SnapshotRequest,
} from "./snapshot.js";
import {
  CaptureSchema,
  OBSERVE_MODES,
  READ_FORMATS,
  RENDER_QUALITIES,
  SCREENSHOT_DELIVERIES,
  SCREENSHOT_FORMATS,
  type ObserveRequest,
} from "./observe.js";

const bad = (short: string, detail: string) => new ContractError("bad_request", short, `${short}: ${detail}`);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** First zod issue as "path: message", short enough for an error body. */
function describe(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (!issue) return prefix;
  const path = issue.path.reduce<string>(
    (acc, p) => (typeof p === "number" ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    prefix,
  );
  const msg = issue.code === "invalid_type" ? `expected ${issue.expected}` : issue.message;
  return `${path}: ${msg}`.slice(0, 300);
}

/** RawElementSchema's answer without its result objects; zod runs only to word a refusal. */
const isRawElement = compilePredicate(RawElementSchema);

function checkElements(list: unknown[], path: string, depth: number, limits: ValidationLimits, count: { n: number }): void {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isRawElement(item)) {
      const res = RawElementSchema.safeParse(item);
      if (!res.success) throw bad(ERROR_NAMES.invalidElement, describe(res.error, `${path}[${i}]`));
    }
    count.n++;
    if (count.n > limits.maxElements) {
      throw bad(ERROR_NAMES.invalidElement, `too many raw elements (more than ${limits.maxElements})`);
    }
    const frame = (item as RawElement).iframe_content;
    if (frame && frame.length) {
      if (depth >= MAX_IFRAME_DEPTH) {
        throw bad(ERROR_NAMES.invalidElement, `${path}[${i}].iframe_content nested deeper than ${MAX_IFRAME_DEPTH} frames`);
      }
      checkElements(frame, `${path}[${i}].iframe_content`, depth + 1, limits, count);
    }
  }
}

export interface ValidationLimits {
  /** Most raw elements (frames included) one request may carry. */
  maxElements: number;
}
export const DEFAULT_VALIDATION_LIMITS: ValidationLimits = { maxElements: 50_000 };

/**
 * Validates a parsed /v1/snapshot body. Returns it typed, or throws a ContractError whose
 * message starts with the contract's wording ("Missing required field", "Invalid element
 * format", "Invalid viewport dimensions"). The body is returned as-is (unknown fields kept).
 */
export function validateSnapshotRequest(body: unknown, limits: ValidationLimits = DEFAULT_VALIDATION_LIMITS): SnapshotRequest {
  if (!isPlainObject(body)) throw bad(ERROR_NAMES.invalidJson, "the body must be a JSON object");
  if (body.url === undefined || body.url === null) throw bad(ERROR_NAMES.missingField, "url");
  if (typeof body.url !== "string") throw bad(ERROR_NAMES.invalidField, "url must be a string");
  if (body.raw_elements === undefined || body.raw_elements === null) throw bad(ERROR_NAMES.missingField, "raw_elements");
  if (!Array.isArray(body.raw_elements)) throw bad(ERROR_NAMES.invalidElement, "raw_elements must be an array");

  if (body.viewport !== undefined && body.viewport !== null) {
    const v = ViewportSchema.safeParse(body.viewport);
    if (!v.success) throw bad(ERROR_NAMES.invalidViewport, "width and height must be positive numbers");
  }
  if (body.goal !== undefined && body.goal !== null && typeof body.goal !== "string") {
    throw bad(ERROR_NAMES.invalidField, "goal must be a string");
  }
  if (body.options !== undefined && body.options !== null) {
    const o = body.options;
    if (!isPlainObject(o)) throw bad(ERROR_NAMES.invalidOptions, "options must be an object");
    if (o.limit !== undefined && o.limit !== null) {
      if (typeof o.limit !== "number" || !Number.isInteger(o.limit) || o.limit < 1) {
        throw bad(ERROR_NAMES.invalidOptions, "limit must be a positive integer");
      }
    }
    if (o.filter !== undefined && o.filter !== null) {
      const f = FilterSchema.safeParse(o.filter);
      if (!f.success) throw bad(ERROR_NAMES.invalidOptions, describe(f.error, "filter"));
    }
  }
  if (body.client_metrics !== undefined && body.client_metrics !== null) {
    const m = ClientMetricsSchema.safeParse(body.client_metrics);
    if (!m.success) throw bad(ERROR_NAMES.invalidField, describe(m.error, "client_metrics"));
  }
  if (body.client_diagnostics !== undefined && body.client_diagnostics !== null) {
    const d = ClientDiagnosticsSchema.safeParse(body.client_diagnostics);
    if (!d.success) throw bad(ERROR_NAMES.invalidField, describe(d.error, "client_diagnostics"));
  }
  checkElements(body.raw_elements, "raw_elements", 0, limits, { n: 0 });
  return body as unknown as SnapshotRequest;
}

const isOneOf = <T extends string>(list: readonly T[], v: unknown): v is T =>
  typeof v === "string" && (list as readonly string[]).includes(v);

/** Parses an http(s) URL, or returns null. */
export function parseHttpUrl(raw: string): URL | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  return u.protocol === "http:" || u.protocol === "https:" ? u : null;
}

/** Validates a parsed /v1/observe body (7.1 error names). URL reachability is checked later. */
export function validateObserveRequest(body: unknown): ObserveRequest {
  if (!isPlainObject(body)) throw bad(ERROR_NAMES.invalidJson, "the body must be a JSON object");
  if (body.url === undefined || body.url === null || body.url === "") {
    throw new ContractError("bad_request", ERROR_NAMES.invalidUrl, "Invalid URL: url is required");
  }
  if (typeof body.url !== "string" || !parseHttpUrl(body.url)) {
    throw new ContractError("bad_request", ERROR_NAMES.invalidUrl, "Invalid URL: url must be an absolute http or https URL");
  }
  if (body.mode !== undefined && !isOneOf(OBSERVE_MODES, body.mode)) {
    throw new ContractError("bad_request", ERROR_NAMES.invalidMode, `Invalid mode: must be one of ${OBSERVE_MODES.join(", ")}`);
  }
  if (body.format !== undefined && !isOneOf(READ_FORMATS, body.format)) {
    throw new ContractError("bad_request", ERROR_NAMES.invalidFormat, `Invalid format: must be one of ${READ_FORMATS.join(", ")}`);
  }
  const o = body.options;
  if (o !== undefined && o !== null) {
    if (!isPlainObject(o)) throw bad(ERROR_NAMES.invalidOptions, "options must be an object");
    if (o.render_quality !== undefined && !isOneOf(RENDER_QUALITIES, o.render_quality)) {
      throw new ContractError(
        "bad_request",
        ERROR_NAMES.invalidRenderQuality,
        `Invalid render_quality: must be one of ${RENDER_QUALITIES.join(", ")}`,
      );
    }
    if (o.contentLimit !== undefined && (typeof o.contentLimit !== "number" || !Number.isInteger(o.contentLimit) || o.contentLimit < 0)) {
      throw bad(ERROR_NAMES.invalidOptions, "contentLimit must be a non-negative integer");
    }
    if (o.limit !== undefined && (typeof o.limit !== "number" || !Number.isInteger(o.limit) || o.limit < 1)) {
      throw bad(ERROR_NAMES.invalidOptions, "limit must be a positive integer");
    }
    if (o.filter !== undefined) {
      const f = FilterSchema.safeParse(o.filter);
      if (!f.success) throw bad(ERROR_NAMES.invalidOptions, describe(f.error, "filter"));
    }
    if (o.include_visual_cues !== undefined && typeof o.include_visual_cues !== "boolean") {
      throw bad(ERROR_NAMES.invalidOptions, "include_visual_cues must be a boolean");
    }
    if (o.screenshot_delivery !== undefined && !isOneOf(SCREENSHOT_DELIVERIES, o.screenshot_delivery)) {
      throw bad(ERROR_NAMES.invalidOptions, `screenshot_delivery must be one of ${SCREENSHOT_DELIVERIES.join(", ")}`);
    }
    if (o.screenshot_format !== undefined && !isOneOf(SCREENSHOT_FORMATS, o.screenshot_format)) {
      throw bad(ERROR_NAMES.invalidOptions, `screenshot_format must be one of ${SCREENSHOT_FORMATS.join(", ")}`);
    }
    if (o.screenshot_quality !== undefined) {
      const q = o.screenshot_quality;
      if (typeof q !== "number" || !Number.isInteger(q) || q < 1 || q > 100) throw bad(ERROR_NAMES.invalidOptions, "screenshot_quality must be an integer from 1 to 100");
      if (o.screenshot_format !== "jpeg") throw bad(ERROR_NAMES.invalidOptions, 'screenshot_quality applies only to screenshot_format "jpeg"');
    }
  }
  if (body.capture !== undefined && body.capture !== null) {
    // A capture from the extension carries thousands of raw elements: the compiled check takes
    // them (observe validates on the main thread), zod the rest, and all of it to word a refusal.
    const c = body.capture;
    const els = isPlainObject(c) ? c.raw_elements : undefined;
    const fast = Array.isArray(els) && els.every(isRawElement);
    const res = CaptureSchema.safeParse(fast ? { ...(c as Record<string, unknown>), raw_elements: [] } : c);
    if (!res.success) throw bad(ERROR_NAMES.invalidField, describe(res.error, "capture"));
  }
  return body as unknown as ObserveRequest;
}
