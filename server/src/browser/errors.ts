// What can go wrong around a browser, independent of HTTP; observe maps these to 503/504/502.

/** Every rendering slot is busy and the waiting line is full (or the wait ran out). */
export class PoolBusyError extends Error {
  override name = "PoolBusyError";
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The render was stopped to give its slot to another account's waiting request (slots.ts). */
export class PoolPreemptedError extends PoolBusyError {
  override name = "PoolPreemptedError";
  constructor(retryAfterSeconds: number) {
    super("the render was stopped to give another account its share of the rendering slots", retryAfterSeconds);
  }
}

/** The render did not finish within the per-request time budget. */
export class RenderTimeoutError extends Error {
  override name = "RenderTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`the page did not finish rendering within ${timeoutMs} ms`);
  }
}

/** The browser process went away (crash, kill, OOM) while a render was using it. */
export class BrowserCrashedError extends Error {
  override name = "BrowserCrashedError";
  constructor(message = "the browser process exited during the render") {
    super(message);
  }
}

/** The pool is shutting down and takes no more work. */
export class PoolClosedError extends Error {
  override name = "PoolClosedError";
  constructor() {
    super("the browser pool is shutting down");
  }
}
