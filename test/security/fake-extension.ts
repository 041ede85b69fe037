// A scripted extension on a real WebSocket to the real server's /v1/bridge (as
// test/agent/bridge.test.ts uses it): says hello, shares tabs, answers calls with whatever the
// test scripts, including what a hostile or broken extension would send.
import WebSocket from "ws";
import type { AgentTab } from "@sightline/shared/agent";
import { BRIDGE_PATH, BRIDGE_PROTOCOL_VERSION, parseServerMessage, type CallMessage } from "@sightline/shared/bridge";

export const EXTENSION_ORIGIN = "chrome-extension://abcdefghijklmnop";

export interface FakeExtension {
  ws: WebSocket;
  calls: CallMessage[];
  /** How the socket ended: the close code and reason, or the HTTP status of a refused upgrade. */
  closed: Promise<{ code: number; reason: string }>;
  welcomed: Promise<void>;
  isWelcomed(): boolean;
  /** Sends a raw text frame. */
  sendRaw(text: string): void;
  shareTabs(tabs: AgentTab[]): void;
  /** Answers each call with the frame text `answer(call)` returns (a whole result message). */
  answerRaw(answer: (c: CallMessage) => string | Promise<string>): void;
  /** Answers each call with ok data. */
  answerWith(answer: (c: CallMessage) => unknown | Promise<unknown>): void;
}

export function wsUrl(origin: string): string {
  return `${origin.replace(/^http/, "ws")}${BRIDGE_PATH}`;
}

export function connectExtension(serverOrigin: string, key: string, opts: { instance?: string; origin?: string; hello?: Record<string, unknown> } = {}): FakeExtension {
  const ws = new WebSocket(wsUrl(serverOrigin), { origin: opts.origin ?? EXTENSION_ORIGIN });
  const calls: CallMessage[] = [];
  let answer: ((c: CallMessage) => string | Promise<string>) | null = null;
  let welcomed = false;
  let onWelcome!: () => void;
  const welcome = new Promise<void>((r) => (onWelcome = r));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on("unexpected-response", (_req, res) => resolve({ code: res.statusCode ?? 0, reason: "http" }));
    ws.on("error", () => undefined);
  });
  const sendRaw = (text: string) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(text);
  };
  ws.on("open", () =>
    sendRaw(JSON.stringify({ type: "hello", version: BRIDGE_PROTOCOL_VERSION, key, instance: opts.instance ?? "inst-a", ...opts.hello })),
  );
  ws.on("message", (raw) => {
    const msg = parseServerMessage(raw.toString());
    if (!msg) return;
    if (msg.type === "welcome") {
      welcomed = true;
      onWelcome();
    }
    if (msg.type === "ping") sendRaw(JSON.stringify({ type: "pong" }));
    if (msg.type === "call") {
      calls.push(msg);
      if (answer) void Promise.resolve(answer(msg)).then(sendRaw);
    }
  });
  return {
    ws,
    calls,
    closed,
    welcomed: welcome,
    isWelcomed: () => welcomed,
    sendRaw,
    shareTabs: (tabs) => sendRaw(JSON.stringify({ type: "tabs", tabs })),
    answerRaw: (fn) => (answer = fn),
    answerWith: (fn) =>
      (answer = async (c) => JSON.stringify({ type: "result", id: c.id, ok: true, data: await fn(c) })),
  };
}

/** Resolves once `check` is true (polled), or fails after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
