// @sightline/shared/client: the typed HTTP client (isomorphic; Node, browser, extension).
export { Sightline, type SightlineOptions, type CallOptions, type FetchLike, type RetryInfo } from "./sightline.js";
export {
  SightlineError,
  SightlineNetworkError,
  SightlineTimeoutError,
  type SightlineErrorKind,
  type SightlineErrorInit,
} from "./errors.js";
export { DEFAULT_RETRY, RETRYABLE_STATUSES, parseRetryAfter, retryDelay, type RetryPolicy } from "./retry.js";
export type {
  SnapshotRequest,
  SnapshotResponse,
  RefinedElement,
  RawElement,
  ObserveRequest,
  ObserveResponse,
  ObserveElement,
} from "../contract/index.js";
