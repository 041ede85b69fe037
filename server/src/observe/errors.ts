// Failures around rendering → contract errors (7.1 names, 7.3 statuses). Every one of them is
// raised before the reservation is committed, so a failed render charges nothing.
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import { BrowserCrashedError, NavigationError, PoolBusyError, PoolClosedError, RenderTimeoutError } from "../browser/index.js";
import { EgressRefusal } from "@sightline/shared/net";

const POLICY_HINT = "private, loopback, link-local and metadata addresses are not observed (an operator can allow hosts with SIGHTLINE_ALLOW_PRIVATE_HOSTS)";

export function invalidUrl(detail: string): ContractError {
  return new ContractError("bad_request", ERROR_NAMES.invalidUrl, `${ERROR_NAMES.invalidUrl}: ${detail}`);
}

export function toContractError(err: unknown): ContractError | null {
  if (err instanceof ContractError) return err;
  if (err instanceof EgressRefusal) {
    if (err.reason === "private") return invalidUrl(`${err.message}; ${POLICY_HINT}`);
    return invalidUrl(err.message);
  }
  if (err instanceof NavigationError) return invalidUrl(err.message);
  if (err instanceof PoolBusyError) {
    return new ContractError("service_unavailable", ERROR_NAMES.busy, `${ERROR_NAMES.busy}: ${err.message}; no credits were charged, try again shortly`, err.retryAfterSeconds);
  }
  if (err instanceof PoolClosedError) {
    return new ContractError("service_unavailable", ERROR_NAMES.busy, `${ERROR_NAMES.busy}: ${err.message}`, 5);
  }
  if (err instanceof RenderTimeoutError) {
    return new ContractError("timeout", ERROR_NAMES.timeout, `${ERROR_NAMES.timeout}: ${err.message}; no credits were charged`);
  }
  if (err instanceof BrowserCrashedError) {
    return new ContractError("render_failed", ERROR_NAMES.renderFailed, `${ERROR_NAMES.renderFailed}: ${err.message}; no credits were charged, retry`);
  }
  return null;
}

/** Anything else that broke while working on the page (a 502 that reveals nothing internal). */
export function renderFailed(): ContractError {
  return new ContractError("render_failed", ERROR_NAMES.renderFailed, `${ERROR_NAMES.renderFailed}: the page could not be processed; no credits were charged`);
}

/** A `capture` that lacks what its mode needs (400, nothing charged). */
export function badCapture(detail: string): ContractError {
  return new ContractError("bad_request", ERROR_NAMES.invalidField, `${ERROR_NAMES.invalidField}: capture ${detail}`);
}
