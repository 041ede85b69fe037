// The two rendering engines (spec 4.1): `performance` skips images, media and fonts and stops
// shortly after DOMContentLoaded; `precision` loads everything and waits for load, network idle
// and a quiet DOM, each bounded so one slow resource cannot eat the whole request budget.
import type { BrowserContext, Page, Response } from "playwright-core";
import { SightlineWorld } from "@sightline/shared/playwright";

export type EngineName = "performance" | "precision";

export interface EngineSpec {
  name: EngineName;
  /** Playwright resource types aborted before they leave the browser. */
  blockedResourceTypes: ReadonlySet<string>;
  /** After DOMContentLoaded: how long to wait for the `load` event (0: don't). */
  loadBudgetMs: number;
  /** How long to wait for the network to go idle (0: don't). */
  networkIdleBudgetMs: number;
  /** The DOM counts as settled after this long without mutations... */
  quietMs: number;
  /** ...or after this long in any case. */
  quietBudgetMs: number;
}

export const ENGINES: Record<EngineName, EngineSpec> = {
  performance: {
    name: "performance",
    blockedResourceTypes: new Set(["image", "media", "font"]),
    loadBudgetMs: 0,
    networkIdleBudgetMs: 0,
    quietMs: 200,
    quietBudgetMs: 1500,
  },
  precision: {
    name: "precision",
    blockedResourceTypes: new Set(),
    loadBudgetMs: 10_000,
    networkIdleBudgetMs: 5_000,
    quietMs: 500,
    quietBudgetMs: 3_000,
  },
};

/** The viewport renders use (and report in map/visual responses). */
export const RENDER_VIEWPORT = { width: 1280, height: 800 } as const;

/** Time kept back from the settle waits for collecting and answering. */
const RESERVE_MS = 3_000;

/** Aborts the engine's blocked resource types for every page of the context. */
export async function applyEngine(context: BrowserContext, engine: EngineSpec): Promise<void> {
  if (engine.blockedResourceTypes.size === 0) return;
  await context.route("**/*", (route) => {
    if (engine.blockedResourceTypes.has(route.request().resourceType())) return route.abort("blockedbyclient");
    return route.fallback();
  });
}

// Runs in Sightline's isolated world of the page (shared/src/playwright/world.ts), where the page
// cannot stand in for the MutationObserver or the timers (source text: the server is compiled
// without DOM types).
const DOM_QUIET_SOURCE = `(quiet, budget) => new Promise((resolve) => {
  const start = performance.now();
  let last = start;
  const mo = new MutationObserver(() => { last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => {
    const now = performance.now();
    if (now - last >= quiet || now - start >= budget) { mo.disconnect(); resolve(Math.round(now - last)); }
    else setTimeout(tick, Math.min(50, quiet));
  };
  setTimeout(tick, Math.min(50, quiet));
})`;

/** Resolves after `quietMs` without DOM mutations, or after `budgetMs`; returns the quiet time seen. */
export async function waitForDomQuiet(page: Page, quietMs: number, budgetMs: number): Promise<number> {
  if (budgetMs <= 0) return 0;
  return SightlineWorld.of(page).call<number>(DOM_QUIET_SOURCE, [quietMs, budgetMs]);
}

/**
 * Navigates and waits as the engine says. `deadline` is the epoch ms by which the whole request
 * must be done; settle waits are trimmed to leave room for collecting. Navigation errors throw.
 */
export async function navigate(
  page: Page,
  url: string,
  engine: EngineSpec,
  deadline: number,
  opts: { javaScript?: boolean } = {},
): Promise<Response | null> {
  const left = () => Math.max(0, deadline - Date.now() - RESERVE_MS);
  const response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: Math.max(1000, deadline - Date.now() + 2000) });
  // (+2 s: the pool's own deadline fires first and reports a timeout, not a navigation error)
  if (engine.loadBudgetMs > 0) {
    await page.waitForLoadState("load", { timeout: Math.max(1, Math.min(engine.loadBudgetMs, left())) }).catch(() => {});
  }
  if (engine.networkIdleBudgetMs > 0) {
    await page
      .waitForLoadState("networkidle", { timeout: Math.max(1, Math.min(engine.networkIdleBudgetMs, left())) })
      .catch(() => {});
  }
  // Without page scripts nothing mutates the DOM, and in-page timers would never fire.
  if (opts.javaScript === false) return response;
  await waitForDomQuiet(page, engine.quietMs, Math.min(engine.quietBudgetMs, left())).catch(() => 0);
  return response;
}
