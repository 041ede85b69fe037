// What the collector benches share: a loopback static server for a folder of pages and a
// Chromium launched with the server pool's base flags (run after the workspace build).
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { gunzipSync } from "node:zlib";
import { CHROMIUM_BASE_ARGS } from "../../server/dist/browser/pool.js";

const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml" };

/** Serves `dir` on 127.0.0.1 at a free port (a missing page.html from page.html.gz); resolves to { origin, close }. */
export async function serveDir(dir) {
  const base = normalize(dir);
  const server = createServer((req, res) => {
    const file = normalize(join(base, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    if (!file.startsWith(base)) return res.writeHead(403).end();
    let body;
    try {
      body = readFileSync(file);
    } catch {
      // A corpus keeps its pages gzipped (page.html.gz): served as page.html.
      try {
        body = gunzipSync(readFileSync(`${file}.gz`));
      } catch {
        return res.writeHead(404).end();
      }
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: [...CHROMIUM_BASE_ARGS] });
}
