// The page as the collector sees it, for an agent: hidden text marked per element, and (while the
// debugger is attached) listener records from CDP. Used by the capture call and by an act that
// answers with the page after it.
import { markListeners } from "@sightline/shared/agent/perform";
import type { SnapshotRequest } from "@sightline/shared/contract";
import { ensureInjected, exec } from "../inject.js";
import * as cdp from "./debugger.js";

type Sightline = {
  collect(o?: unknown): Promise<SnapshotRequest>;
  receiveListenerMarks(): void;
};

/** `summary`: only the elements in the viewport (a navigation's answer lists the page's top). */
export async function capturePage(tabId: number, opts: { summary?: boolean } = {}): Promise<SnapshotRequest> {
  await ensureInjected(tabId);
  // Holding the debugger (the person let the agent act here): listener records from CDP,
  // so controls made clickable only by script are found as in headless Chromium. Best
  // effort: without them the collector reads the page's looks.
  if (cdp.isAttached(tabId)) {
    await exec(tabId, () => (globalThis as unknown as { sightline: Sightline }).sightline.receiveListenerMarks(), []);
    await markListeners((method, params) => cdp.send(tabId, method, params)).catch(() => 0);
  }
  // textVisibility: elements whose text the person cannot see are marked (text_hidden).
  const options = { textVisibility: true, ...(opts.summary ? { viewportOnly: true } : {}) };
  return exec(tabId, async (o) => (globalThis as unknown as { sightline: Sightline }).sightline.collect(o), [options]);
}
