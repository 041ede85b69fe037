// Renders one URL in a fresh context of the pool, behind a per-render egress proxy that
// enforces the host policy, then hands the settled page to the caller's `use`. The context,
// proxy, routes and blank page may have been made ahead as the pool's spare for the same key.
import { trackListeners } from "@sightline/shared/playwright";
import type { BrowserContextOptions, Page, Response } from "playwright-core";
import { EgressRefusal, REFUSED_HEADER, startEgressProxy, type EgressProxy, type HostPolicy, type Lookup } from "@sightline/shared/net";
import { ENGINES, RENDER_VIEWPORT, applyEngine, navigate, type EngineName } from "./engines.js";
import type { BrowserPool } from "./pool.js";
import type { ContextRecipe } from "./spares.js";

export interface RenderRequest {
  url: string;
  engine: EngineName;
  policy: HostPolicy;
  timeoutMs: number;
  /** The account the render is for: render slots are shared fairly between accounts. */
  tenant?: string;
  /** DNS for the egress proxy (tests); the system resolver otherwise. */
  lookup?: Lookup;
  /** false: the page's own scripts never run (read mode's first pass); default true. */
  javaScript?: boolean;
  /** More renders of the same request follow: the spare used here is made again only once this
   *  settles (the pool's RenderBudget.refillAfter). */
  refillAfter?: Promise<unknown>;
}

export interface RenderedPage {
  page: Page;
  response: Response | null;
  /** Epoch ms by which the work on the page must be done. */
  deadline: number;
  proxy: EgressProxy;
}

export function contextOptions(extra: BrowserContextOptions = {}): BrowserContextOptions {
  return {
    viewport: { ...RENDER_VIEWPORT },
    deviceScaleFactor: 1,
    serviceWorkers: "block",
    acceptDownloads: false,
    bypassCSP: true, // the collector is injected into pages whatever their CSP says
    ignoreHTTPSErrors: false,
    locale: "en-US",
    ...extra,
  };
}

function hostPort(u: string): string | null {
  try {
    const url = new URL(u);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return `${url.hostname}:${port}`;
  } catch {
    return null;
  }
}

/** The navigation was refused by the host policy (first URL or a redirect hop): Invalid URL. */
function mainFrameRefusal(proxy: EgressProxy, first: string, navHosts: Set<string>, response: Response | null): EgressRefusal | null {
  const headerReason = response?.headers()[REFUSED_HEADER];
  if (response && !headerReason) return null; // the document loaded; refusals were subresources
  for (const r of proxy.refusals) {
    if (!navHosts.has(r.target)) continue;
    const reason = r.reason === "upstream" ? "unresolvable" : r.reason;
    const detail = r.reason === "upstream" ? r.message : `it is refused: ${r.message}`;
    const message = r.target === hostPort(first)
      ? r.message
      : `the page redirected to ${r.url ?? r.target}, and ${detail}`;
    return new EgressRefusal(r.target, reason, message);
  }
  return null;
}

export class NavigationError extends Error {
  override name = "NavigationError";
}

/**
 * Opens `req.url` with the engine's rules and runs `use` on the settled page. Throws
 * EgressRefusal when the page (or a redirect) goes somewhere the policy refuses, NavigationError
 * when it cannot be loaded, and the pool's errors (busy, timeout, crash). Pass the same policy
 * (and lookup) object every time: renders share spare contexts only with identical ones.
 */
export async function renderUrl<T>(
  pool: BrowserPool,
  req: RenderRequest,
  use: (rendered: RenderedPage) => Promise<T>,
): Promise<T> {
  const engine = ENGINES[req.engine];
  const scripts = req.javaScript !== false;
  return pool.withRecipe(
    renderRecipe(req, pool.proxyHost),
    async ({ page, resources: proxy }, deadline) => {
      const navHosts = new Set<string>();
      page.on("request", (r) => {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame()) {
          const hp = hostPort(r.url());
          if (hp) navHosts.add(hp);
        }
      });
      let response: Response | null = null;
      try {
        response = await navigate(page, req.url, engine, deadline, { javaScript: scripts });
      } catch (err) {
        const refusal = mainFrameRefusal(proxy, req.url, navHosts, null);
        if (refusal) throw refusal;
        throw new NavigationError(navigationMessage(err));
      }
      const refusal = mainFrameRefusal(proxy, req.url, navHosts, response);
      if (refusal) throw refusal;
      // A script navigation that failed (e.g. an http → https bounce to nowhere) leaves
      // Chromium's error page; its text is not the page's content.
      if (page.url().startsWith("chrome-error:")) {
        throw new NavigationError("the page navigated itself to an address that could not be loaded");
      }
      return use({ page, response, deadline, proxy });
    },
    { timeoutMs: req.timeoutMs, refillAfter: req.refillAfter, tenant: req.tenant },
  );
}

const identities = new WeakMap<object, number>();
let lastIdentity = 0;
/** A number per object: the same host policy / DNS object gives the same recipe key. */
function identity(o: object): number {
  let id = identities.get(o);
  if (id === undefined) identities.set(o, (id = ++lastIdentity));
  return id;
}

/**
 * The render's context: its own egress proxy enforcing `req.policy` (with `req.lookup`), the
 * engine's routes, JavaScript on or off. Requests with the same engine, JavaScript setting and
 * the very same policy and lookup objects share the key, so they may use each other's spare.
 */
function renderRecipe(req: RenderRequest, proxyHost: string): ContextRecipe<EgressProxy> {
  const engine = ENGINES[req.engine];
  const scripts = req.javaScript !== false;
  const dns = req.lookup ? identity(req.lookup) : 0;
  return {
    key: `render|${engine.name}|js=${scripts}|policy=${identity(req.policy)}|lookup=${dns}`,
    open: async () => {
      const proxy = await startEgressProxy(req.policy, { lookup: req.lookup, host: proxyHost });
      // With JavaScript off, CDP evaluation still runs in Sightline's world, so the collector
      // works; only the page's own scripts (and timers) are stopped.
      const options = contextOptions({ proxy: { server: proxy.server, ...(proxy.credentials ?? {}) }, ...(scripts ? {} : { javaScriptEnabled: false }) });
      return { value: proxy, options, close: () => proxy.close() };
    },
    setup: async (context) => {
      // Records click listeners as the page registers them, so script-only controls are found.
      if (scripts) await trackListeners(context);
      await applyEngine(context, engine);
    },
    // A spare's proxy has never been asked for anything; if it has, it is not handed out.
    untouched: (proxy) => proxy.forwarded === 0 && proxy.refusals.length === 0,
  };
}

/** "page.goto: net::ERR_CONNECTION_REFUSED at http://…\nCall log: …" → "net::ERR_CONNECTION_REFUSED". */
function navigationMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const net = /net::ERR_[A-Z_]+/.exec(msg);
  if (net) return `the page could not be loaded (${net[0]})`;
  return `the page could not be loaded (${msg.split("\n")[0].replace(/^page\.goto:\s*/, "").slice(0, 200)})`;
}
