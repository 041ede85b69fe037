// Which names a request may be addressed to, and which browser origins may use /mcp.
//
// Host: a server on loopback is reachable from every web page the person opens, under any name
// that resolves to 127.0.0.1 (DNS rebinding: evil.example, resolved to 127.0.0.1, is a page of
// the same "origin" as the server). So a request is answered only when its Host is a name this
// server is configured to answer to: the loopback names (127.0.0.1, localhost, [::1]) and the
// listen address with the port it listens on, SIGHTLINE_PUBLIC_URL's host, and the names in
// SIGHTLINE_ALLOWED_HOSTS (`*` turns the check off). Anything else is 421 Misdirected Request
// (RFC 9110 15.5.20: the server is not configured to answer for that authority). GET /health is
// answered whatever the Host, for load balancers' probes that use an address; it does no I/O.
//
// Origin on /mcp: MCP clients are programs, which send no Origin; a browser always sends one.
// A request with an Origin is refused (403, as the MCP spec asks) unless the origin is listed in
// SIGHTLINE_ALLOWED_ORIGINS. The extension is not an MCP client (it talks to the bridge and the
// REST API), so its chrome-extension:// origin is refused too unless listed.
import { ContractError, ERROR_NAMES } from "@sightline/shared/contract";
import { isWildcardHost, type ServerConfig } from "../config.js";
import type { AppMiddleware } from "../koa-types.js";

type Ports = "any" | "listen" | Set<number>;
interface Entry {
  name?: string;
  suffix?: string;
  ports: Ports;
}

export interface Addressing {
  /** Whether a request with this Host header, received on `localPort`, is for this server. */
  hostAllowed(host: string | undefined, localPort: number): boolean;
  /** Whether a browser page of `origin` may use /mcp. */
  mcpOriginAllowed(origin: string): boolean;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** "name:port" → parts; IPv6 in brackets; a trailing dot dropped; null when it is not a host. */
function parseHost(raw: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/i.exec(raw.trim().toLowerCase());
  if (!m) return null;
  return { name: m[1].replace(/\.$/, ""), port: m[2] ? Number(m[2]) : null };
}

/** A name in URL form: IPv6 addresses in brackets. */
const urlName = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase());

export function addressing(config: Pick<ServerConfig, "host" | "allowedHosts" | "allowedOrigins" | "observe">): Addressing {
  const anyHost = config.allowedHosts.includes("*");
  const entries: Entry[] = LOOPBACK_NAMES.map((name) => ({ name, ports: "listen" as const }));
  if (!isWildcardHost(config.host)) entries.push({ name: urlName(config.host), ports: "listen" });
  const publicUrl = config.observe.publicUrl;
  if (publicUrl) {
    const u = new URL(publicUrl);
    const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
    entries.push({ name: u.hostname.toLowerCase(), ports: new Set([port]) });
  }
  for (const h of config.allowedHosts) {
    if (h === "*") continue;
    if (h.startsWith(".")) {
      entries.push({ suffix: h, ports: "any" });
      continue;
    }
    const p = parseHost(h);
    if (p) entries.push({ name: p.name, ports: p.port === null ? "any" : new Set([p.port]) });
  }
  const anyOrigin = config.allowedOrigins.includes("*");
  const origins = new Set(config.allowedOrigins);

  return {
    hostAllowed(header, localPort) {
      if (anyHost) return true;
      const h = header ? parseHost(header) : null;
      if (!h) return false;
      // No port in the Host header: the scheme's default (80 here, or 443 behind a TLS proxy).
      const ports = h.port === null ? [80, 443] : [h.port];
      return entries.some((e) => {
        if (e.name !== undefined ? e.name !== h.name : !(h.name.endsWith(e.suffix!) && h.name.length > e.suffix!.length)) return false;
        if (e.ports === "any") return true;
        if (e.ports === "listen") return ports.includes(localPort);
        return ports.some((p) => (e.ports as Set<number>).has(p));
      });
    },
    mcpOriginAllowed(origin) {
      return anyOrigin || origins.has(origin.toLowerCase().replace(/\/+$/, ""));
    },
  };
}

export function misdirected(): ContractError {
  return new ContractError(
    "misdirected_request",
    ERROR_NAMES.misdirected,
    `${ERROR_NAMES.misdirected}: this server does not answer to that Host; use its configured address (an operator adds names with SIGHTLINE_ALLOWED_HOSTS)`,
  );
}

/** 421 for a request whose Host is not one of this server's names (GET /health excepted). */
export function hostCheck(a: Addressing): AppMiddleware {
  return async (ctx, next) => {
    if (!(ctx.path === "/health" && ctx.method === "GET") && !a.hostAllowed(ctx.get("host") || undefined, ctx.req.socket.localPort ?? 0)) {
      throw misdirected();
    }
    await next();
  };
}

/** 403 (a JSON-RPC error) for a browser page's request to /mcp from an origin not configured. */
export function mcpOriginCheck(a: Addressing): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.errorStyle = "mcp";
    const origin = ctx.get("origin");
    if (origin && !a.mcpOriginAllowed(origin)) {
      throw new ContractError(
        "forbidden",
        "Origin not allowed",
        `Origin not allowed: ${origin.slice(0, 100)} may not use /mcp (MCP clients send no Origin; an operator allows browser origins with SIGHTLINE_ALLOWED_ORIGINS)`,
      );
    }
    await next();
  };
}
