// Error bodies (spec 7.1, 7.2) and the status code of every error Sightline returns (7.3).
// This file is the one place that says which error goes with which status.
import { z } from "zod";

export const ERROR_CODES = {
  bad_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request's Host is not a name this server answers to (RFC 9110 15.5.20). */
  misdirected_request: 421,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  render_failed: 502,
  service_unavailable: 503,
  timeout: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Short names used as `error` on /v1/observe (7.1) and as message prefixes on /v1/snapshot (7.2). */
export const ERROR_NAMES = {
  invalidJson: "Invalid JSON payload",
  missingField: "Missing required field",
  invalidElement: "Invalid element format",
  invalidViewport: "Invalid viewport dimensions",
  invalidField: "Invalid field",
  invalidUrl: "Invalid URL",
  invalidMode: "Invalid mode",
  invalidRenderQuality: "Invalid render_quality",
  invalidFormat: "Invalid format",
  invalidOptions: "Invalid options",
  rateLimited: "Rate limit exceeded",
  insufficientCredits: "Insufficient credits",
  unauthorized: "Unauthorized",
  inactive: "Account inactive",
  notFound: "Not found",
  methodNotAllowed: "Method not allowed",
  misdirected: "Misdirected request",
  tooLarge: "Payload too large",
  unsupportedMediaType: "Unsupported media type",
  busy: "Service busy",
  renderFailed: "Render failed",
  timeout: "Render timeout",
  internal: "Internal error",
} as const;

/**
 * Every error response, on every endpoint. It is the union of 7.1 and 7.2: `error` is the
 * short name on observe and the full message on snapshot, `message` explains, `error_code` is
 * machine-readable, `credits_remaining` is present whenever the key was recognised.
 */
export const ErrorBodySchema = z.object({
  status: z.literal("error"),
  error: z.string(),
  message: z.string(),
  error_code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  credits_remaining: z.number().optional(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** A contract error that a validator or handler raises and the HTTP layer renders. */
export class ContractError extends Error {
  readonly code: ErrorCode;
  /** Short name (7.1 `error`), e.g. "Invalid URL". */
  readonly short: string;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, short: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = "ContractError";
    this.code = code;
    this.short = short;
    this.retryAfterSeconds = retryAfterSeconds;
  }
  get status(): number {
    return ERROR_CODES[this.code];
  }
}

/**
 * Renders a ContractError as the body of the endpoint that raised it. On /v1/snapshot (7.2)
 * `error` is the whole message ("Missing required field: url"); on /v1/observe and elsewhere
 * (7.1) `error` is the short name ("Invalid URL") and `message` explains.
 */
export function errorBody(
  err: ContractError,
  style: "snapshot" | "observe",
  extra: { credits_remaining?: number; request_id?: string } = {},
): ErrorBody {
  const body: ErrorBody = {
    status: "error",
    error: style === "snapshot" ? err.message : err.short,
    message: err.message,
    error_code: err.code,
  };
  if (extra.credits_remaining !== undefined) body.credits_remaining = extra.credits_remaining;
  if (extra.request_id !== undefined) body.request_id = extra.request_id;
  return body;
}
