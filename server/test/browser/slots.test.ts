import { describe, expect, it } from "vitest";
import { Slots } from "../../src/browser/slots.js";
import { PoolBusyError, PoolClosedError } from "../../src/browser/errors.js";

describe("rendering slots", () => {
  it("admits `concurrency` holders, queues `queueLimit` more and turns the rest away", async () => {
    const slots = new Slots(2, 1);
    await slots.acquire(10_000, 5);
    await slots.acquire(10_000, 5);
    let third = false;
    const waiting = slots.acquire(10_000, 5).then(() => (third = true));
    const busy = await slots.acquire(10_000, 5).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PoolBusyError);
    expect((busy as PoolBusyError).retryAfterSeconds).toBe(5);
    expect([slots.running, slots.queued, third]).toEqual([2, 1, false]);
    slots.release();
    await waiting;
    expect([slots.running, slots.queued, third]).toEqual([2, 0, true]);
    slots.release();
    slots.release();
    expect(slots.running).toBe(0);
  });

  it("gives up on a wait that outlasts its budget, and turns waiters away on close", async () => {
    const slots = new Slots(1, 5);
    await slots.acquire(1000, 1);
    await expect(slots.acquire(20, 1)).rejects.toThrow(/no rendering slot became free within 20 ms/);
    const pending = slots.acquire(10_000, 1);
    slots.close();
    await expect(pending).rejects.toBeInstanceOf(PoolClosedError);
    expect(slots.queued).toBe(0);
  });
});
