// The headless MCP (`sightline mcp --headless`) goes only where /v1/observe may: the same host
// policy and egress proxy, for the agent's navigations, every redirect hop and every
// subresource. The attacker is a page (or instructions injected into it) steering the agent to
// loopback, the intranet or the cloud metadata address, then asking it to `read`.
//
// Fixture servers on loopback only: `site` (127.0.0.1) is the one host the test opens with
// SIGHTLINE_ALLOW_PRIVATE_HOSTS; `refused` (127.0.0.2) and `refused6` ([::1]) are loopback
// hosts that stay refused, and their own request logs must stay empty. A name that resolves to
// loopback is tested in process, with the real MCP server and client over an in-memory pipe and
// a fake resolver (no DNS can be used here). On the bridge path (the person's own tab), the
// server checks navigate with the same policy before relaying it to the extension, here a
// scripted one on the real WebSocket, reached by a real MCP client through POST /mcp.
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import WebSocket from "ws";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AgentSession } from "@sightline/shared/agent";
import { HeadlessBackend, createMcpServer, localRefine } from "@sightline/shared/mcp";
import { parseAllowList, type Lookup } from "@sightline/shared/net";
import { BRIDGE_PATH, BRIDGE_PROTOCOL_VERSION, parseServerMessage, type CallMessage } from "@sightline/shared/bridge";
import { observeConfig } from "../../server/src/observe/index.js";
import { CLI, httpClient, stdioClient, textOf, type McpClient } from "../agent/mcp-client.js";
import { launchChromium } from "../support/chromium.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";

interface LoggedServer {
  host: string;
  port: number;
  /** `http://host:port` (IPv6 hosts in brackets). */
  origin: string;
  /** `path` of every request received, in order: what was really fetched. */
  requests: string[];
  close(): Promise<void>;
}

type Page = (path: string, self: LoggedServer) => { status?: number; headers?: Record<string, string>; body?: string } | null;

async function logged(host: string, page: Page): Promise<LoggedServer> {
  const requests: string[] = [];
  const self = {} as LoggedServer;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    const r = page(path, self) ?? { body: `<!doctype html><title>${path}</title><p>Secret of ${host}: ${path}</p>` };
    res.writeHead(r.status ?? 200, { "content-type": "text/html; charset=utf-8", ...r.headers }).end(r.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(self, {
    host,
    port,
    origin: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let site: LoggedServer; // 127.0.0.1: allowed for the test
let refused: LoggedServer; // 127.0.0.2: loopback, refused
let refused6: LoggedServer; // [::1]: loopback, refused
let mcp: McpClient; // sightline mcp --headless --allow-private-hosts 127.0.0.1

const sitePage: Page = (path, self) => {
  if (path === "/redirect-out") return { status: 302, headers: { location: `${refused.origin}/redirect-target` } };
  if (path === "/redirect-in") return { status: 302, headers: { location: "/article" } };
  if (path === "/article") return { body: "<!doctype html><title>Article</title><h1>Lighthouses</h1><p>A public page.</p>" };
  if (path === "/leaky") {
    // Every way a page makes the browser ask: image, frame, stylesheet, script, fetch, beacon,
    // a form post, on the refused hosts and on localhost / [::127.0.0.1] aliases of the allowed one.
    return {
      body: `<!doctype html><title>Leaky</title>
        <img src="${refused.origin}/img.png"><img src="/ok.png">
        <img src="http://[::127.0.0.1]:${self.port}/compat.png">
        <iframe src="${refused6.origin}/frame"></iframe>
        <link rel="stylesheet" href="http://localhost:${self.port}/via-localhost.css">
        <script src="${refused.origin}/script.js"></script>
        <p id="status">loading</p>
        <a id="out" href="${refused.origin}/clicked">Open the admin console</a>
        <script>
          Promise.allSettled([
            fetch("${refused.origin}/fetch"),
            fetch("${refused6.origin}/fetch6"),
            fetch("http://169.254.169.254/latest/meta-data/", { mode: "no-cors" }),
          ]).then(() => { navigator.sendBeacon("${refused.origin}/beacon", "x"); document.getElementById("status").textContent = "Leaky loaded"; });
        </script>`,
    };
  }
  return null;
};

const secretPage: Page = () => null;

beforeAll(async () => {
  [refused, refused6] = await Promise.all([logged("127.0.0.2", secretPage), logged("::1", secretPage)]);
  site = await logged("127.0.0.1", sitePage);
  // (SIGHTLINE_ALLOW_PRIVATE_HOSTS, the same list by environment, is what test/agent/headless.test.ts uses)
  mcp = await stdioClient(["--headless", "--allow-private-hosts", "127.0.0.1"]);
});

afterAll(async () => {
  await mcp?.close();
  await Promise.all([site?.close(), refused?.close(), refused6?.close()]);
});

const structured = (r: CallToolResult) => (r.structuredContent ?? {}) as Record<string, unknown>;

async function currentUrl(client: McpClient): Promise<string> {
  const tabs = structured(await client.call("tabs")).tabs as { url: string; active: boolean }[];
  return tabs.find((t) => t.active)?.url ?? "";
}

describe("sightline mcp --headless: navigate", () => {
  it.each([
    ["127.0.0.2", () => `${refused.origin}/nav`, /127\.0\.0\.2 is a loopback address/],
    ["localhost", () => `http://localhost:${site.port}/nav-localhost`, /localhost is a loopback name/],
    ["a *.localhost name", () => `http://intranet.localhost:${site.port}/nav-sub`, /intranet\.localhost is a loopback name/],
    ["[::1]", () => `${refused6.origin}/nav6`, /::1 is a loopback address/],
    ["[::127.0.0.1] (IPv4-compatible)", () => `http://[::127.0.0.1]:${site.port}/nav-compat`, /loopback address \(127\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["[::ffff:127.0.0.2] (IPv4-mapped)", () => `http://[::ffff:127.0.0.2]:${refused.port}/nav-mapped`, /loopback address \(127\.0\.0\.2 in IPv4-mapped IPv6\)/],
    ["2130706433 (127.0.0.1 as a number)", () => `http://2130706433:${site.port}/nav-number`, /non-canonical spelling of 127\.0\.0\.1/],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a link-local \(cloud metadata\) address/],
    ["[::169.254.169.254]", () => "http://[::169.254.169.254]/latest/meta-data/", /link-local \(cloud metadata\) address \(169\.254\.169\.254 in IPv4-compatible IPv6\)/],
    ["10.0.0.1", () => "http://10.0.0.1/", /10\.0\.0\.1 is a private \(RFC 1918\) address/],
  ])("refuses %s with a bad_url tool error, and nothing is requested", async (_name, url, why) => {
    const before = await currentUrl(mcp);
    const r = await mcp.call("navigate", { url: url() });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^bad_url: Invalid URL: /);
    expect(textOf(r)).toMatch(why);
    expect(textOf(r)).toMatch(/SIGHTLINE_ALLOW_PRIVATE_HOSTS/);
    expect(await currentUrl(mcp)).toBe(before);
    expect(refused.requests).toEqual([]);
    expect(refused6.requests).toEqual([]);
    expect(site.requests.filter((p) => p.startsWith("/nav"))).toEqual([]);
  });

  it("goes to the allowed host, and follows a redirect that stays on allowed hosts", async () => {
    const r = await mcp.call("navigate", { url: `${site.origin}/redirect-in` });
    expect(r.isError).toBeFalsy();
    expect(structured(r)).toMatchObject({ outcome: "navigated", url: `${site.origin}/article` });
    expect(textOf(await mcp.call("read"))).toContain("A public page.");
  });

  it("refuses a redirect from the allowed page to a refused host, which is never requested", async () => {
    const r = await mcp.call("navigate", { url: `${site.origin}/redirect-out` });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^bad_url: Invalid URL: the page redirected to http:\/\/127\.0\.0\.2:\d+\/redirect-target, and it is refused: .*127\.0\.0\.2 is a loopback address/);
    expect(site.requests).toContain("/redirect-out");
    expect(refused.requests).toEqual([]);
    // What the tab shows is Sightline's refusal, never the refused host's page.
    expect(textOf(await mcp.call("read"))).not.toContain("Secret of");
  });
});

describe("sightline mcp --headless: what a page asks for", () => {
  it("loads the allowed page but none of its requests to refused hosts", async () => {
    site.requests.length = 0;
    const r = await mcp.call("navigate", { url: `${site.origin}/leaky` });
    expect(structured(r).outcome).toBe("navigated");
    expect(structured(await mcp.call("wait", { text: "Leaky loaded", timeout_ms: 10_000 }))).toMatchObject({ found: true });
    expect(site.requests).toEqual(expect.arrayContaining(["/leaky", "/ok.png"])); // the control
    expect(site.requests).not.toContain("/via-localhost.css");
    expect(site.requests).not.toContain("/compat.png");
    expect(refused.requests).toEqual([]);
    expect(refused6.requests).toEqual([]);
  });

  it("a click on a link to a refused host answers bad_url, and the host is never requested", async () => {
    await mcp.call("navigate", { url: `${site.origin}/leaky` });
    const snap = textOf(await mcp.call("snapshot", { goal: "open the admin console" }));
    const id = Number(/^\[(\d+)\][^\n]*Open the admin console/m.exec(snap)?.[1]);
    const r = await mcp.call("click", { id });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^bad_url: Invalid URL: .*127\.0\.0\.2 is a loopback address/);
    expect(refused.requests).toEqual([]);
  });
});

describe("sightline mcp --headless on a person's machine", () => {
  it("refuses loopback by default, like /v1/observe", async () => {
    const strict = await stdioClient(["--headless"]);
    try {
      const r = await strict.call("navigate", { url: `${site.origin}/article-default` });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/127\.0\.0\.1 is a loopback address/);
      expect(textOf(r)).toMatch(/SIGHTLINE_ALLOW_PRIVATE_HOSTS, or sightline mcp --headless --allow-private-hosts/);
      expect(site.requests).not.toContain("/article-default");
    } finally {
      await strict.close();
    }
  });
});

describe("sightline mcp --headless --url", () => {
  it("refuses a start URL the policy refuses before a browser starts", () => {
    const r = spawnSync(process.execPath, [CLI, "mcp", "--headless", "--url", `http://[::127.0.0.1]:${site.port}/start`], {
      env: { PATH: process.env.PATH ?? "", CHROMIUM_PATH: "/nonexistent/chromium" }, // proves no launch was tried
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--url .*: Invalid URL: .*loopback address \(127\.0\.0\.1 in IPv4-compatible IPv6\)/);
    expect(site.requests).not.toContain("/start");
  });
});

describe("a name that resolves to loopback (in process, fake resolver)", () => {
  let browser: Browser;
  let backend: HeadlessBackend;
  let client: Client;
  let named: LoggedServer; // 127.0.0.1 again, reached as allowed.example
  // Only allowed.example is opened, by name; intranet.example looks public and points at 127.0.0.2.
  const dns: Lookup = async (host) => {
    const table: Record<string, string[]> = {
      "allowed.example": ["127.0.0.1"],
      "intranet.example": ["127.0.0.2"],
      "mixed.example": ["93.184.215.14", "127.0.0.2"],
    };
    const list = table[host];
    if (!list) throw new Error("ENOTFOUND");
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const);
  };
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    named = await logged("127.0.0.1", (path) =>
      path === "/home"
        ? {
            body: `<!doctype html><title>Home</title><p id="s">wait</p>
              <img src="http://intranet.example:${refused.port}/by-name.png">
              <script>fetch("http://mixed.example:${refused.port}/mixed").catch(() => {}).finally(() => { document.getElementById("s").textContent = "Home loaded"; });</script>`,
          }
        : path === "/hop"
          ? { status: 302, headers: { location: `http://intranet.example:${refused.port}/hop-target` } }
          : null,
    );
    browser = await launchChromium();
    backend = await HeadlessBackend.start({ browser, policy: parseAllowList("allowed.example"), lookup: dns });
    const server = createMcpServer(new AgentSession({ backend, refine: localRefine(null) }), { backend: "headless", costs: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: "sightline-test", version: "1.0.0" });
    await client.connect(b);
  });

  afterAll(async () => {
    await client?.close();
    await backend?.close();
    await browser?.close();
    await named?.close();
  });

  it("refuses navigate to it, and to a name with any refused address", async () => {
    const r = await call("navigate", { url: `http://intranet.example:${refused.port}/by-name` });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^bad_url: Invalid URL: intranet\.example resolves to 127\.0\.0\.2 is a loopback address/);
    const m = await call("navigate", { url: `http://mixed.example:${refused.port}/mixed-nav` });
    expect(textOf(m)).toMatch(/mixed\.example resolves to 127\.0\.0\.2 is a loopback address/);
    expect(refused.requests).toEqual([]);
  });

  it("reaches the name the policy opens, at the address it checked; its page's requests to the other name never leave", async () => {
    const r = await call("navigate", { url: `http://allowed.example:${named.port}/home` });
    expect(r.isError).toBeFalsy();
    expect(structured(r)).toMatchObject({ outcome: "navigated" });
    expect(structured(await call("wait", { text: "Home loaded", timeout_ms: 10_000 }))).toMatchObject({ found: true });
    expect(named.requests).toContain("/home");
    expect(refused.requests).toEqual([]);
  });

  it("refuses a redirect from the allowed name to the loopback one", async () => {
    const r = await call("navigate", { url: `http://allowed.example:${named.port}/hop` });
    expect(textOf(r)).toMatch(/the page redirected to http:\/\/intranet\.example:\d+\/hop-target, and it is refused: intranet\.example resolves to 127\.0\.0\.2 is a loopback address/);
    expect(refused.requests).toEqual([]);
  });
});

describe("the bridge: navigate in the person's tab", () => {
  let sl: Sightline;
  let agent: McpClient;
  let ws: WebSocket;
  /** Every call the server relayed to the (scripted) extension. */
  const relayed: CallMessage[] = [];

  beforeAll(async () => {
    sl = await startSightline({ config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1" }) } });
    const key = await sl.createKey(10);
    ws = new WebSocket(`${sl.origin.replace(/^http/, "ws")}${BRIDGE_PATH}`, { origin: "chrome-extension://abcdefghijklmnop" });
    const send = (m: object) => ws.send(JSON.stringify(m));
    ws.on("open", () => send({ type: "hello", version: BRIDGE_PROTOCOL_VERSION, key, instance: "egress-test" }));
    ws.on("message", (raw) => {
      const msg = parseServerMessage(raw.toString());
      if (msg?.type === "welcome") send({ type: "tabs", tabs: [{ tab: "1", url: `${site.origin}/article`, title: "Article", active: true }] });
      if (msg?.type === "ping") send({ type: "pong" });
      if (msg?.type === "call") {
        relayed.push(msg);
        // The person says no: enough to show the call reached the browser.
        send({ type: "result", id: msg.id, ok: false, error: { code: "rejected", message: "the person rejected it" } });
      }
    });
    agent = await httpClient(sl.origin, key);
    const end = Date.now() + 10_000;
    while (!((structured(await agent.call("tabs")).tabs as unknown[]) ?? []).length) {
      if (Date.now() > end) throw new Error("the scripted extension's tab never showed");
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    await agent?.close();
    ws?.close();
    await sl?.close();
  });

  it.each([
    ["127.0.0.2", () => `${refused.origin}/b`, /127\.0\.0\.2 is a loopback address/],
    ["localhost", () => `http://localhost:${site.port}/b`, /localhost is a loopback name/],
    ["[::127.0.0.1]", () => `http://[::127.0.0.1]:${site.port}/b`, /loopback address \(127\.0\.0\.1 in IPv4-compatible IPv6\)/],
    ["[::1]", () => `${refused6.origin}/b`, /::1 is a loopback address/],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/", /link-local \(cloud metadata\)/],
    ["10.0.0.1", () => "http://10.0.0.1/", /private \(RFC 1918\)/],
    ["0x7f000001", () => `http://0x7f000001:${site.port}/b`, /non-canonical spelling of 127\.0\.0\.1/],
  ])("refuses %s before relaying it: no approval card, nothing sent to the browser", async (_name, url, why) => {
    const before = relayed.length;
    const r = await agent.call("navigate", { url: url() });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^bad_url: Invalid URL: /);
    expect(textOf(r)).toMatch(why);
    expect(textOf(r)).toMatch(/SIGHTLINE_ALLOW_PRIVATE_HOSTS/);
    expect(relayed.slice(before).filter((c) => c.op === "act")).toEqual([]);
  });

  it("relays a navigate the policy allows (the control)", async () => {
    const r = await agent.call("navigate", { url: `${site.origin}/article` });
    expect(textOf(r)).toMatch(/^rejected:/);
    expect(relayed.at(-1)).toMatchObject({ op: "act", args: { action: { kind: "navigate", url: `${site.origin}/article` } } });
  });
});
