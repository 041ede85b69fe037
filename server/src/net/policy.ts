// Which network destinations the renderer may reach. Server-side request forgery is the first
// risk of a URL-taking service: by default only public unicast addresses are allowed;
// SIGHTLINE_ALLOW_PRIVATE_HOSTS opens named hosts or CIDRs (or everything, `*`).
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface HostPolicy {
  /** `*`: every destination is allowed (intranet deployments, local development). */
  allowAll: boolean;
  /** Host names allowed whatever they resolve to (lower case, no trailing dot). */
  hosts: Set<string>;
  /** Host name suffixes (`.corp.example` allows `a.corp.example`). */
  suffixes: string[];
  /** Address ranges allowed even though they are private (an IP entry is a /32 or /128). */
  cidrs: Array<[Address, number]>;
}

export const DEFAULT_POLICY: HostPolicy = { allowAll: false, hosts: new Set(), suffixes: [], cidrs: [] };

export class PolicyError extends Error {
  override name = "PolicyError";
}

/** Parses SIGHTLINE_ALLOW_PRIVATE_HOSTS: `*`, or a comma list of host names, `.suffix`es, IPs and CIDRs. */
export function parseAllowList(spec: string | undefined): HostPolicy {
  const policy: HostPolicy = { allowAll: false, hosts: new Set(), suffixes: [], cidrs: [] };
  for (const raw of (spec ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") {
      policy.allowAll = true;
    } else if (entry.includes("/")) {
      try {
        policy.cidrs.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new PolicyError(`SIGHTLINE_ALLOW_PRIVATE_HOSTS: not a CIDR: ${JSON.stringify(raw.trim())}`);
      }
    } else if (ipaddr.isValid(stripBrackets(entry))) {
      const addr = ipaddr.parse(stripBrackets(entry));
      policy.cidrs.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
    } else if (entry.startsWith(".")) {
      policy.suffixes.push(entry.replace(/\.$/, ""));
    } else {
      policy.hosts.add(entry.replace(/\.$/, ""));
    }
  }
  return policy;
}

export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4), if any. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = addr.range();
  const b = addr.toByteArray();
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") {
    return new ipaddr.IPv4(b.slice(12, 16));
  }
  if (range === "6to4") return new ipaddr.IPv4(b.slice(2, 6));
  return null;
}

/**
 * Why an address is refused by default, or null when it is public unicast. Every special range
 * ipaddr.js knows is refused: loopback, private, link-local (cloud metadata 169.254.169.254),
 * CGNAT, multicast, unspecified, broadcast, reserved, unique-local (fd00:ec2::254), ...
 * IPv6 forms that embed an IPv4 address are judged by that address.
 */
export function refusedRange(ip: string): string | null {
  let addr: Address;
  try {
    addr = ipaddr.parse(stripBrackets(ip));
  } catch {
    return "unparsable address";
  }
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    const v4 = embeddedIPv4(v6);
    if (v4) {
      const inner = v4.range();
      return inner === "unicast" ? null : `${v6.range()} (${inner})`;
    }
    // Teredo hides the client address; nothing legitimate needs it from a server.
    return v6.range() === "unicast" ? null : v6.range();
  }
  const range = addr.range();
  return range === "unicast" ? null : range;
}

/** True when the operator's allow list names this address's range. Kinds are not mixed:
 *  allowing 127.0.0.1 does not allow ::ffff:127.0.0.1. */
export function inAllowedCidr(ip: string, policy: HostPolicy): boolean {
  let addr: Address;
  try {
    addr = ipaddr.parse(stripBrackets(ip));
  } catch {
    return false;
  }
  return policy.cidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** Why a resolved address may not be reached under `policy`, or null when it may. */
export function addressRefusal(ip: string, policy: HostPolicy): string | null {
  if (policy.allowAll || inAllowedCidr(ip, policy)) return null;
  const range = refusedRange(ip);
  return range ? `${ip} is a ${describeRange(range)} address` : null;
}

/** True when the host name itself is on the allow list (then any address is fine). */
export function hostAllowedByName(host: string, policy: HostPolicy): boolean {
  if (policy.allowAll) return true;
  const h = normaliseHost(host);
  return policy.hosts.has(h) || policy.suffixes.some((s) => h.endsWith(s));
}

export function normaliseHost(host: string): string {
  return stripBrackets(host.toLowerCase()).replace(/\.$/, "");
}

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761), whatever DNS says. */
export function isLocalhostName(host: string): boolean {
  const h = normaliseHost(host);
  return h === "localhost" || h.endsWith(".localhost");
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "loopback",
  private: "private (RFC 1918)",
  linkLocal: "link-local (cloud metadata)",
  carrierGradeNat: "carrier-grade NAT",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  reserved: "reserved",
  uniqueLocal: "unique-local (private IPv6)",
};

function describeRange(range: string): string {
  const base = range.split(" ")[0];
  const inner = /\((\w+)\)/.exec(range)?.[1];
  if (inner) return `${RANGE_WORDS[inner] ?? inner} (IPv4 inside ${base})`;
  return RANGE_WORDS[base] ?? base;
}
