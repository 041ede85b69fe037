// The activity log the side panel shows and exports: one entry per agent call, typed secrets
// masked, kept in session storage (the last MAX_LOG).
import { browser, type Browser } from "wxt/browser";
import { activityEntry, type ActionOutcome, type ActionTarget, type AgentAction, type Decision, type SecretValues } from "@sightline/shared/agent/core";
import type { LogEntry } from "./state.js";

export const MAX_LOG = 500;

export interface LogInput {
  tabId: number;
  tool: string;
  summary: string;
  decision: Decision;
  started: number;
  pageUrl?: string;
  action?: AgentAction;
  target?: ActionTarget | null;
  /** The page said the target is secret (the policy's verdict): the typed text is masked. */
  secret?: boolean;
  outcome?: ActionOutcome;
  urlAfter?: string;
  error?: string;
  /** The server's session found the action seems to follow hidden text (provenance.ts). */
  followsHiddenText?: boolean;
}

export class ActivityLog {
  private entries: LogEntry[] = [];

  /** `changed`: an entry was added (persist and broadcast). */
  constructor(
    private readonly typed: SecretValues,
    private readonly changed: () => void,
  ) {}

  restore(entries: LogEntry[]): void {
    this.entries = entries;
  }

  /** The entries kept (persisted). */
  kept(): LogEntry[] {
    return this.entries.slice(-MAX_LOG);
  }

  /** The entries the panel shows. */
  recent(): LogEntry[] {
    return this.entries.slice(-200);
  }

  record(e: LogInput): void {
    const urlNow = e.pageUrl !== undefined ? Promise.resolve(e.pageUrl) : browser.tabs.get(e.tabId).then((t: Browser.tabs.Tab) => t.url ?? "", () => "");
    void urlNow.then((url) => {
      // Whatever the page echoed of a typed secret (its address, a title in an error) is masked.
      const entry: LogEntry = this.typed.scrub({
        ...activityEntry({
          at: new Date(),
          tab: String(e.tabId),
          tool: e.tool,
          url,
          action: e.action,
          target: e.target,
          secret: e.secret,
          decision: e.decision,
          outcome: e.outcome,
          error: e.error,
          urlAfter: e.urlAfter,
          followsHiddenText: e.followsHiddenText,
        }),
        summary: e.summary,
        ms: Date.now() - e.started,
      });
      this.entries.push(entry);
      if (this.entries.length > MAX_LOG) this.entries.splice(0, this.entries.length - MAX_LOG);
      this.changed();
    });
  }
}
