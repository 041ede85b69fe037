// The extension's end of the bridge: one WebSocket to the Sightline server the person
// configured, opened by the background worker, authenticated by the hello message. It comes
// back by itself: backoff after a drop, a watchdog for a silent server, and an alarm that
// wakes the worker after it slept (the socket's traffic keeps it awake while connected).
import { browser } from "wxt/browser";
import {
  BRIDGE_PATH,
  BRIDGE_PROTOCOL_VERSION,
  CLOSE,
  HEARTBEAT_MS,
  parseServerMessage,
  type CallMessage,
  type ExtensionMessage,
} from "@sightline/shared/agent/bridge";
import type { AgentTab } from "@sightline/shared/agent/core";
import type { ConnectionState, ConnectionStatus } from "./state.js";

export interface ClientHooks {
  /** Server and key to use, or null to stay off (with why). */
  config(): Promise<{ backendUrl: string; apiKey: string } | { off: string }>;
  tabs(): Promise<AgentTab[]>;
  onCall(call: CallMessage, reply: Replier): void;
  onCancel(id: string): void;
  onState(state: ConnectionState): void;
}

export interface Replier {
  progress(message: string): void;
  ok(data: unknown): void;
  fail(code: string, message: string, detail?: Record<string, unknown>): void;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];
/** Disconnected longer than this: "lost" rather than "reconnecting" (it keeps trying). */
const LOST_AFTER_MS = 30_000;
export const ALARM = "sightline-bridge";

async function instanceId(): Promise<string> {
  const KEY = "sightline.instance";
  const got = (await browser.storage.local.get(KEY))[KEY];
  if (typeof got === "string" && got) return got;
  const id = crypto.randomUUID();
  await browser.storage.local.set({ [KEY]: id });
  return id;
}

export function bridgeUrl(backendUrl: string): string {
  return `${backendUrl.replace(/^http/i, "ws")}${BRIDGE_PATH}`;
}

export class BridgeClient {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private heartbeatMs = HEARTBEAT_MS;
  private downSince = 0;
  /** A refused key: no retries until the settings change. */
  private refused = false;
  state: ConnectionState = { status: "off", detail: "", since: Date.now() };

  constructor(private readonly hooks: ClientHooks) {}

  private set(status: ConnectionStatus, detail: string): void {
    if (this.state.status === status && this.state.detail === detail) return;
    this.state = { status, detail, since: status === this.state.status ? this.state.since : Date.now() };
    this.hooks.onState(this.state);
  }

  /** Connects when it should and is not (called on start, by the alarm, on any change). */
  async ensure(): Promise<void> {
    const cfg = await this.hooks.config();
    if ("off" in cfg) {
      this.stop(cfg.off);
      return;
    }
    if (this.refused) return;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    if (this.retryTimer) return; // a retry is scheduled
    await this.open(cfg.backendUrl, cfg.apiKey);
  }

  /** Settings changed: forget a refused key and start over. */
  async restart(): Promise<void> {
    this.refused = false;
    this.attempt = 0;
    this.closeSocket();
    this.clearRetry();
    await this.ensure();
  }

  stop(why: string): void {
    this.closeSocket();
    this.clearRetry();
    this.downSince = 0;
    this.set("off", why);
  }

  send(msg: ExtensionMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  async sendTabs(): Promise<void> {
    if (this.state.status === "connected") this.send({ type: "tabs", tabs: await this.hooks.tabs() });
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private closeSocket(): void {
    const ws = this.ws;
    this.ws = null;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    if (ws && ws.readyState !== WebSocket.CLOSED) {
      try {
        ws.close(1000, "bye");
      } catch {
        // already closing
      }
    }
  }

  private async open(backendUrl: string, apiKey: string): Promise<void> {
    const instance = await instanceId();
    if (this.ws) return;
    if (this.state.status !== "reconnecting" && this.state.status !== "lost") this.set("connecting", backendUrl);
    let ws: WebSocket;
    try {
      ws = new WebSocket(bridgeUrl(backendUrl));
    } catch (err) {
      this.scheduleRetry(String(err));
      return;
    }
    this.ws = ws;
    this.lastHeard = Date.now();
    ws.onopen = () => {
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: "hello", version: BRIDGE_PROTOCOL_VERSION, key: apiKey, instance }));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      const msg = parseServerMessage(String(ev.data));
      if (!msg) return;
      switch (msg.type) {
        case "welcome":
          this.attempt = 0;
          this.downSince = 0;
          this.heartbeatMs = msg.heartbeatMs || HEARTBEAT_MS;
          this.set("connected", backendUrl);
          void this.sendTabs();
          return;
        case "ping":
          this.send({ type: "pong" });
          return;
        case "call":
          this.hooks.onCall(msg, this.replier(ws, msg.id));
          return;
        case "cancel":
          this.hooks.onCancel(msg.id);
          return;
      }
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (this.watchdog) clearInterval(this.watchdog);
      this.watchdog = null;
      if (ev.code === CLOSE.unauthorized || ev.code === CLOSE.forbidden) {
        this.refused = true;
        this.set("lost", ev.code === CLOSE.unauthorized ? "the server does not know this API key: check Settings" : "this API key's account is deactivated");
        return;
      }
      if (ev.code === CLOSE.replaced) {
        // Another socket of this same extension took over (it should not happen; do not fight it).
        this.set("lost", "replaced by another connection of this extension");
        return;
      }
      this.scheduleRetry(ev.code === CLOSE.shutdown ? "the server restarted" : ev.reason || "connection closed");
    };
    ws.onerror = () => undefined; // onclose follows with the code
    // A server that stopped answering (no ping in three heartbeats): start over.
    this.watchdog = setInterval(() => {
      if (ws === this.ws && Date.now() - this.lastHeard > 3 * this.heartbeatMs) {
        this.closeSocket();
        this.scheduleRetry("no heartbeat from the server");
      }
    }, 5000);
  }

  private replier(ws: WebSocket, id: string): Replier {
    const send = (msg: ExtensionMessage) => {
      // A call answers on the socket it came from; after a reconnect the server forgot it.
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    };
    return {
      progress: (message) => send({ type: "progress", id, message }),
      ok: (data) => send({ type: "result", id, ok: true, data }),
      fail: (code, message, detail) => send({ type: "result", id, ok: false, error: { code: code as never, message, ...(detail ? { detail } : {}) } }),
    };
  }

  private scheduleRetry(why: string): void {
    if (!this.downSince) this.downSince = Date.now();
    const lost = Date.now() - this.downSince > LOST_AFTER_MS;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt++;
    this.set(lost ? "lost" : "reconnecting", `${why}; trying again in ${Math.round(delay / 1000) || 1} s`);
    this.clearRetry();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.ensure();
    }, delay);
  }
}
