// The headless MCP goes only where /v1/observe may: its browser context sends every request
// through the egress proxy of shared/src/net (the same host policy), and a navigation the proxy
// refused (the agent's navigate, a redirect hop, a link it clicked) comes back to the agent as
// a tool error naming the reason, instead of a page that merely shows the refusal.
import type { Page, Request } from "playwright-core";
import { AgentError } from "../agent/index.js";
import { checkRequestUrl, EgressRefusal, type EgressProxy, type HostPolicy, type Lookup, type Refusal } from "../net/index.js";

export const POLICY_HINT =
  "private, loopback, link-local and metadata addresses are refused (allow hosts with SIGHTLINE_ALLOW_PRIVATE_HOSTS, or sightline mcp --headless --allow-private-hosts)";

function toAgentError(reason: Refusal["reason"], message: string): AgentError {
  if (reason === "private" || reason === "scheme") return new AgentError("bad_url", `Invalid URL: ${message}; ${POLICY_HINT}`);
  return new AgentError("failed", `the page could not be loaded: ${message}`);
}

/** Refuses the agent's navigate URL before anything is requested (the proxy checks again). */
export async function checkAgentUrl(url: string, policy: HostPolicy, lookup?: Lookup): Promise<void> {
  try {
    await checkRequestUrl(url, policy, lookup);
  } catch (err) {
    if (err instanceof EgressRefusal) throw toAgentError(err.reason, err.message);
    throw err;
  }
}

function hostPort(u: string): string | null {
  try {
    const url = new URL(u);
    return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return null;
  }
}

/**
 * Watches one action on a page: the main-frame navigations it started, and the proxy's
 * refusals meanwhile. `refusal()` names the one that stopped a navigation, if any.
 */
export class NavigationWatch {
  private readonly mark: number;
  private readonly navigations: Request[] = [];
  private readonly onRequest = (req: Request) => {
    if (req.isNavigationRequest() && req.frame() === this.page.mainFrame()) this.navigations.push(req);
  };

  /** `asked`: the URL of a navigate action (its load failures are errors too), else null. */
  constructor(
    private readonly page: Page,
    private readonly proxy: EgressProxy,
    private readonly asked: string | null,
  ) {
    this.mark = proxy.refusals.length;
    page.on("request", this.onRequest);
  }

  stop(): void {
    this.page.off("request", this.onRequest);
  }

  refusal(): AgentError | null {
    const fresh = this.proxy.refusals.slice(this.mark);
    for (const req of this.navigations) {
      const url = req.url();
      // Plain http is refused per request (its URL is known); https per CONNECT tunnel (host:port).
      const r = fresh.find((f) => f.url === url || (f.url === null && f.target === hostPort(url)));
      if (!r) continue;
      const policy = r.reason === "private" || r.reason === "scheme";
      // A page a click led to that is down is the page's business; refused is the agent's.
      if (!policy && this.asked === null) continue;
      const how = req.redirectedFrom() ? "the page redirected to" : url === this.asked ? null : "the page went to";
      return toAgentError(r.reason, how ? `${how} ${url}, and ${policy ? "it is refused" : "it failed"}: ${r.message}` : r.message);
    }
    return null;
  }
}
