// Page work every backend does the same way on top of a PageDriver: screenshots with marks,
// and waiting for text or quiet.
import type { MarkBox } from "../session/backend.js";
import type { PageDriver } from "./driver.js";

export async function screenshotWithMarks(driver: PageDriver, marks: MarkBox[]): Promise<string> {
  await driver.call("showMarks", { marks });
  try {
    return await driver.screenshot();
  } finally {
    await driver.call("clearMarks", {}).catch(() => undefined);
  }
}

/** Polls for visible `text`; without text, waits for the DOM to be quiet for 500 ms. */
export async function waitOnPage(driver: PageDriver, opts: { text?: string; timeoutMs: number }, sleep = (ms: number) => new Promise<void>((r) => setTimeout(() => r(), ms))): Promise<boolean> {
  const deadline = Date.now() + opts.timeoutMs;
  if (opts.text) {
    for (;;) {
      if (await driver.call("hasText", { text: opts.text }).catch(() => false)) return true;
      if (Date.now() >= deadline) return false;
      await sleep(100);
    }
  }
  for (;;) {
    // A quiet period of 500 ms: nothing changed while watching.
    const token = await driver.call("watchStart", {}).catch(() => null);
    const changes = token ? await driver.call("watchSettle", { token, quietMs: 500, maxMs: 500 }).catch(() => -1) : -1;
    if (changes === 0) return true;
    if (Date.now() >= deadline) return false;
    if (changes < 0) await sleep(100);
  }
}
