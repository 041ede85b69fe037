// A loopback static file server for fixture pages; stops itself when the test ends.
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { AddressInfo } from "node:net";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

export interface StaticServer {
  /** e.g. http://127.0.0.1:43121 */
  origin: string;
  url(path: string): string;
  /** Paths requested so far, in order (to prove a resource was or was not fetched). */
  requests: string[];
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** Serves `dir` on 127.0.0.1 at a free port. `routes` may answer a request first (return true). */
export async function serveStatic(dir: string, routes: Route[] = [], host = "127.0.0.1"): Promise<StaticServer> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(path);
    for (const route of routes) if (await route(req, res)) return;
    const file = normalize(join(dir, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(normalize(dir))) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  return {
    origin,
    url: (p) => `${origin}${p.startsWith("/") ? p : `/${p}`}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
