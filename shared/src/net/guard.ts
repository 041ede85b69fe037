// Resolve-then-check for one destination. The egress proxy connects to the very address that
// was checked (pinning), so a DNS answer that changes between check and connect (rebinding)
// cannot smuggle a private address in.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import {
  addressRefusal,
  hostAllowedByName,
  isLocalhostName,
  normaliseHost,
  type HostPolicy,
} from "./policy.js";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = async (host) => {
  const all = await dnsLookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A destination the policy refuses (or that does not resolve). */
export class EgressRefusal extends Error {
  override name = "EgressRefusal";
  constructor(
    readonly host: string,
    readonly reason: "private" | "unresolvable" | "scheme",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Resolves `host` and checks every address it resolves to (one private answer among public
 * ones refuses the host: a browser may pick any of them). Returns the address to connect to.
 */
export async function resolveChecked(host: string, policy: HostPolicy, lookup: Lookup = systemLookup): Promise<ResolvedAddress> {
  const name = normaliseHost(host);
  const byName = hostAllowedByName(name, policy);
  const literal = isIP(name);
  if (literal) {
    const refusal = byName ? null : addressRefusal(name, policy);
    if (refusal) throw new EgressRefusal(name, "private", `${hostLabel(name)}: ${refusal}`);
    return { address: name, family: literal === 6 ? 6 : 4 };
  }
  if (!byName && isLocalhostName(name)) {
    throw new EgressRefusal(name, "private", `${name} is a loopback name`);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(name);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new EgressRefusal(name, "unresolvable", `${name} could not be resolved`);
  if (!byName) {
    for (const a of addresses) {
      const refusal = addressRefusal(a.address, policy);
      if (refusal) throw new EgressRefusal(name, "private", `${name} resolves to ${refusal}`);
    }
  }
  return addresses[0];
}

function hostLabel(ip: string): string {
  return ip.includes(":") ? `[${ip}]` : ip;
}

const IPV4_DOTTED = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The host exactly as the caller spelled it (before WHATWG URL parsing rewrote it), or null.
 * Special schemes treat `\` like `/`, hence both in the pattern.
 */
function rawHost(raw: string): string | null {
  const m = /^\s*[a-z][a-z0-9+.-]*:[\\/]*(?:[^@\\/?#]*@)?(\[[^\]]*\]|[^:\\/?#]*)/i.exec(raw);
  return m ? m[1] : null;
}

/**
 * Checks the URL a caller asked for, before anything is rendered. Besides the policy, an IPv4
 * host spelled in a non-canonical form (`2130706433`, `0x7f000001`, `127.1`, octal) is refused:
 * no real site is addressed that way, and it is the classic way around allow and deny lists.
 */
export async function checkRequestUrl(raw: string, policy: HostPolicy, lookup: Lookup = systemLookup): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressRefusal("", "scheme", "the URL cannot be parsed");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new EgressRefusal(url.hostname, "scheme", `only http and https URLs can be observed, not ${url.protocol}`);
  }
  const host = url.hostname;
  if (IPV4_DOTTED.test(host)) {
    const spelled = rawHost(raw)?.toLowerCase().replace(/\.$/, "");
    if (spelled !== host) {
      throw new EgressRefusal(host, "private", `the host ${JSON.stringify(rawHost(raw) ?? raw)} is a non-canonical spelling of ${host}; write the address as ${host}`);
    }
  }
  await resolveChecked(host, policy, lookup);
  return url;
}
