// One latency row of the agent benches: an action through Sightline beside the same action
// done directly with Playwright, each from a freshly loaded page, medians of `reps`, and
// whether it meets issue 16's target (within 1.5× of direct Playwright plus 50 ms).
import { median } from "../lib/stats.mjs";

export interface SideBySide {
  label: string;
  /** Loads the page again before each timed action. */
  reset(): Promise<void>;
  /** Untimed preparation (a snapshot for ids); returns the timed Sightline action. */
  prepare(): Promise<() => Promise<unknown>>;
  /** The same action with Playwright, timed. */
  direct(): Promise<unknown>;
}

export async function latencyRow(c: SideBySide, reps: number): Promise<(string | number)[]> {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < reps; i++) {
    await c.reset();
    const act = await c.prepare();
    let t = performance.now();
    await act();
    ours.push(performance.now() - t);
    await c.reset();
    t = performance.now();
    await c.direct();
    theirs.push(performance.now() - t);
  }
  const s = median(ours);
  const p = median(theirs);
  return [c.label, s, p, s / p, s <= 1.5 * p + 50 ? "yes" : "no"];
}
