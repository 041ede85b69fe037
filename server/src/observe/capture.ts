// Sightline's extension of the contract: `capture`, a page the caller already has (the browser
// extension on the user's logged-in tab). Nothing is fetched from the network: given content is
// returned as is, given raw elements are refined, and given HTML is laid out with the page's own
// scripts blocked (CSP `script-src 'none'`; turning JavaScript off would also stop the timers
// the collector needs) and every request but the document itself aborted.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { Capture } from "@sightline/shared/contract";
import type { Page } from "playwright-core";
import { contextOptions, RENDER_VIEWPORT, type BrowserPool } from "../browser/index.js";

/** The caller's page scripts stay off; DevTools evaluation (the collector) is not subject to CSP. */
const NO_SCRIPTS = "script-src 'none'; object-src 'none'; base-uri 'none'";

/** Lays `html` out as if served from the call's `url` (so links resolve) and runs `use` on the page,
 *  in a render slot of the call's account. */
export async function withCapturedHtml<T>(
  pool: BrowserPool,
  { req: { url }, tenant }: { req: { url: string }; tenant: string },
  capture: Capture,
  timeoutMs: number,
  use: (page: Page, deadline: number) => Promise<T>,
): Promise<T> {
  const html = capture.html ?? "";
  // Whatever slips past the route (preconnect, DNS prefetch) goes to a proxy that drops it.
  const blackHole = createServer((s) => s.destroy());
  await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
  const proxy = { server: `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}` };
  try {
    return await renderCaptured(pool, { url, tenant }, html, capture, proxy, timeoutMs, use);
  } finally {
    blackHole.close();
  }
}

function renderCaptured<T>(
  pool: BrowserPool,
  { url, tenant }: { url: string; tenant: string },
  html: string,
  capture: Capture,
  proxy: { server: string },
  timeoutMs: number,
  use: (page: Page, deadline: number) => Promise<T>,
): Promise<T> {
  return pool.withContext(
    contextOptions({ bypassCSP: false, viewport: capture.viewport ?? { ...RENDER_VIEWPORT }, proxy }),
    async (context, deadline) => {
      const doc = new URL(url);
      doc.hash = ""; // requests never carry the fragment
      await context.route("**/*", (route) => {
        const r = route.request();
        if (r.isNavigationRequest() && r.frame().parentFrame() === null && r.url() === doc.href) {
          return route.fulfill({
            status: 200,
            headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": NO_SCRIPTS },
            body: html,
          });
        }
        return route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: "load", timeout: Math.max(1000, deadline - Date.now() + 2000) });
      return use(page, deadline); // no page script runs, so the DOM is settled at load
    },
    { timeoutMs, tenant },
  );
}
