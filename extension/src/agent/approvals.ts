// The person's Approve / Reject: actions waiting on a card in the side panel, the sites where the
// person let act run without asking, and the reminders the agent hears while it waits.
import type { Replier } from "./client.js";
import { highlight } from "./highlight.js";
import { PROGRESS_EVERY_MS } from "./mode.js";
import type { PendingApproval } from "./state.js";

/** What the person decided (cancelled: the server gave up, or the tab stopped being shared). */
export interface Answer {
  approve: boolean;
  text?: string;
  cancelled?: boolean;
}

interface Waiting {
  approval: PendingApproval;
  /** The person's decision. */
  decide(d: { approve: boolean; text?: string }): void;
  /** The server gave up on the call, or the tab stopped being shared. */
  cancel(): void;
}

export class Approvals {
  private readonly waiting = new Map<string, Waiting>();
  /** Origins where act runs without asking, for this browser session. */
  private allowed = new Set<string>();

  /** `changed`: the pending cards changed (broadcast to the panel). */
  constructor(private readonly changed: () => void) {}

  restoreSites(origins: string[]): void {
    this.allowed = new Set(origins);
  }

  sites(): string[] {
    return [...this.allowed];
  }

  siteAllowed(origin: string): boolean {
    return this.allowed.has(origin);
  }

  allowSite(origin: string, on: boolean): void {
    if (on) this.allowed.add(origin);
    else this.allowed.delete(origin);
  }

  pending(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.approval);
  }

  get count(): number {
    return this.waiting.size;
  }

  decide(id: string, d: { approve: boolean; text?: string }): void {
    this.waiting.get(id)?.decide(d);
  }

  cancel(id: string): void {
    this.waiting.get(id)?.cancel();
  }

  cancelTab(tabId: number): void {
    for (const w of [...this.waiting.values()]) if (w.approval.tabId === tabId) w.cancel();
  }

  /** Shows the card, highlights its element and waits for the person (or a cancel). */
  ask(approval: PendingApproval, reply: Replier): Promise<Answer> {
    const callId = approval.id;
    const message = `waiting for the person's approval in the Sightline side panel: ${approval.summary}`;
    reply.progress(message);
    const reminder = setInterval(() => reply.progress(message), PROGRESS_EVERY_MS);
    void highlight(approval.tabId, approval.targetId);
    return new Promise((resolve) => {
      const finish = (r: Answer) => {
        if (!this.waiting.delete(callId)) return;
        clearInterval(reminder);
        void highlight(approval.tabId, null);
        this.changed();
        resolve(r);
      };
      this.waiting.set(callId, {
        approval,
        decide: (d) => finish({ approve: d.approve, text: d.text }),
        cancel: () => finish({ approve: false, cancelled: true }),
      });
      this.changed();
    });
  }
}
