// Exit codes scripts can rely on. Documented in the README (section "SDK and command line")
// and in `sightline --help`.
import { SightlineError, SightlineTimeoutError } from "../client/errors.js";

export const EXIT = {
  /** Success. */
  ok: 0,
  /** Unexpected failure (a bug): the message says what. */
  internal: 1,
  /** Bad command line: unknown command or flag, missing or invalid URL, bad number. */
  usage: 2,
  /** Authentication or credits: no key, 401 invalid key, 402 out of credits, 403 inactive account. */
  auth: 3,
  /** The server could not be reached (connection refused, DNS) or did not answer in time. */
  network: 4,
  /** The server failed: 5xx, or an answer that is not the contract's JSON. */
  server: 5,
  /** Still rate limited (429) after the client's retries. */
  rateLimited: 6,
  /** The server rejected the request (400, 404, 413...): e.g. a URL it cannot render. */
  rejected: 7,
  /** The local browser failed: Chromium missing, or the page did not load (snapshot command). */
  browser: 8,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_TABLE: [ExitCode, string][] = [
  [EXIT.ok, "success"],
  [EXIT.internal, "unexpected error"],
  [EXIT.usage, "usage error (unknown flag, missing or invalid URL or number)"],
  [EXIT.auth, "authentication or credits (no key, 401, 402, 403)"],
  [EXIT.network, "server unreachable or timed out"],
  [EXIT.server, "server error (5xx or malformed answer)"],
  [EXIT.rateLimited, "rate limited (429) after retries"],
  [EXIT.rejected, "request rejected (other 4xx, e.g. an unreachable page URL)"],
  [EXIT.browser, "local browser failed (Chromium missing, page did not load)"],
];

/** A failure with its message and exit code, raised by commands. */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

const secs = (n: number) => (n < 1 ? `${Math.round(n * 1000)} ms` : `${Math.round(n)} s`);

/** Turns any thrown value into a message a person can act on, and the exit code. */
export function describeFailure(err: unknown, baseUrl: string): { message: string; exitCode: ExitCode } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof SightlineError) {
    const detail = err.error && err.error !== err.message ? `: ${err.error}` : "";
    const credits = err.credits_remaining !== null ? ` (${err.credits_remaining} credits left)` : "";
    switch (err.kind) {
      case "network":
        return {
          message: `cannot reach Sightline at ${baseUrl}${err.code === "ECONNREFUSED" ? " (connection refused)" : err.code ? ` (${err.code})` : ""}. Is the server running? Start it with \`npm start\`, or point SIGHTLINE_BASE_URL at it.`,
          exitCode: EXIT.network,
        };
      case "timeout":
        return { message: `Sightline at ${baseUrl} did not answer within ${secs(err instanceof SightlineTimeoutError ? err.timeoutMs / 1000 : 0)}; try a larger --timeout.`, exitCode: EXIT.network };
      case "aborted":
        return { message: "cancelled", exitCode: EXIT.internal };
      case "invalid_response":
        return { message: `Sightline at ${baseUrl} sent an answer that is not the expected JSON (HTTP ${err.status}). Is SIGHTLINE_BASE_URL pointing at a Sightline server?`, exitCode: EXIT.server };
      case "http":
        break;
    }
    const s = err.status ?? 0;
    if (s === 401) return { message: `the API key was rejected (401${detail}). Set SIGHTLINE_API_KEY to a valid key (\`npm start\` prints a development key).`, exitCode: EXIT.auth };
    if (s === 402) return { message: `out of credits (402)${credits}. Top the account up, e.g. \`npm run admin -- set-credits <key> 1000\`.`, exitCode: EXIT.auth };
    if (s === 403) return { message: `the account of this API key is inactive (403${detail}).`, exitCode: EXIT.auth };
    if (s === 429) {
      const wait = err.retryAfter !== null ? ` Try again in ${secs(err.retryAfter)}.` : "";
      return { message: `rate limited (429) after ${err.attempts} attempt${err.attempts === 1 ? "" : "s"}.${wait}`, exitCode: EXIT.rateLimited };
    }
    if (s >= 500) return { message: `the server failed (${s}${detail}).`, exitCode: EXIT.server };
    // The body's `message` explains (e.g. why a URL is refused); the client put it in err.message.
    const why = err.message.replace(/^Sightline: HTTP \d+: /, "");
    return { message: `the server rejected the request (${s}${detail})${why && why !== err.error ? `: ${why}` : ""}.`, exitCode: EXIT.rejected };
  }
  const msg = err instanceof Error ? err.message : String(err);
  return { message: msg, exitCode: EXIT.internal };
}
