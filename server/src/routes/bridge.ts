// GET /v1/bridge (WebSocket upgrade): where the extension connects. Not a Koa route: the
// upgrade is taken from the HTTP server before Koa sees it. Only the extension may open it:
// a request with an Origin other than chrome-extension:// or moz-extension:// (every web page
// sends its own) is refused before the handshake, as is a Host this server does not answer to
// (421, middleware/origins.ts); the key comes in the first message.
//
// Sizes: until its hello succeeded a socket may send PRE_HELLO_BYTES in all (a hello is well
// under 1 KB), counted on the raw socket so nothing bigger is ever buffered; past that it is
// closed 1009. Authenticated, each message may be up to SIGHTLINE_BRIDGE_MAX_MESSAGE; a bigger
// one closes the socket 1009 and fails the calls in flight with a message naming the limit.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { BRIDGE_PATH } from "@sightline/shared/bridge";
import type { Logger } from "pino";
import type { BridgeHub } from "../bridge/hub.js";
import { clientKey } from "../middleware/auth-failures.js";
import type { Addressing } from "../middleware/origins.js";

/** Bytes a socket may send before its hello succeeded (frame headers included). */
export const PRE_HELLO_BYTES = 8 * 1024;
/** WebSocket close code "Message Too Big" (RFC 6455). */
const TOO_BIG = 1009;

export function allowedBridgeOrigin(origin: string | undefined): boolean {
  return origin === undefined || /^(chrome-extension|moz-extension):\/\/[a-z0-9-]+\/?$/i.test(origin);
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

export interface BridgeRoute {
  /** Stops taking connections and closes the open ones (before server.close). */
  close(): Promise<void>;
}

export function attachBridgeRoute(server: Server, deps: { bridge: BridgeHub; logger: Logger; maxMessageBytes: number; addressing: Addressing }): BridgeRoute {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxMessageBytes, perMessageDeflate: false });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== BRIDGE_PATH) {
      refuse(socket, 404, "Not Found");
      return;
    }
    if (!deps.addressing.hostAllowed(req.headers.host, req.socket.localPort ?? 0)) {
      refuse(socket, 421, "Misdirected Request");
      return;
    }
    if (!allowedBridgeOrigin(req.headers.origin)) {
      deps.logger.warn({ origin: req.headers.origin }, "bridge: refused a connection from a web origin");
      refuse(socket, 403, "Forbidden");
      return;
    }
    const client = clientKey(req.socket.remoteAddress, req.headers.origin);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      // Counts what arrives before hello on the socket itself (ws would buffer a frame whole).
      let unheard = 0; // ws hands `head` back to the socket, so it is counted as it arrives
      const countBeforeHello = (chunk: Buffer) => {
        unheard += chunk.length;
        if (unheard <= PRE_HELLO_BYTES) return;
        socket.off("data", countBeforeHello);
        socket.pause(); // read no further
        h.oversized(PRE_HELLO_BYTES);
        ws.close(TOO_BIG, `at most ${PRE_HELLO_BYTES / 1024} KB may be sent before hello`);
        // Gone once the close frame is out (the write callback: it has been flushed).
        socket.write(Buffer.alloc(0), () => ws.terminate());
      };
      socket.on("data", countBeforeHello);
      const h = deps.bridge.accept(ws, { client, onHello: () => socket.off("data", countBeforeHello) });
      ws.on("message", (data, isBinary) => {
        if (isBinary) ws.close(4400, "text frames only");
        else h.message(data.toString());
      });
      ws.on("close", () => h.closed());
      ws.on("error", (err: Error & { code?: string }) => {
        if (err.code !== "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") return ws.terminate();
        // Over maxPayload: ws has sent 1009 and drops the rest; the peer gets a moment to close.
        h.oversized(deps.maxMessageBytes);
        setTimeout(() => ws.terminate(), 1000).unref();
      });
    });
  };
  server.on("upgrade", onUpgrade);
  let closing: Promise<void> | null = null;
  return {
    close: () =>
      (closing ??= (async () => {
        server.off("upgrade", onUpgrade);
        await deps.bridge.close();
        // The close frames (4503: reconnect later) get a moment to go out; then the rest goes.
        const open = [...wss.clients];
        await Promise.race([
          Promise.all(open.map((ws) => (ws.readyState === ws.CLOSED ? null : new Promise((r) => ws.once("close", r))))),
          new Promise((r) => setTimeout(r, 1000)),
        ]);
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })()),
  };
}
