// A loopback forward proxy that every request of a browser context goes through (a render, or
// the headless MCP's context; Chromium: per-context `proxy`, with loopback forced through it by
// Playwright's `<-loopback>`).
// It sees the first request, every redirect hop, every subresource, fetch/XHR, and WebSocket
// tunnels (Chromium uses CONNECT for ws:// and wss:// behind a proxy), checks the destination
// with the host policy and connects to the exact address it checked. Route handlers would not
// do: Playwright does not call them for redirect hops, and Chromium would resolve DNS again.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { connect, type LookupFunction, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { EgressRefusal, resolveChecked, systemLookup, type Lookup, type ResolvedAddress } from "./guard.js";
import type { HostPolicy } from "./policy.js";

/** Chromium flags a proxied context needs so nothing leaves beside the proxy: WebRTC's UDP
 *  (STUN, TURN, peer connections) is limited to proxied UDP, of which there is none. */
export const PROXY_ONLY_CHROMIUM_ARGS = ["--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--webrtc-ip-handling-policy=disable_non_proxied_udp"];

/** Header on the proxy's own refusal responses, so the renderer can tell them from a site's 403. */
export const REFUSED_HEADER = "x-sightline-egress-refused";

export interface Refusal {
  /** `host:port` that was refused. */
  target: string;
  url: string | null;
  reason: EgressRefusal["reason"] | "upstream";
  message: string;
}

export interface EgressProxy {
  /** `http://HOST:PORT`, for the context's `proxy.server`. */
  server: string;
  /** Set when the proxy listens beyond loopback (remote browsers): the context must send them. */
  credentials: { username: string; password: string } | null;
  /** Destinations refused or unreachable so far, in order. */
  refusals: Refusal[];
  /** Requests and tunnels that were let through. */
  forwarded: number;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  lookup?: Lookup;
  /** Address to listen on (default 127.0.0.1). Any other address (remote browsers reach the
   *  proxy over the network) makes the proxy ask for random per-proxy credentials, so nobody
   *  else on that network can use it. */
  host?: string;
  /** Ask for credentials even on loopback (tests); default: only beyond loopback. */
  auth?: boolean;
}

const isLoopback = (host: string) => /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i.test(host);

// Per-connection headers that a proxy must not forward (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function forwardableHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : defaultPort;
  if (!(port > 0 && port < 65536)) return null;
  return { host: m[1], port };
}

/** A `lookup` for net/http that always answers the checked address (Node may ask for `all`). */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/** Starts a proxy on 127.0.0.1 (random port) that enforces `policy`. One per browser context. */
export async function startEgressProxy(policy: HostPolicy, opts: EgressProxyOptions = {}): Promise<EgressProxy> {
  const host = opts.host ?? "127.0.0.1";
  const credentials = !(opts.auth ?? !isLoopback(host)) ? null : { username: "sightline", password: randomBytes(18).toString("base64url") };
  const expectedAuth = credentials ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}` : null;
  const authorized = (req: IncomingMessage) => !expectedAuth || req.headers["proxy-authorization"] === expectedAuth;
  const AUTH_REQUIRED = 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="sightline"\r\nContent-Length: 0\r\n\r\n';
  // One answer per host for the proxy's life (one render): repeated requests to a host skip
  // the resolver, and every request of the page to that host goes to the same checked address.
  const resolve = opts.lookup ?? systemLookup;
  const answers = new Map<string, Promise<ResolvedAddress[]>>();
  const lookup: Lookup = (host) => {
    let answer = answers.get(host);
    if (!answer) {
      answer = resolve(host);
      answers.set(host, answer);
    }
    return answer;
  };
  const refusals: Refusal[] = [];
  const sockets = new Set<Duplex>();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let forwarded = 0;

  const track = (s: Duplex) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  };

  const refuse = (target: string, url: string | null, err: unknown): Refusal => {
    const r: Refusal =
      err instanceof EgressRefusal
        ? { target, url, reason: err.reason, message: err.message }
        : { target, url, reason: "upstream", message: `${target} could not be reached (${(err as Error)?.message ?? err})` };
    refusals.push(r);
    return r;
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req)) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="sightline"' }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== "http:") {
      const r = refuse(url.host, url.href, new EgressRefusal(url.hostname, "scheme", `${url.protocol} is not proxied`));
      res.writeHead(403, { [REFUSED_HEADER]: r.reason, "content-type": "text/plain" }).end(r.message);
      return;
    }
    const port = url.port ? Number(url.port) : 80;
    const target = `${url.hostname}:${port}`;
    let pinned;
    try {
      pinned = await resolveChecked(url.hostname, policy, lookup);
    } catch (err) {
      const r = refuse(target, url.href, err);
      res.writeHead(r.reason === "unresolvable" ? 502 : 403, { [REFUSED_HEADER]: r.reason, "content-type": "text/plain" }).end(r.message);
      return;
    }
    forwarded++;
    const upstream = httpRequest({
      agent,
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardableHeaders(req.rawHeaders),
      setHost: false,
      // Connect to the address that was checked, not to a fresh DNS answer.
      lookup: pinnedLookup(pinned),
    });
    upstream.on("response", (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardableHeaders(up.rawHeaders));
      up.pipe(res);
      up.on("error", () => res.destroy());
    });
    let clientGone = false;
    upstream.on("error", (err) => {
      // Cut off because the browser went away (closed the page, or died): not a refusal.
      if (clientGone) return;
      const r = refuse(target, url.href, err);
      if (!res.headersSent) {
        res.writeHead(502, { [REFUSED_HEADER]: r.reason, "content-type": "text/plain" }).end(r.message);
      } else res.destroy();
    });
    req.pipe(upstream);
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
  };

  const onConnect = async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    if (!authorized(req)) {
      client.end(AUTH_REQUIRED);
      return;
    }
    const hp = splitHostPort(req.url ?? "", 443);
    if (!hp) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const target = `${hp.host}:${hp.port}`;
    let pinned;
    try {
      pinned = await resolveChecked(hp.host, policy, lookup);
    } catch (err) {
      const r = refuse(target, null, err);
      client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: ${r.reason}\r\n\r\n`);
      return;
    }
    forwarded++;
    const upstream: Socket = connect({ host: pinned.address, port: hp.port, family: pinned.family });
    track(upstream);
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (err) => {
      refuse(target, null, err);
      if (client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      client.destroy();
    });
    client.on("close", () => upstream.destroy());
  };

  const server = createServer((req, res) => {
    onRequest(req, res).catch(() => res.destroy());
  });
  server.on("connect", (req, socket, head) => {
    onConnect(req, socket, head).catch(() => socket.destroy());
  });
  // Plain-HTTP upgrades are not how Chromium proxies WebSockets; refuse anything else.
  server.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 403 Forbidden\r\n\r\n"));
  server.on("connection", (s: Socket) => track(s));
  server.on("clientError", (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    credentials,
    refusals,
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
