// Errors the client raises. One base class so callers can `catch (e) { if (e instanceof
// SightlineError) ... }` and switch on `kind`; subclasses for the two failures that never
// reach the server's error body (network, timeout), so `instanceof` works for them too.
import type { ErrorCode } from "../contract/index.js";

export type SightlineErrorKind =
  /** The server answered with a non-2xx status (its error body is parsed into the fields). */
  | "http"
  /** No HTTP answer: connection refused, DNS failure, reset... */
  | "network"
  /** No answer within `timeoutMs`. */
  | "timeout"
  /** The caller's AbortSignal fired. */
  | "aborted"
  /** A 2xx answer that is not the JSON the contract promises. */
  | "invalid_response";

export interface SightlineErrorInit {
  kind: SightlineErrorKind;
  message: string;
  status?: number | null;
  error?: string | null;
  error_code?: ErrorCode | string | null;
  credits_remaining?: number | null;
  retryAfter?: number | null;
  attempts?: number;
  code?: string | null;
  cause?: unknown;
}

export class SightlineError extends Error {
  readonly kind: SightlineErrorKind;
  /** HTTP status, or null when no HTTP answer came back. */
  readonly status: number | null;
  /** The body's `error` (short name on observe, whole message on snapshot). */
  readonly error: string | null;
  /** The body's machine-readable `error_code`, e.g. `insufficient_credits`. */
  readonly error_code: string | null;
  /** Credits left, when the server recognised the key. */
  readonly credits_remaining: number | null;
  /** Seconds the server asked us to wait (Retry-After), when it said. */
  readonly retryAfter: number | null;
  /** How many HTTP attempts were made (retries included). */
  readonly attempts: number;
  /** Low-level cause code for network errors (e.g. ECONNREFUSED), when the runtime gives one. */
  readonly code: string | null;

  constructor(init: SightlineErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "SightlineError";
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.error = init.error ?? null;
    this.error_code = init.error_code ?? null;
    this.credits_remaining = init.credits_remaining ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.attempts = init.attempts ?? 1;
    this.code = init.code ?? null;
  }

  /** True for 401 (bad or missing key). */
  get isUnauthorized(): boolean {
    return this.status === 401;
  }
  /** True for 402 (out of credits). */
  get isOutOfCredits(): boolean {
    return this.status === 402;
  }
  /** True for 429 (still rate limited after the retries). */
  get isRateLimited(): boolean {
    return this.status === 429;
  }
}

/** The server could not be reached (connection refused, DNS, reset before an answer). */
export class SightlineNetworkError extends SightlineError {
  constructor(init: Omit<SightlineErrorInit, "kind">) {
    super({ ...init, kind: "network" });
    this.name = "SightlineNetworkError";
  }
}

/** No answer within the client timeout. */
export class SightlineTimeoutError extends SightlineError {
  readonly timeoutMs: number;
  constructor(init: Omit<SightlineErrorInit, "kind">, timeoutMs: number) {
    super({ ...init, kind: "timeout" });
    this.name = "SightlineTimeoutError";
    this.timeoutMs = timeoutMs;
  }
}
