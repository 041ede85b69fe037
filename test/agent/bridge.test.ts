// The server's bridge with a scripted extension on a real WebSocket: who may connect (origin,
// key, account), tabs per account, calls and their answers, progress, leases between agent
// sessions, a reconnect replacing its older socket, and shutdown. The real extension in real
// Chromium is test/agent/extension.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AgentError, type AgentTab } from "@sightline/shared/agent";
import { BRIDGE_PATH, BRIDGE_PROTOCOL_VERSION, CLOSE, parseServerMessage, type CallMessage } from "@sightline/shared/agent/bridge";
import type { BridgeHub } from "@sightline/server";
import { startSightline, type Sightline } from "../support/sightline-server.js";

let sl: Sightline;
let key: string;
let otherKey: string;

beforeAll(async () => {
  sl = await startSightline();
  [key, otherKey] = await Promise.all([sl.createKey(10), sl.createKey(10)]);
});
afterAll(() => sl?.close());

const wsUrl = () => `${sl.origin.replace(/^http/, "ws")}${BRIDGE_PATH}`;

interface FakeExtension {
  ws: WebSocket;
  calls: CallMessage[];
  closed: Promise<{ code: number; reason: string }>;
  welcome: Promise<void>;
  send(msg: object): void;
  shareTabs(tabs: AgentTab[]): Promise<void>;
  /** Answers every call with `answer(call)` (ok) or the error it throws. */
  answerWith(answer: (c: CallMessage) => unknown | Promise<unknown>): void;
}

function connect(k: string, instance = "inst-a", origin: string | undefined = "chrome-extension://abcdefghijklmnop"): FakeExtension {
  const ws = new WebSocket(wsUrl(), origin ? { origin } : {});
  const calls: CallMessage[] = [];
  let answer: ((c: CallMessage) => unknown) | null = null;
  let welcomed!: () => void;
  const welcome = new Promise<void>((r) => (welcomed = r));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on("unexpected-response", (_req, res) => resolve({ code: res.statusCode ?? 0, reason: "http" }));
    ws.on("error", () => undefined);
  });
  const send = (msg: object) => ws.send(JSON.stringify(msg));
  ws.on("open", () => send({ type: "hello", version: BRIDGE_PROTOCOL_VERSION, key: k, instance }));
  ws.on("message", (raw) => {
    const msg = parseServerMessage(raw.toString());
    if (!msg) throw new Error(`not a server message: ${raw.toString()}`);
    if (msg.type === "welcome") welcomed();
    if (msg.type === "ping") send({ type: "pong" });
    if (msg.type === "call") {
      calls.push(msg);
      if (!answer) return;
      Promise.resolve()
        .then(() => answer!(msg))
        .then(
          (data) => send({ type: "result", id: msg.id, ok: true, data }),
          (err: AgentError) => send({ type: "result", id: msg.id, ok: false, error: { code: err.code, message: err.message } }),
        );
    }
  });
  return {
    ws,
    calls,
    closed,
    welcome,
    send,
    async shareTabs(tabs) {
      send({ type: "tabs", tabs });
      // The hub has it once a round trip later: poll through the public surface.
      await until(() => hub().connected(accountOf(k)) && tabsOf(k).length === tabs.length);
    },
    answerWith(fn) {
      answer = fn;
    },
  };
}

async function until(ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const accounts = new Map<string, string>();
const accountOf = (k: string) => accounts.get(k)!;
const hub = () => sl.server.bridge as BridgeHub;
const tabsOf = (k: string) => {
  try {
    return hub().tabs(accountOf(k));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  for (const k of [key, otherKey]) accounts.set(k, (await sl.server.ledger.authenticate(k))!.id);
});

const tab = (id: string, url = "http://127.0.0.1/form"): AgentTab => ({ tab: id, url, title: "Form", active: true });

describe("who may open the bridge", () => {
  it("refuses a web page's origin before the handshake", async () => {
    const ext = connect(key, "x", "http://evil.example");
    expect((await ext.closed).code).toBe(403);
  });

  it("closes 4401 for an unknown key and 4403 for a deactivated account", async () => {
    expect((await connect("sk_nope", "y").closed).code).toBe(CLOSE.unauthorized);
    const dead = await sl.createKey(1, { active: false });
    expect((await connect(dead, "z").closed).code).toBe(CLOSE.forbidden);
  });

  it("closes 4400 when the first message is not a hello", async () => {
    const ws = new WebSocket(wsUrl());
    ws.on("open", () => ws.send(JSON.stringify({ type: "tabs", tabs: [] })));
    const code = await new Promise<number>((r) => ws.on("close", (c) => r(c)));
    expect(code).toBe(CLOSE.protocol);
  });
});

describe("tabs, calls and leases", () => {
  let ext: FakeExtension;
  beforeAll(async () => {
    ext = connect(key, "main");
    await ext.welcome;
    await ext.shareTabs([tab("7"), tab("9", "http://127.0.0.1/other")]);
  });

  it("lists the shared tabs with handles unique to the browser; another account sees none", async () => {
    const b = sl.server.bridge.backendFor(accountOf(key), "s1");
    const tabs = await b.tabs();
    expect(tabs.map((t) => t.tab)).toEqual([expect.stringMatching(/^b\d+\.7$/), expect.stringMatching(/^b\d+\.9$/)]);
    const other = sl.server.bridge.backendFor(accountOf(otherKey), "s9");
    await expect(other.tabs()).rejects.toMatchObject({ code: "not_connected" });
  });

  it("relays a call to the extension and its answer back, progress included", async () => {
    const progress: string[] = [];
    const b = sl.server.bridge.backendFor(accountOf(key), "s1");
    const [handle] = (await b.tabs()).map((t) => t.tab);
    ext.answerWith(async (c) => {
      if (c.op === "act") {
        ext.send({ type: "progress", id: c.id, message: "waiting for the person's approval" });
        await new Promise((r) => setTimeout(r, 50));
        return { outcome: "dom_changed", url: "http://127.0.0.1/form", method: "mouse" };
      }
      if (c.op === "read") return { url: "u", title: "t", description: "", content: "# hi" };
      throw new AgentError("failed", "no");
    });
    expect(await b.read(handle)).toMatchObject({ content: "# hi" });
    expect(ext.calls.at(-1)).toMatchObject({ op: "read", tab: "7" });
    const r = await b.act(handle, { kind: "click", id: 3 }, null, { onProgress: (m) => progress.push(m) });
    expect(r.outcome).toBe("dom_changed");
    expect(progress).toEqual(["waiting for the person's approval"]);
  });

  it("passes the extension's error codes on (a rejection stays a rejection)", async () => {
    const b = sl.server.bridge.backendFor(accountOf(key), "s1");
    const [handle] = (await b.tabs()).map((t) => t.tab);
    ext.answerWith(() => {
      throw new AgentError("rejected", "rejected by the person");
    });
    await expect(b.act(handle, { kind: "click", id: 3 }, null)).rejects.toMatchObject({ code: "rejected", message: "rejected by the person" });
  });

  it("an unshared tab handle is no_tab", async () => {
    const b = sl.server.bridge.backendFor(accountOf(key), "s1");
    await expect(b.capture("b1.12345")).rejects.toMatchObject({ code: "no_tab" });
    await expect(b.capture("nonsense")).rejects.toMatchObject({ code: "no_tab" });
  });

  it("a second agent session acting on a leased tab is busy, until the first releases it", async () => {
    ext.answerWith(() => ({ outcome: "nothing_changed", url: "u", method: "mouse" }));
    const a = sl.server.bridge.backendFor(accountOf(key), "agent-a");
    const b = sl.server.bridge.backendFor(accountOf(key), "agent-b");
    const handle = (await a.tabs())[1].tab;
    await a.act(handle, { kind: "press", key: "Tab" }, null);
    const err = await b.act(handle, { kind: "press", key: "Tab" }, null).catch((e: AgentError) => e);
    expect(err).toMatchObject({ code: "busy" });
    expect(String((err as Error).message)).toMatch(/another agent session/);
    sl.server.bridge.release("agent-a");
    await expect(b.act(handle, { kind: "press", key: "Tab" }, null)).resolves.toMatchObject({ outcome: "nothing_changed" });
    sl.server.bridge.release("agent-b");
  });

  it("a reconnect of the same extension replaces its older socket (4409) and keeps the handles", async () => {
    const before = tabsOf(key).map((t) => t.tab);
    const again = connect(key, "main");
    await again.welcome;
    expect((await ext.closed).code).toBe(CLOSE.replaced);
    await again.shareTabs([tab("7"), tab("9")]);
    expect(tabsOf(key).map((t) => t.tab)).toEqual(before);
    ext = again;
  });

  it("an agent giving up on a call cancels it in the extension (the person's card goes)", async () => {
    const cancels: string[] = [];
    ext.ws.on("message", (raw) => {
      const m = parseServerMessage(raw.toString());
      if (m?.type === "cancel") cancels.push(m.id);
    });
    ext.answerWith(() => new Promise(() => undefined)); // the person never decides
    sl.server.bridge.release("s1");
    const b = sl.server.bridge.backendFor(accountOf(key), "s-cancel");
    const [handle] = (await b.tabs()).map((t) => t.tab);
    const ac = new AbortController();
    const call = b.act(handle, { kind: "click", id: 1 }, null, { signal: ac.signal });
    await until(() => ext.calls.some((c) => c.op === "act" && !cancels.includes(c.id)));
    const id = ext.calls.filter((c) => c.op === "act").at(-1)!.id;
    ac.abort();
    await expect(call).rejects.toBeInstanceOf(AgentError);
    await until(() => cancels.includes(id));
    sl.server.bridge.release("s-cancel");
  });

  it("a call in flight when the browser goes away fails as not_connected", async () => {
    ext.answerWith(() => new Promise(() => undefined)); // never answers
    const b = sl.server.bridge.backendFor(accountOf(key), "s1");
    const [handle] = (await b.tabs()).map((t) => t.tab);
    const call = b.capture(handle);
    await expect.poll(() => ext.calls.filter((c) => c.op === "capture").length).toBe(1);
    ext.ws.terminate();
    await expect(call).rejects.toMatchObject({ code: "not_connected" });
  });
});

describe("shutdown", () => {
  it("closes the extension's socket with 4503 (reconnect later)", async () => {
    const own = await startSightline();
    const k = await own.createKey(1);
    const ws = new WebSocket(`${own.origin.replace(/^http/, "ws")}${BRIDGE_PATH}`);
    const welcome = new Promise<void>((r) => ws.on("message", () => r()));
    ws.on("open", () => ws.send(JSON.stringify({ type: "hello", version: BRIDGE_PROTOCOL_VERSION, key: k, instance: "i" })));
    await welcome;
    const closed = new Promise<number>((r) => ws.on("close", (c) => r(c)));
    const t0 = Date.now();
    await own.close();
    expect(await closed).toBe(CLOSE.shutdown);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
