// Running code in a tab's extension world (chrome.scripting, ISOLATED world): the collector,
// the panel's overlay (page-overlay.ts) and the page agent for acting live there together, so the ids the
// panel shows and the ids an agent uses are the same.
import { browser } from "wxt/browser";

/** The shared page agent bundle (shared/dist/page-agent.js), copied under this name by the build. */
export const PAGE_AGENT_FILE = "/agent-calls.js";

export async function exec<A extends unknown[], R>(tabId: number, func: (...args: A) => R, args: A): Promise<Awaited<R>> {
  const [res] = await browser.scripting.executeScript({ target: { tabId }, func, args } as never);
  return (res as { result: Awaited<R> }).result;
}

/** Runs `func` and also answers which document it ran in (changes on every navigation). */
export async function execWithDocument<A extends unknown[], R>(tabId: number, func: (...args: A) => R, args: A): Promise<{ result: Awaited<R>; documentId: string }> {
  const [res] = await browser.scripting.executeScript({ target: { tabId }, func, args } as never);
  const r = res as { result: Awaited<R>; documentId?: string };
  return { result: r.result, documentId: r.documentId ?? "" };
}

/** Injects the collector bundle, the overlay and the page agent once per document. */
export async function ensureInjected(tabId: number): Promise<void> {
  const missing = await exec(
    tabId,
    () => {
      const g = globalThis as Record<string, unknown>;
      return [!g.sightline && "/collector.js", !g.__sightlineOverlay && "/page-overlay.js", !g.__sightlinePageAgent__ && "/agent-calls.js"].filter(Boolean) as string[];
    },
    [],
  );
  if (missing.length) await browser.scripting.executeScript({ target: { tabId }, files: missing });
}
