// POST /mcp on the real server with a real MCP client: authentication, sessions bound to their
// account, what each tool costs, and the stdio relay (`sightline mcp`) surviving a server
// restart. The person's browser is stood in for by a headless Chromium behind the server's
// Bridge interface (test/agent/extension.test.ts covers the real extension).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { HeadlessBackend } from "@sightline/shared/agent/headless";
import { parseAllowList } from "@sightline/shared/net";
import { TOOLS, type AgentBackend } from "@sightline/shared/agent";
import { launchChromium } from "../support/chromium.js";
import { near, pixelsAt } from "../extension/pixels.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { httpClient, idOf, stdioClient, textOf } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

let browser: Browser;
let headless: HeadlessBackend;
let site: AgentSite;
let server: Sightline;
/** The account whose "browser" is connected; every other account has none. */
let connectedAccount = "";
let key: string;
/** The server's log, at debug level: nothing secret may ever appear in it. */
const logLines: string[] = [];

const emptyBackend: AgentBackend = {
  tabs: async () => [],
  capture: () => Promise.reject(new Error("unreachable")),
  read: () => Promise.reject(new Error("unreachable")),
  screenshot: () => Promise.reject(new Error("unreachable")),
  act: () => Promise.reject(new Error("unreachable")),
  wait: () => Promise.reject(new Error("unreachable")),
};

/** An account whose browser lists a tab but fails every capture (a crashed renderer). */
let brokenAccount = "";
const brokenBackend: AgentBackend = {
  ...emptyBackend,
  tabs: async () => [{ tab: "t1", url: "https://example.test/", title: "Broken", active: true }],
  capture: () => Promise.reject(new Error("the tab's renderer crashed")),
};

const bridge = {
  backendFor: (account: string) => (account === connectedAccount ? headless : account === brokenAccount ? brokenBackend : emptyBackend),
  release: () => undefined,
  close: async () => undefined,
};

beforeAll(async () => {
  browser = await launchChromium();
  headless = await HeadlessBackend.start({ browser, policy: parseAllowList("127.0.0.1") }); // the fixture site is on loopback
  site = await serveAgentSite();
  server = await startSightline({ bridge, logLines, config: { logLevel: "debug" } });
  key = await server.createKey(100);
  connectedAccount = (await server.server.ledger.authenticate(key))!.id;
});

afterAll(async () => {
  await server?.close();
  await headless?.close();
  await browser?.close();
  await site?.close();
});

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};

async function post(headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${server.origin}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe("POST /mcp", () => {
  it("refuses a missing, unknown or deactivated key with a JSON-RPC error and the REST status", async () => {
    const none = await post({}, initialize);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001, message: expect.stringMatching(/API key/) } });
    expect((await post({ authorization: "Bearer sk_nope" }, initialize)).status).toBe(401);
    const off = await server.createKey(5, { active: false });
    expect((await post({ authorization: `Bearer ${off}` }, initialize)).status).toBe(403);
    // Not an initialize and no session: a JSON-RPC 400, not a crash.
    const stray = await post({ authorization: `Bearer ${key}` }, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(stray.status).toBe(400);
    expect(JSON.parse(stray.text).error.message).toMatch(/initialize/);
  });

  it("keeps a session to the key that opened it: another key gets 404", async () => {
    const mcp = await httpClient(server.origin, key);
    try {
      const session = mcp.transport.sessionId!;
      const other = await server.createKey(10);
      const res = await post({ authorization: `Bearer ${other}`, "mcp-session-id": session }, { jsonrpc: "2.0", id: 3, method: "tools/list" });
      expect(res.status).toBe(404);
      // The owner still can.
      expect((await mcp.client.listTools()).tools).toHaveLength(TOOLS.length);
    } finally {
      await mcp.close();
    }
  });

  it("charges snapshot like /v1/snapshot, actions nothing, and a failed call nothing", async () => {
    const mcp = await httpClient(server.origin, key);
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.find((t) => t.name === "snapshot")?.description).toMatch(/Costs 1 credit/);
      expect(tools.find((t) => t.name === "click")?.description).toMatch(/Free/);
      const start = await server.credits(key);
      await mcp.call("navigate", { url: site.url("/signup.html") });
      const snap = await mcp.call("snapshot", { goal: "sign up" });
      expect(snap.isError).toBeFalsy();
      expect(await server.credits(key)).toBe(start - 1);
      const typed = await mcp.call("type", { id: idOf(textOf(snap), /"Email"/), text: "bob@example.com" });
      expect(typed.structuredContent).toMatchObject({ outcome: "dom_changed" });
      expect(await server.credits(key)).toBe(start - 1);
      expect((await mcp.call("snapshot", { tab: "h999" })).isError).toBe(true);
      expect(await server.credits(key)).toBe(start - 1);
    } finally {
      await mcp.close();
    }
  });

  it("refunds a snapshot that fails after it was charged", async () => {
    const broken = await server.createKey(10);
    brokenAccount = (await server.server.ledger.authenticate(broken))!.id;
    const mcp = await httpClient(server.origin, broken);
    try {
      const failed = await mcp.call("snapshot", {});
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/renderer crashed/);
      expect(await server.credits(broken)).toBe(10);
    } finally {
      await mcp.close();
    }
  });

  it("shows another account none of this account's tabs", async () => {
    const other = await server.createKey(10);
    const mcp = await httpClient(server.origin, other);
    try {
      expect(textOf(await mcp.call("tabs"))).toBe("no tabs are shared with the agent");
      const snap = await mcp.call("snapshot", {});
      expect(snap.isError).toBe(true);
      expect(textOf(snap)).toMatch(/^no_tab:/);
      expect(await server.credits(other)).toBe(10);
    } finally {
      await mcp.close();
    }
  });
});

describe("secrets", () => {
  it("a password typed through the agent never reaches a server log or a screenshot", async () => {
    const mcp = await httpClient(server.origin, key);
    try {
      await mcp.call("navigate", { url: site.url("/signup.html") });
      const text = textOf(await mcp.call("snapshot", {}));
      const typed = await mcp.call("type", { id: idOf(text, /"Password"/), text: "s3cret-pass" });
      expect(JSON.stringify(typed)).not.toContain("s3cret");
      expect(JSON.stringify(await mcp.call("snapshot", { token_budget: 5000 }))).not.toContain("s3cret");
      const shot = await mcp.call("screenshot", {});
      const png = Buffer.from((shot.content[0] as { data: string }).data, "base64");
      // The field is covered by the opaque mask where its dots would be drawn.
      const page = browser.contexts()[0].pages()[0];
      const box = (await page.locator("input[name=password]").boundingBox())!;
      const decoder = await browser.newPage();
      const [left, middle] = await pixelsAt(decoder, png, [
        { x: box.x + 12, y: box.y + box.height / 2 },
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      ]);
      await decoder.close();
      expect(near(left, "#555555", 12)).toBe(true);
      expect(near(middle, "#555555", 12)).toBe(true);
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.join("\n")).not.toContain("s3cret");
    } finally {
      await mcp.close();
    }
  });
});

describe("sightline mcp (stdio relay to /mcp)", () => {
  it("relays tool calls, and keeps working after the server restarts", async () => {
    const port = server.server.port;
    const relay = await stdioClient([], { SIGHTLINE_BASE_URL: server.origin, SIGHTLINE_API_KEY: key });
    try {
      expect((await relay.client.listTools()).tools).toHaveLength(TOOLS.length);
      expect(textOf(await relay.call("tabs"))).toMatch(/^h\d+ \(active\) http/);
      // Restart on the same port and data dir: the server's MCP sessions are gone.
      const dataDir = server.dataDir;
      await server.server.close();
      server = await startSightline({ bridge, dataDir, config: { port } });
      const again = await relay.call("tabs");
      expect(again.isError, relay.stderr()).toBeFalsy();
      expect(textOf(again)).toMatch(/^h\d+ \(active\) http/);
    } finally {
      await relay.close();
    }
  });
});
