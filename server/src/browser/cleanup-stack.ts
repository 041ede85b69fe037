// What a render (or a spare) has opened and must close, as a stack of cleanups run last opened
// first, and bounded waits: shared by the pool and the spares so that whatever arrives after the
// owner gave up is still closed.

/** Thrown by steps cut short because their CleanupStack was released (the work was abandoned). */
export class ReleasedError extends Error {
  override name = "ReleasedError";
  constructor() {
    super("abandoned: what it was making is being closed");
  }
}

/** Things to close, last opened first; anything added after release() is closed at once. */
export class CleanupStack {
  private readonly items: Array<() => Promise<unknown>> = [];
  private isReleased = false;
  private late: Promise<void> = Promise.resolve();
  private onRelease: () => void = noop;
  private readonly releasing = new Promise<void>((resolve) => (this.onRelease = resolve));

  /** True once release() was called: the work that adds here has been abandoned. */
  get released(): boolean {
    return this.isReleased;
  }

  /** Throws ReleasedError once release() was called: a step about to start is not started. */
  throwIfReleased(): void {
    if (this.isReleased) throw new ReleasedError();
  }

  add(close: () => Promise<unknown>): void {
    if (!this.isReleased) this.items.push(close);
    else this.late = this.late.then(close).then(noop, noop);
  }

  async release(): Promise<void> {
    this.isReleased = true;
    this.onRelease();
    for (let close = this.items.pop(); close; close = this.items.pop()) await close().catch(noop);
  }

  /** Resolves once what arrived after release() is closed too. */
  idle(): Promise<void> {
    return this.late;
  }

  /** `step`, unless release() comes first: then it rejects with ReleasedError (for steps on
   *  something already held, e.g. a page opening in a held context, which may never settle once
   *  that context is closed). */
  unlessReleased<T>(step: Promise<T>): Promise<T> {
    if (this.isReleased) {
      step.catch(noop);
      return Promise.reject(new ReleasedError());
    }
    return Promise.race([
      step,
      this.releasing.then(() => {
        step.catch(noop);
        throw new ReleasedError();
      }),
    ]);
  }
}

export const noop = () => {};

/** Resolves with `promise`, or with `fallback` after `ms` (the timer does not outlive it). */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Settles when `promise` does, never rejects. */
export function settled(promise: Promise<unknown>): Promise<void> {
  return promise.then(noop, noop);
}
