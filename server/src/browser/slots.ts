// A counting semaphore with a bounded waiting line: at most `concurrency` holders, at most
// `queueLimit` waiters; anyone beyond is turned away at once (the caller answers 503).
import { PoolBusyError, PoolClosedError } from "./errors.js";

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class Slots {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private closed = false;

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {}

  get running(): number {
    return this.active;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves when a slot is held; `maxWaitMs` bounds the time in line. */
  acquire(maxWaitMs: number, retryAfterSeconds: number): Promise<void> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queueLimit) {
      return Promise.reject(
        new PoolBusyError(
          `all ${this.concurrency} rendering slots are busy and ${this.queueLimit} requests are already waiting`,
          retryAfterSeconds,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new PoolBusyError(`no rendering slot became free within ${maxWaitMs} ms`, retryAfterSeconds));
        }, maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve(); // the slot passes straight to the next waiter
    } else {
      this.active = Math.max(0, this.active - 1);
    }
  }

  /** Turns every waiter away; holders keep their slot until they release it. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new PoolClosedError());
    }
  }
}
