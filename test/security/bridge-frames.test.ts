// Item 7 of issue 30, the bridge: before `hello` succeeds a socket may send only a few KB (so an
// unauthenticated peer cannot make the server buffer a 32 MB frame); after it, a message over
// SIGHTLINE_BRIDGE_MAX_MESSAGE closes the socket 1009 and the agent whose call it answered is
// told why, charged nothing. Real WebSocket clients, the real server, the real MCP client.
import { connect as tcpConnect, type Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIDGE_PATH } from "@sightline/shared/bridge";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { httpClient, textOf } from "../agent/mcp-client.js";
import type { BridgeHub } from "@sightline/server";
import { connectExtension, EXTENSION_ORIGIN, until } from "./fake-extension.js";

let sl: Sightline;
let key: string;

beforeAll(async () => {
  sl = await startSightline({ config: { bridgeMaxMessageBytes: 1024 * 1024 } });
  key = await sl.createKey(10);
});
afterAll(() => sl?.close());

/** A WebSocket handshake by hand, so the test can send a frame that is never finished. */
async function rawUpgrade(): Promise<{ socket: Socket; received: () => Buffer; ended: Promise<void> }> {
  const { port } = new URL(sl.origin);
  const socket = tcpConnect(Number(port), "127.0.0.1");
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("data", (d) => chunks.push(d));
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(
    `GET ${BRIDGE_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\nOrigin: ${EXTENSION_ORIGIN}\r\n\r\n`,
  );
  const start = Date.now();
  while (!Buffer.concat(chunks).includes("\r\n\r\n")) {
    if (Date.now() - start > 10_000) throw new Error("no handshake answer");
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(Buffer.concat(chunks).toString("latin1")).toMatch(/^HTTP\/1\.1 101/);
  chunks.length = 0;
  return { socket, received: () => Buffer.concat(chunks), ended };
}

/** The close code in a server close frame (0x88), if `data` starts with one. */
function closeCode(data: Buffer): number | null {
  return data.length >= 4 && data[0] === 0x88 ? data.readUInt16BE(2) : null;
}

describe("before hello", () => {
  it("closes a socket whose first frame is a 1 MB hello, valid key and all, without welcoming it", async () => {
    const ext = connectExtension(sl.origin, key, { hello: { pad: "x".repeat(1024 * 1024) } });
    const closed = await Promise.race([ext.closed, ext.welcomed.then(() => ({ code: 0, reason: "welcomed" }))]);
    expect(closed.code).toBe(1009);
    expect(closed.reason).toMatch(/at most 8 KB may be sent before hello/);
    expect(ext.isWelcomed()).toBe(false);
  });

  it("closes a socket sending a frame that announces 1 MB before the frame is done (nothing big is buffered)", async () => {
    const { socket, received, ended } = await rawUpgrade();
    // A masked text frame header announcing 1 MB, then 16 KB of it: never finished.
    const header = Buffer.alloc(14);
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(1024 * 1024), 2);
    randomBytes(4).copy(header, 10);
    socket.write(Buffer.concat([header, Buffer.alloc(16 * 1024, 0x20)]));
    await ended; // the server closed the connection, with the frame far from complete
    expect(closeCode(received())).toBe(1009);
  });

  it("still takes an ordinary hello and, after it, messages bigger than the before-hello allowance", async () => {
    const ext = connectExtension(sl.origin, key, { instance: "ordinary" });
    await ext.welcomed;
    // ~50 KB of tabs in one message
    ext.shareTabs(Array.from({ length: 200 }, (_, i) => ({ tab: String(i), url: `https://example.com/${"p".repeat(100)}/${i}`, title: "t".repeat(100), active: i === 0 })));
    const account = (await sl.server.ledger.authenticate(key))!.id;
    const hub = sl.server.bridge as BridgeHub;
    await until(() => {
      try {
        return hub.tabs(account).length === 200;
      } catch {
        return false;
      }
    });
    ext.ws.close();
  });
});

describe("after hello", () => {
  it("refuses a message over SIGHTLINE_BRIDGE_MAX_MESSAGE: the socket closes 1009 and the agent is told, uncharged", async () => {
    const ext = connectExtension(sl.origin, key, { instance: "big" });
    await ext.welcomed;
    ext.shareTabs([{ tab: "1", url: "https://shop.example/", title: "Shop", active: true }]);
    // The capture answer is 2 MB: over the 1 MB limit this server was given.
    ext.answerWith((c) =>
      c.op === "capture"
        ? { url: "https://shop.example/", raw_elements: [{ id: 1, tag: "button", text: "x".repeat(2 * 1024 * 1024), rect: { x: 0, y: 0, width: 10, height: 10 } }] }
        : { texts: [] },
    );
    const agent = await httpClient(sl.origin, key);
    try {
      const before = await sl.credits(key);
      const r = await agent.call("snapshot");
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/larger than the bridge's limit of 1 MB \(SIGHTLINE_BRIDGE_MAX_MESSAGE\)/);
      expect((await ext.closed).code).toBe(1009);
      expect(await sl.credits(key)).toBe(before);
    } finally {
      await agent.close();
    }
  });
});
