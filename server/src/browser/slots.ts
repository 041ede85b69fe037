// The render slots: at most `concurrency` holders and `queueLimit` waiters, shared fairly
// between tenants (accounts). A slot nobody else wants is used (one account alone may take
// every slot), but an account never keeps more than its share against another account's
// waiting request:
//   - a free slot goes to the waiting tenant with the fewest slots (oldest request first);
//   - when the line is full, a tenant with fewer requests in line takes the place of the newest
//     request of the tenant with the most (that one is turned away: 503, uncharged);
//   - a tenant that has waited `preemptAfterMs` while another tenant holds at least two slots
//     more than it does takes one back: the newest render of that tenant is stopped
//     (PoolPreemptedError, a 503 uncharged) and its slot passes to the waiter.
// Every holder also has its render deadline (pool.ts), so a slot is never held past it.
import { PoolBusyError, PoolClosedError, PoolPreemptedError } from "./errors.js";

/** A held slot. */
export interface SlotTicket {
  readonly tenant: string;
  /** `stop` is called (once) if the slot is taken back for another tenant's share. */
  onPreempt(stop: (err: Error) => void): void;
  release(): void;
}

export interface SlotOptions {
  /** How long a waiting tenant below its share waits before a render is stopped for it. */
  preemptAfterMs?: number;
}

class Holder implements SlotTicket {
  preempted = false;
  /** The tenant a preempted slot is promised to. */
  promisedTo: string | null = null;
  private stop: ((err: Error) => void) | null = null;
  private stopped: Error | null = null;
  private released = false;

  constructor(
    readonly tenant: string,
    readonly seq: number,
    private readonly owner: Slots,
  ) {}

  onPreempt(stop: (err: Error) => void): void {
    this.stop = stop;
    if (this.stopped) stop(this.stopped);
  }

  preempt(err: Error, forTenant: string): void {
    this.preempted = true;
    this.promisedTo = forTenant;
    this.stopped = err;
    this.stop?.(err);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.owner.releaseHolder(this);
  }
}

interface Waiter {
  tenant: string;
  seq: number;
  /** Past its grace: it may take a slot back. */
  mayPreempt: boolean;
  resolve: (t: SlotTicket) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  preemptTimer: NodeJS.Timeout | null;
  retryAfterSeconds: number;
}

export class Slots {
  private readonly holders = new Set<Holder>();
  private readonly waiting: Waiter[] = [];
  private readonly preemptAfterMs: number;
  /** tenant → seq of its latest slot, oldest first (ties go to the tenant served longest ago). */
  private readonly lastServed = new Map<string, number>();
  private seq = 0;
  private closed = false;

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
    opts: SlotOptions = {},
  ) {
    this.preemptAfterMs = Math.max(0, opts.preemptAfterMs ?? 2000);
  }

  get running(): number {
    return this.holders.size;
  }
  get queued(): number {
    return this.waiting.length;
  }

  /** Slots `tenant` holds, counting a stopped one promised to it and not one taken from it. */
  share(tenant: string): number {
    let n = 0;
    for (const h of this.holders) if (h.preempted ? h.promisedTo === tenant : h.tenant === tenant) n++;
    return n;
  }

  private inLine(tenant: string): number {
    let n = 0;
    for (const w of this.waiting) if (w.tenant === tenant) n++;
    return n;
  }

  /** Resolves with a held slot; `maxWaitMs` bounds the time in line. */
  acquire(tenant: string, maxWaitMs: number, retryAfterSeconds: number): Promise<SlotTicket> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (this.holders.size < this.concurrency) return Promise.resolve(this.hold(tenant));
    if (this.waiting.length >= this.queueLimit && !this.makeRoom(tenant)) {
      return Promise.reject(
        new PoolBusyError(
          `all ${this.concurrency} rendering slots are busy and ${this.queueLimit} requests are already waiting`,
          retryAfterSeconds,
        ),
      );
    }
    return new Promise<SlotTicket>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        seq: ++this.seq,
        mayPreempt: this.preemptAfterMs === 0,
        resolve,
        reject,
        retryAfterSeconds,
        preemptTimer: null,
        timer: setTimeout(() => {
          this.drop(waiter);
          reject(new PoolBusyError(`no rendering slot became free within ${maxWaitMs} ms`, retryAfterSeconds));
        }, maxWaitMs),
      };
      this.waiting.push(waiter);
      if (waiter.mayPreempt) this.rebalance();
      else
        waiter.preemptTimer = setTimeout(() => {
          waiter.mayPreempt = true;
          this.rebalance();
        }, this.preemptAfterMs);
    });
  }

  private hold(tenant: string): Holder {
    const h = new Holder(tenant, ++this.seq, this);
    this.holders.add(h);
    this.lastServed.delete(tenant);
    this.lastServed.set(tenant, h.seq);
    if (this.lastServed.size > 10_000) this.lastServed.delete(this.lastServed.keys().next().value!);
    return h;
  }

  private drop(w: Waiter): void {
    const i = this.waiting.indexOf(w);
    if (i >= 0) this.waiting.splice(i, 1);
    clearTimeout(w.timer);
    if (w.preemptTimer) clearTimeout(w.preemptTimer);
  }

  /** The line is full: the newest request of the tenant with the most in line gives `tenant` its place. */
  private makeRoom(tenant: string): boolean {
    const mine = this.inLine(tenant);
    let most: string | null = null;
    let count = 0;
    for (const w of this.waiting) {
      const n = this.inLine(w.tenant);
      if (n > count) [most, count] = [w.tenant, n];
    }
    // Only when it evens things out (a swap between two equal lines would just churn).
    if (most === null || count < mine + 2) return false;
    const victim = [...this.waiting].reverse().find((w) => w.tenant === most)!;
    this.drop(victim);
    victim.reject(
      new PoolBusyError("this account's request gave its place in line to another account's (each account gets its share of the queue)", victim.retryAfterSeconds),
    );
    return true;
  }

  releaseHolder(h: Holder): void {
    this.holders.delete(h);
    this.grant(h.preempted ? h.promisedTo : null);
    this.rebalance();
  }

  /** Free slots go to waiters: first to the tenant a stopped slot was promised to, then to the
   *  tenant with the fewest slots; on a tie to the one served longest ago, its oldest request. */
  private grant(promised: string | null): void {
    while (this.holders.size < this.concurrency && this.waiting.length > 0) {
      let pick: Waiter | undefined = promised === null ? undefined : this.waiting.find((w) => w.tenant === promised);
      promised = null;
      if (!pick) {
        let best = Infinity;
        let served = Infinity;
        for (const w of this.waiting) {
          // The line is in arrival order, so a tenant's first waiter is its oldest.
          const n = this.share(w.tenant);
          const last = this.lastServed.get(w.tenant) ?? -1;
          if (n < best || (n === best && last < served)) [pick, best, served] = [w, n, last];
        }
      }
      this.drop(pick!);
      pick!.resolve(this.hold(pick!.tenant));
    }
  }

  /** Waiters past their grace take slots back from tenants that hold two or more than they do. */
  private rebalance(): void {
    for (const w of [...this.waiting]) {
      if (!w.mayPreempt) continue;
      // The tenant holding the most slots, if that is at least two more than this one's.
      const mine = this.share(w.tenant);
      let donorTenant: string | null = null;
      let most = mine + 1;
      for (const h of this.holders) {
        if (h.preempted || h.tenant === w.tenant) continue;
        const n = this.share(h.tenant);
        if (n > most) [donorTenant, most] = [h.tenant, n];
      }
      if (donorTenant === null) continue;
      // Its newest render: the least work lost.
      let donor: Holder | null = null;
      for (const h of this.holders) if (!h.preempted && h.tenant === donorTenant && (!donor || h.seq > donor.seq)) donor = h;
      donor!.preempt(new PoolPreemptedError(w.retryAfterSeconds), w.tenant);
    }
  }

  /** Turns every waiter away; holders keep their slot until they release it. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      if (w.preemptTimer) clearTimeout(w.preemptTimer);
      w.reject(new PoolClosedError());
    }
  }
}
