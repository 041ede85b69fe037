// What the server holds an agent's navigate to before relaying it to the person's browser: the
// host policy of /v1/observe (SIGHTLINE_ALLOW_PRIVATE_HOSTS). An agent steered by a page must
// not walk the person's browser into their intranet or a metadata address.
import { AgentError, checkNavigableUrl } from "@sightline/shared/agent";
import type { NavigateCheck } from "@sightline/shared/agent/bridge";
import { checkRequestUrl, DEFAULT_POLICY, EgressRefusal, hostAllowedByName, type HostPolicy, type Lookup } from "@sightline/shared/net";

/** The policy the server holds navigate URLs to (config.observe's SIGHTLINE_ALLOW_PRIVATE_HOSTS). */
export interface NavigationPolicy {
  policy: HostPolicy;
  /** The server's resolver (tests may give another). */
  lookup?: Lookup;
}

const POLICY_HINT = "an agent may not open private, loopback, link-local or metadata addresses (the server's operator can allow hosts with SIGHTLINE_ALLOW_PRIVATE_HOSTS)";

/**
 * Refuses a navigate URL the policy refuses, as bad_url. The person's browser resolves names
 * itself, so the server's answer is the best it can know: a name it cannot resolve is not
 * known to be public and is refused too, unless the policy names it.
 */
export function navigateCheck(nav: NavigationPolicy = { policy: DEFAULT_POLICY }): NavigateCheck {
  return async (raw) => {
    const url = checkNavigableUrl(raw);
    if (hostAllowedByName(url.hostname, nav.policy)) return;
    try {
      await checkRequestUrl(raw, nav.policy, nav.lookup);
    } catch (err) {
      if (!(err instanceof EgressRefusal)) throw err;
      const why = err.reason === "unresolvable" ? `${err.message} by the Sightline server, so it is not known to be public` : err.message;
      throw new AgentError("bad_url", `Invalid URL: ${why}; ${POLICY_HINT}`);
    }
  };
}
