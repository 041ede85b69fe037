// The HTTP client for /v1/snapshot and /v1/observe. Isomorphic: only fetch, AbortController
// and URL, so the same class runs in Node, in the browser extension and in a service worker.
import type { ObserveRequest, ObserveResponse, SnapshotRequest, SnapshotResponse } from "../contract/index.js";
// limits.js directly: the contract index loads zod, which a client does not need at run time.
import { CLIENT_DEFAULT_TIMEOUT_MS } from "../contract/limits.js";
import { SightlineError, SightlineNetworkError, SightlineTimeoutError } from "./errors.js";
import { DEFAULT_RETRY, RETRYABLE_STATUSES, parseRetryAfter, retryDelay, type RetryPolicy } from "./retry.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SightlineOptions {
  /** e.g. "http://127.0.0.1:8787" (a path prefix is kept: "https://host/api" → "https://host/api/v1/..."). */
  baseUrl: string;
  apiKey: string;
  /** Per-attempt timeout in ms. Default 30 000 (spec 8). */
  timeoutMs?: number;
  /** Retry policy for 429/503; `{ retries: 0 }` turns retries off. */
  retry?: Partial<RetryPolicy>;
  /** A fetch to use instead of the global one (e.g. bound to a worker's scope). */
  fetch?: FetchLike;
  /** Called before each wait-and-retry (to show progress). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The attempt that failed, 1-based. */
  attempt: number;
  status: number;
  /** Seconds the server asked for, if it said. */
  retryAfter: number | null;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
}

export interface CallOptions {
  /** Cancels the call (and any wait between retries). */
  signal?: AbortSignal;
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number;
}

interface ParsedBody {
  error?: unknown;
  message?: unknown;
  error_code?: unknown;
  credits_remaining?: unknown;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Node's fetch hides the socket error in `cause` (TypeError("fetch failed") → cause.code). */
function networkCode(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort);
  });
}

export class Sightline {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly #apiKey: string;
  readonly #fetch: FetchLike;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(opts: SightlineOptions) {
    if (!opts || typeof opts.baseUrl !== "string" || !opts.baseUrl) throw new TypeError("Sightline: baseUrl is required");
    if (typeof opts.apiKey !== "string") throw new TypeError("Sightline: apiKey must be a string");
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.#apiKey = opts.apiKey;
    this.timeoutMs = opts.timeoutMs ?? CLIENT_DEFAULT_TIMEOUT_MS;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#onRetry = opts.onRetry;
  }

  /** POST /v1/snapshot: raw elements in, ranked refined elements out (1 credit). */
  snapshot(body: SnapshotRequest, opts: CallOptions = {}): Promise<SnapshotResponse> {
    return this.#post<SnapshotResponse>("/v1/snapshot", body, opts);
  }

  /** POST /v1/observe (legacy): Markdown (read), elements (map) or screenshot + elements (visual). */
  observe(request: ObserveRequest, opts: CallOptions = {}): Promise<ObserveResponse> {
    return this.#post<ObserveResponse>("/v1/observe", request, opts);
  }

  async #post<T>(path: string, body: unknown, opts: CallOptions): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    const payload = JSON.stringify(body);
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const attempts = attempt + 1;
      const res = await this.#once(url, payload, timeoutMs, attempts, opts.signal);
      if (res.ok) return this.#parseSuccess<T>(res, attempts);
      const err = await this.#httpError(res, attempts);
      if (!RETRYABLE_STATUSES.has(res.status)) throw err;
      const wait = retryDelay(attempt, err.retryAfter, this.retry);
      if (wait === null) throw err;
      this.#onRetry?.({ attempt: attempts, status: res.status, retryAfter: err.retryAfter, delayMs: wait });
      try {
        await sleep(wait, opts.signal);
      } catch (reason) {
        throw this.#aborted(reason, attempts);
      }
    }
  }

  async #once(url: string, payload: string, timeoutMs: number, attempts: number, signal?: AbortSignal): Promise<Response> {
    if (signal?.aborted) throw this.#aborted(signal.reason, attempts - 1);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort);
    try {
      return await this.#fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${this.#apiKey}`,
        },
        body: payload,
        signal: controller.signal,
      });
    } catch (cause) {
      if (timedOut) {
        throw new SightlineTimeoutError(
          { message: `Sightline: no answer from ${url} within ${timeoutMs} ms`, attempts, cause },
          timeoutMs,
        );
      }
      if (signal?.aborted) throw this.#aborted(signal.reason, attempts);
      const code = networkCode(cause);
      throw new SightlineNetworkError({
        message: `Sightline: cannot reach ${this.baseUrl}${code ? ` (${code})` : ""}`,
        code,
        attempts,
        cause,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  async #readBody(res: Response): Promise<{ text: string; json: unknown }> {
    const text = await res.text();
    try {
      return { text, json: JSON.parse(text) as unknown };
    } catch {
      return { text, json: undefined };
    }
  }

  async #parseSuccess<T>(res: Response, attempts: number): Promise<T> {
    const { text, json } = await this.#readBody(res);
    if (!json || typeof json !== "object" || Array.isArray(json)) {
      throw new SightlineError({
        kind: "invalid_response",
        status: res.status,
        message: `Sightline: expected a JSON object, got ${JSON.stringify(text.slice(0, 80))}`,
        attempts,
      });
    }
    return json as T;
  }

  async #httpError(res: Response, attempts: number): Promise<SightlineError> {
    let body: ParsedBody = {};
    try {
      const { json } = await this.#readBody(res);
      if (json && typeof json === "object") body = json as ParsedBody;
    } catch {
      // The body could not be read (connection dropped); the status still says what happened.
    }
    const error = str(body.error);
    const detail = str(body.message) ?? error ?? res.statusText ?? "";
    return new SightlineError({
      kind: "http",
      status: res.status,
      error,
      error_code: str(body.error_code),
      credits_remaining: num(body.credits_remaining),
      retryAfter: parseRetryAfter(res.headers.get("retry-after")),
      message: `Sightline: HTTP ${res.status}${detail ? `: ${detail}` : ""}`,
      attempts,
    });
  }

  #aborted(reason: unknown, attempts: number): SightlineError {
    return new SightlineError({ kind: "aborted", message: "Sightline: request aborted", attempts, cause: reason });
  }
}
