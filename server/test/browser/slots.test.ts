import { describe, expect, it } from "vitest";
import { Slots, type SlotTicket } from "../../src/browser/slots.js";
import { PoolBusyError, PoolClosedError, PoolPreemptedError } from "../../src/browser/errors.js";

/** A holder that records whether (and why) its slot was taken back. */
function watch(t: SlotTicket): { tenant: string; release(): void; readonly wasStopped: Error | null } {
  let stopped: Error | null = null;
  t.onPreempt((err) => (stopped = err));
  return { tenant: t.tenant, release: () => t.release(), get wasStopped() { return stopped; } };
}

describe("rendering slots", () => {
  it("admits `concurrency` holders, queues `queueLimit` more and turns the rest away", async () => {
    const slots = new Slots(2, 1);
    const a = await slots.acquire("", 10_000, 5);
    const b = await slots.acquire("", 10_000, 5);
    let third = false;
    const waiting = slots.acquire("", 10_000, 5).then((t) => ((third = true), t));
    const busy = await slots.acquire("", 10_000, 5).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PoolBusyError);
    expect((busy as PoolBusyError).retryAfterSeconds).toBe(5);
    expect([slots.running, slots.queued, third]).toEqual([2, 1, false]);
    a.release();
    const c = await waiting;
    expect([slots.running, slots.queued, third]).toEqual([2, 0, true]);
    b.release();
    c.release();
    c.release(); // a second release of the same ticket frees nothing more
    expect(slots.running).toBe(0);
  });

  it("gives up on a wait that outlasts its budget, and turns waiters away on close", async () => {
    const slots = new Slots(1, 5);
    await slots.acquire("", 1000, 1);
    await expect(slots.acquire("", 20, 1)).rejects.toThrow(/no rendering slot became free within 20 ms/);
    const pending = slots.acquire("", 10_000, 1);
    slots.close();
    await expect(pending).rejects.toBeInstanceOf(PoolClosedError);
    expect(slots.queued).toBe(0);
  });
});

describe("fair shares between accounts", () => {
  it("lets one account use every free slot while nobody else waits", async () => {
    const slots = new Slots(3, 2, { preemptAfterMs: 0 });
    const held = await Promise.all([0, 1, 2].map(() => slots.acquire("a", 10_000, 1)));
    expect(slots.running).toBe(3);
    for (const t of held) t.release();
  });

  it("stops the newest render of an account holding two more slots than a waiting one, and gives the slot to it", async () => {
    const slots = new Slots(2, 4, { preemptAfterMs: 0 });
    const a1 = watch(await slots.acquire("a", 10_000, 3));
    const a2 = watch(await slots.acquire("a", 10_000, 3));
    const aQueued = slots.acquire("a", 10_000, 3);
    let bHeld: SlotTicket | null = null;
    const b = slots.acquire("b", 10_000, 3).then((t) => (bHeld = t));
    expect(a1.wasStopped).toBeNull();
    expect(a2.wasStopped).toBeInstanceOf(PoolPreemptedError);
    expect((a2.wasStopped as PoolPreemptedError).retryAfterSeconds).toBe(3);
    expect(bHeld).toBeNull(); // the stopped render still holds the slot until it has cleaned up
    a2.release();
    await b;
    expect(bHeld!.tenant).toBe("b");
    // a's own queued request does not jump ahead of b: it waits for a slot to free normally
    expect(slots.queued).toBe(1);
    a1.release();
    const a3 = await aQueued;
    expect(a3.tenant).toBe("a");
    bHeld!.release();
    a3.release();
    expect(slots.running).toBe(0);
  });

  it("takes back no more than evens the shares, and never from an account at its share", async () => {
    const slots = new Slots(4, 8, { preemptAfterMs: 0 });
    const a = await Promise.all([0, 1, 2, 3].map(async () => watch(await slots.acquire("a", 10_000, 1))));
    const bWaits = [0, 1, 2].map(() => slots.acquire("b", 10_000, 1));
    // b asks for three, but an even split of four slots is two each
    expect(a.filter((t) => t.wasStopped).length).toBe(2);
    for (const t of a.filter((t) => t.wasStopped)) t.release();
    const bHeld = await Promise.all(bWaits.slice(0, 2));
    expect(bHeld.map((t) => t.tenant)).toEqual(["b", "b"]);
    expect(slots.queued).toBe(1);
    // c arrives with none: a and b hold two each, so one render of one of them is stopped for c
    const before = new Set(a.filter((t) => t.wasStopped));
    const cWait = slots.acquire("c", 10_000, 1);
    const now = a.filter((t) => t.wasStopped && !before.has(t));
    expect(now).toHaveLength(1);
    expect(bHeld.length + a.length - a.filter((t) => t.wasStopped).length).toBe(3); // a 1, b 2
    now[0].release();
    const c = await cWait;
    expect(c.tenant).toBe("c");
  });

  it("gives a full line's place to an account with fewer requests waiting", async () => {
    const slots = new Slots(1, 3, { preemptAfterMs: 60_000 });
    const holder = await slots.acquire("a", 10_000, 1);
    const aWaits = [0, 1, 2].map(() => slots.acquire("a", 10_000, 2).then(() => "granted", (e: unknown) => e));
    const bWait = slots.acquire("b", 10_000, 2);
    const turned = await Promise.race(aWaits);
    expect(turned).toBeInstanceOf(PoolBusyError);
    expect(String((turned as Error).message)).toMatch(/gave its place in line/);
    expect(slots.queued).toBe(3);
    // a second account arriving with one request in line already: nothing to even out, so refused
    const bAgain = await slots.acquire("b", 10_000, 2).catch((e: unknown) => e);
    expect(bAgain).toBeInstanceOf(PoolBusyError);
    expect(String((bAgain as Error).message)).toMatch(/already waiting/);
    // the next free slot goes to b (served longest ago), not to a's older requests
    holder.release();
    expect((await bWait).tenant).toBe("b");
    slots.close();
    await Promise.all(aWaits);
  });
});
