// Runs tasks one at a time, at most `perSecond` starts per rolling second, retrying a task the
// browser refused for quota reasons. Chromium allows captureVisibleTab only twice per second
// (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND): callers queue instead of failing.

export interface RateQueueOptions {
  perSecond: number;
  /** Extra retries for a task whose error `isQuotaError` recognises. */
  retries?: number;
  isQuotaError?: (err: unknown) => boolean;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RateQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks waiting or running. */
  readonly pending: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createRateQueue(opts: RateQueueOptions): RateQueue {
  const now = opts.now ?? (() => Date.now());
  const sleep = opts.sleep ?? defaultSleep;
  const windowMs = 1000;
  const starts: number[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;

  async function slot(): Promise<void> {
    for (;;) {
      const t = now();
      while (starts.length && t - starts[0] >= windowMs) starts.shift();
      if (starts.length < opts.perSecond) {
        starts.push(t);
        return;
      }
      // A little margin: the browser's own window may be measured slightly differently.
      await sleep(windowMs - (t - starts[0]) + 25);
    }
  }

  async function attempt<T>(task: () => Promise<T>): Promise<T> {
    let left = opts.retries ?? 3;
    for (;;) {
      await slot();
      try {
        return await task();
      } catch (err) {
        if (left-- > 0 && opts.isQuotaError?.(err)) {
          await sleep(windowMs / opts.perSecond);
          continue;
        }
        throw err;
      }
    }
  }

  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      pending++;
      const result = tail.then(() => attempt(task));
      tail = result.catch(() => undefined).finally(() => {
        pending--;
      });
      return result;
    },
    get pending() {
      return pending;
    },
  };
}
