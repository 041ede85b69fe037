// Egress control for every browser Sightline drives on its own (the server's renders and the
// headless MCP): the host policy, resolve-then-check, and the per-context forward proxy that
// enforces both on every request a page makes. Node only (net, dns, http).
export {
  parseAllowList,
  refusedRange,
  addressRefusal,
  hostAllowedByName,
  DEFAULT_POLICY,
  PolicyError,
  type HostPolicy,
} from "./policy.js";
export { checkRequestUrl, resolveChecked, EgressRefusal, systemLookup, type Lookup, type ResolvedAddress } from "./guard.js";
export { startEgressProxy, REFUSED_HEADER, PROXY_ONLY_CHROMIUM_ARGS, type EgressProxy, type Refusal } from "./egress-proxy.js";
