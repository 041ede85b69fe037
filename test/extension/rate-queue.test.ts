// The screenshot queue: Chromium allows captureVisibleTab twice per second, so captures wait
// their turn (never more than two starts in any second) and a quota refusal is retried.
import { describe, expect, it } from "vitest";
import { createRateQueue } from "../../extension/src/rate-queue.js";

function fakeClock() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe("extension: screenshot rate queue", () => {
  it("starts at most two tasks in any one-second window, in order", async () => {
    const clock = fakeClock();
    const q = createRateQueue({ perSecond: 2, ...clock });
    const starts: number[] = [];
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => q.run(async () => (starts.push(clock.now()), n))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    for (let i = 2; i < starts.length; i++) expect(starts[i] - starts[i - 2]).toBeGreaterThanOrEqual(1000);
    expect(q.pending).toBe(0);
  });

  it("retries a task the browser refused for quota, and gives up on other errors", async () => {
    const clock = fakeClock();
    const q = createRateQueue({ perSecond: 2, retries: 2, isQuotaError: (e) => /quota/.test(String(e)), ...clock });
    let calls = 0;
    await expect(q.run(async () => (++calls < 3 ? Promise.reject(new Error("quota")) : "ok"))).resolves.toBe("ok");
    expect(calls).toBe(3);
    await expect(q.run(async () => Promise.reject(new Error("tab closed")))).rejects.toThrow("tab closed");
    // A failure does not block the tasks queued after it.
    await expect(q.run(async () => "next")).resolves.toBe("next");
  });
});
