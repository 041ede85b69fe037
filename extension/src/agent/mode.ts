// Pause and take over: while the agent is not running its calls wait, and a tab the person took
// over is answered "handed back" on the agent's next act there.
import type { Replier } from "./client.js";
import type { AgentMode } from "./state.js";

/** A held call reminds the agent it is still waiting this often. */
export const PROGRESS_EVERY_MS = 15_000;

export class Mode {
  mode: AgentMode = "running";
  /** Calls held by Pause / Take over, released by resume. */
  private held: (() => void)[] = [];
  /** The person took over since these tabs' last act: the agent's picture of them is stale. */
  private readonly takenOver = new Set<number>();

  set(mode: AgentMode, sharedTabs: number[]): void {
    if (mode === "takeover") for (const id of sharedTabs) this.takenOver.add(id);
    this.mode = mode;
    if (mode === "running") for (const go of this.held.splice(0)) go();
  }

  /** True once after the person took `tabId` over and handed it back. */
  takeHandedBack(tabId: number): boolean {
    return this.takenOver.delete(tabId);
  }

  /** Holds a call while the person paused the agent or took over. */
  async whileHeld(reply: Replier): Promise<void> {
    while (this.mode !== "running") {
      reply.progress(this.mode === "paused" ? "paused by the person: the call runs when they resume" : "the person has taken over the tab: the call runs when they hand back");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, PROGRESS_EVERY_MS);
        this.held.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}
