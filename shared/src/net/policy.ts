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
      const addr = parseAddress(entry);
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

/**
 * Parses an address. IPv6 goes through the WHATWG URL parser first (the browser's own reading,
 * written back in hex): ipaddr.js reads `::1.2.3.4` as `::ffff:1.2.3.4`, so a dotted tail as the
 * resolver prints it (glibc writes `::a9fe:a9fe` as `::169.254.169.254`) would be misjudged.
 */
function parseAddress(ip: string): Address {
  const bare = stripBrackets(ip);
  if (!bare.includes(":")) return ipaddr.parse(bare);
  return ipaddr.IPv6.parse(stripBrackets(new URL(`http://[${bare}]/`).hostname));
}

/** Why an address is refused: its range, and for an IPv6 form that carries an IPv4 address, that address. */
interface Verdict {
  /** ipaddr.js range name (or ours: ipv4Compatible, isatap, localNat64) of the address itself. */
  range: string;
  /** The IPv4 address inside, and its range. */
  v4?: ipaddr.IPv4;
  inner?: string;
}

// RFC 8215's local-use NAT64 prefix: the network's own translator, laid out as its operator
// chose (RFC 6052 allows the IPv4 address at six places), so what it reaches cannot be told.
const LOCAL_NAT64: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("64:ff9b:1::"), 48];

/** The IPv4 address an IPv6 address carries by its form, or null (Teredo and local NAT64 are refused whole). */
function embeddedIPv4(addr: ipaddr.IPv6, range: string): { form: string; v4: ipaddr.IPv4 } | null {
  const b = addr.toByteArray();
  const last32 = () => new ipaddr.IPv4(b.slice(12, 16));
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d, IPv4-translated
    case "rfc6052": // 64:ff9b::a.b.c.d, NAT64 well-known prefix (only /96 is defined for it)
      return { form: range, v4: last32() };
    case "6to4": // 2002:AABB:CCDD::/48
      return { form: range, v4: new ipaddr.IPv4(b.slice(2, 6)) };
    case "unicast":
      // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291, still routed by some stacks). `::`
      // and `::1` have their own ranges and never get here.
      if (b.slice(0, 12).every((x) => x === 0)) return { form: "ipv4Compatible", v4: last32() };
      // ISATAP interface identifier (RFC 5214): ...:0000:5efe:a.b.c.d or ...:0200:5efe:a.b.c.d,
      // tunnelled over IPv4 to that address by a host or router that speaks ISATAP.
      if ((b[8] & 0xfc) === 0 && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) return { form: "isatap", v4: last32() };
      return null;
    default:
      return null;
  }
}

/** Null when the address is public unicast (and so is any IPv4 address it carries). */
function judge(ip: string): Verdict | null {
  let addr: Address;
  try {
    addr = parseAddress(ip);
  } catch {
    return { range: "unparsable" };
  }
  if (addr.kind() === "ipv4") {
    const range = addr.range();
    return range === "unicast" ? null : { range };
  }
  const v6 = addr as ipaddr.IPv6;
  if (v6.match(...LOCAL_NAT64)) return { range: "localNat64" };
  const range = v6.range();
  const carried = embeddedIPv4(v6, range);
  if (carried) {
    const inner = carried.v4.range();
    return inner === "unicast" ? null : { range: carried.form, v4: carried.v4, inner };
  }
  // Every other special range is refused whole, Teredo (2001::/32) included: it tunnels to an
  // IPv4 address hidden in the bits, and nothing legitimate needs it from a server.
  return range === "unicast" ? null : { range };
}

/**
 * Why an address is refused by default, or null when it is public unicast. Every special range
 * ipaddr.js knows is refused: loopback, private, link-local (cloud metadata 169.254.169.254),
 * CGNAT, multicast, unspecified, broadcast, reserved, unique-local (fd00:ec2::254), Teredo, ...
 * IPv6 forms that embed an IPv4 address (mapped, translated, NAT64, 6to4, IPv4-compatible,
 * ISATAP) are judged by that address: `ipv4Compatible (linkLocal)` for `::a9fe:a9fe`.
 */
export function refusedRange(ip: string): string | null {
  const v = judge(ip);
  if (!v) return null;
  return v.inner ? `${v.range} (${v.inner})` : v.range;
}

/** True when the operator's allow list names this address's range. Kinds are not mixed:
 *  allowing 127.0.0.1 does not allow ::ffff:127.0.0.1. */
export function inAllowedCidr(ip: string, policy: HostPolicy): boolean {
  let addr: Address;
  try {
    addr = parseAddress(ip);
  } catch {
    return false;
  }
  return policy.cidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/** Why a resolved address may not be reached under `policy`, or null when it may. */
export function addressRefusal(ip: string, policy: HostPolicy): string | null {
  if (policy.allowAll || inAllowedCidr(ip, policy)) return null;
  const v = judge(ip);
  if (!v) return null;
  if (v.v4 && v.inner) return `${ip} is a ${RANGE_WORDS[v.inner] ?? v.inner} address (${v.v4.toString()} in ${FORM_WORDS[v.range] ?? v.range} IPv6)`;
  return `${ip} is a ${RANGE_WORDS[v.range] ?? v.range} address`;
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
  teredo: "Teredo (IPv4 tunnel)",
  localNat64: "local-use NAT64 (RFC 8215)",
  unparsable: "malformed",
};

/** The IPv6 forms that carry an IPv4 address, as a refusal names them. */
const FORM_WORDS: Record<string, string> = {
  ipv4Mapped: "IPv4-mapped",
  rfc6145: "IPv4-translated",
  rfc6052: "NAT64",
  "6to4": "6to4",
  ipv4Compatible: "IPv4-compatible",
  isatap: "ISATAP",
};
