// GET /v1/bridge (WebSocket upgrade): where the extension connects. Not a Koa route: the
// upgrade is taken from the HTTP server before Koa sees it. Only the extension may open it:
// a request with an Origin other than chrome-extension:// or moz-extension:// (every web page
// sends its own) is refused before the handshake; the key comes in the first message.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { BRIDGE_PATH } from "@sightline/shared/bridge";
import type { Logger } from "pino";
import type { BridgeHub } from "../bridge/hub.js";

/** Frames bigger than this are refused (a screenshot PNG in base64 is the largest answer). */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;

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

export function attachBridgeRoute(server: Server, deps: { bridge: BridgeHub; logger: Logger }): BridgeRoute {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== BRIDGE_PATH) {
      refuse(socket, 404, "Not Found");
      return;
    }
    if (!allowedBridgeOrigin(req.headers.origin)) {
      deps.logger.warn({ origin: req.headers.origin }, "bridge: refused a connection from a web origin");
      refuse(socket, 403, "Forbidden");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const h = deps.bridge.accept(ws);
      ws.on("message", (data, isBinary) => {
        if (isBinary) ws.close(4400, "text frames only");
        else h.message(data.toString());
      });
      ws.on("close", () => h.closed());
      ws.on("error", () => ws.terminate());
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
