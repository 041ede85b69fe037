// Idempotency-Key (as payment APIs use it): a client that retries a charged request after a
// timeout or a lost response sends the same key, and gets the first attempt's answer (or its
// error) back instead of a second charge. Keys are per account and kept 24 h (ledger's
// IdempotencyStore, on both ledgers). Every request runs in a charge scope (ledger/charge-scope):
// a random charge key without the header, the claim's key with it, so a retry that re-runs a
// request whose first attempt died mid-way (server killed) is not charged for it again.
//
// What is kept: every answer except 429 (not run: the limit), 500 and 503 (not done: a fault
// or a full queue), which free the key so a retry runs the request again. A key sent again with
// a different request (method, path or body) is refused (400); one whose first request is still
// running elsewhere is waited for, up to WAIT_MS, then answered 503 with Retry-After.
import { createHash, randomUUID } from "node:crypto";
import { ContractError, ERROR_NAMES, type ErrorCode } from "@sightline/shared/contract";
import type { AppContext, AppMiddleware } from "../koa-types.js";
import { withChargeScope, type Ledger, type StoredAnswer } from "../ledger/index.js";

const HEADER = "idempotency-key";
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** Longest wait for the same key's request running elsewhere (a render's budget and then some). */
export const IDEMPOTENCY_WAIT_MS = 65_000;
const POLL_MS = 50;
const NOT_KEPT = new Set([429, 500, 503]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fingerprint(ctx: AppContext): string {
  const raw = ctx.state.bodyBytes ?? (ctx.request as { rawBody?: string }).rawBody ?? "";
  return createHash("sha256").update(`${ctx.method} ${ctx.path}\n`).update(raw).digest("hex");
}

/** The answer as it can be kept, or null for a streamed one (it is not kept: the key is freed). */
function capture(ctx: AppContext): StoredAnswer | null {
  const type = ctx.response.get("content-type");
  const headers: Record<string, string> = type ? { "content-type": String(type) } : {};
  const b: unknown = ctx.body;
  if (typeof b === "string") return { status: ctx.status, headers, body: b };
  if (Buffer.isBuffer(b)) return { status: ctx.status, headers, body: b.toString("base64"), base64: true };
  if (b == null) return { status: ctx.status, headers, body: "" };
  if (typeof (b as { pipe?: unknown }).pipe === "function") return null;
  return { status: ctx.status, headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify(b) };
}

function replay(ctx: AppContext, answer: StoredAnswer): void {
  ctx.set("Idempotent-Replayed", "true");
  if (answer.error) {
    const e = answer.error;
    throw new ContractError(e.code as ErrorCode, e.short, e.message, e.retryAfterSeconds);
  }
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.body = answer.base64 ? Buffer.from(answer.body, "base64") : answer.body;
}

export function idempotency({ ledger, waitMs = IDEMPOTENCY_WAIT_MS }: { ledger: Ledger; waitMs?: number }): AppMiddleware {
  return async (ctx, next) => {
    const requestId = ctx.state.requestId;
    const key = ctx.get(HEADER);
    const account = ctx.state.account;
    if (!key || !account) return withChargeScope({ key: randomUUID(), requestId }, next);
    if (!VALID_KEY.test(key)) {
      throw new ContractError("bad_request", ERROR_NAMES.invalidField, `${ERROR_NAMES.invalidField}: Idempotency-Key must be 1 to 255 visible ASCII characters`);
    }
    const fp = fingerprint(ctx);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim = await ledger.idempotency.claim(account.id, key, fp);
      if (claim.state === "claimed") {
        let answer: StoredAnswer | null = null;
        try {
          await withChargeScope({ key: `idem:${claim.generation}`, requestId }, next);
          answer = NOT_KEPT.has(ctx.status) ? null : capture(ctx);
        } catch (err) {
          if (err instanceof ContractError && !NOT_KEPT.has(err.status)) {
            answer = {
              status: err.status,
              headers: {},
              body: "",
              error: { code: err.code, short: err.short, message: err.message, ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}) },
            };
          }
          throw err;
        } finally {
          await claim.finish(answer).catch(() => undefined); // not kept: a retry runs it again
        }
        return;
      }
      if (claim.fingerprint !== fp) {
        throw new ContractError(
          "bad_request",
          ERROR_NAMES.invalidField,
          `${ERROR_NAMES.invalidField}: this Idempotency-Key was already used with a different request`,
        );
      }
      if (claim.state === "done") return replay(ctx, claim.answer);
      if (Date.now() > deadline) {
        throw new ContractError("service_unavailable", ERROR_NAMES.busy, `${ERROR_NAMES.busy}: the first request with this Idempotency-Key is still running`, 5);
      }
      await sleep(POLL_MS);
    }
  };
}
