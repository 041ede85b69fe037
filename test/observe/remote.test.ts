// Remote browsers (SIGHTLINE_BROWSER_ENDPOINTS): the observe pool connects to two browser
// servers (`npm run browser-server`, started here as child processes) instead of launching
// Chromium, spreads renders over them, and keeps the egress proxy's host policy. A browser
// server killed with SIGKILL mid-render fails that render cleanly (502, uncharged); the next
// render goes to the other server, and the killed one is used again once it is back.
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { requireBuild, SERVE_JS, SKIP_UNBUILT } from "../server/process.js";
import { FIXTURES, observe, observePool, until } from "./helpers.js";


function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface BrowserServer {
  proc: ChildProcess;
  endpoint: string;
}

/** `node server/dist/browser/serve.js` on a fixed port and path (so a restart has the same endpoint). */
function startBrowserServer(port: number, wsPath: string): Promise<BrowserServer> {
  requireBuild();
  const proc = spawn(process.execPath, [SERVE_JS], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), SIGHTLINE_BROWSER_WS_PATH: wsPath },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`browser server did not start:\n${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const endpoint = /^(ws:\/\/\S+)$/m.exec(out)?.[1];
      if (endpoint) {
        clearTimeout(timer);
        resolve({ proc, endpoint });
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`browser server exited (${code}):\n${out}`));
    });
  });
}

const exited = (p: ChildProcess) => (p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => p.once("exit", () => r())));

/** Chromium processes started by browser servers (they carry the marker flag). */
function serverChromiums(): number {
  try {
    return execFileSync("pgrep", ["-f", "--", "--sightline-browser-server"], { encoding: "utf8" }).trim().split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe.skipIf(SKIP_UNBUILT)("observe on remote browser servers", () => {
  let sl: Sightline;
  let key: string;
  let site: StaticServer;
  let other: StaticServer;
  const ports: number[] = [];
  const servers: BrowserServer[] = [];
  let slowAsked: () => void = () => undefined;

  beforeAll(async () => {
    other = await serveStatic(FIXTURES, [], "127.0.0.2");
    site = await serveStatic(FIXTURES, [
      (req, res) => {
        const path = new URL(req.url ?? "/", "http://x").pathname;
        if (path === "/redirect-out") {
          res.writeHead(302, { location: other.url("/article.html") }).end();
          return true;
        }
        if (path === "/slow.html") {
          slowAsked();
          setTimeout(() => res.writeHead(200, { "content-type": "text/html" }).end("<title>Slow</title><p>late</p>"), 8000);
          return true;
        }
        return false;
      },
    ]);
    ports.push(await freePort(), await freePort());
    servers.push(...(await Promise.all(ports.map((p, i) => startBrowserServer(p, `/test-${i}`)))));
    sl = await startSightline({
      config: {
        observe: observeConfig({ allowPrivateHosts: "127.0.0.1", spares: 0, browserEndpoints: servers.map((s) => s.endpoint) }),
      },
    });
    key = await sl.createKey(1000);
  });
  afterAll(async () => {
    await sl?.close();
    for (const s of servers) s.proc.kill("SIGTERM");
    await Promise.all(servers.map((s) => exited(s.proc)));
    await site?.close();
    await other?.close();
  });

  it("renders on the browser servers, spread over both, with nothing launched here", async () => {
    const replies = await Promise.all([0, 1].map(() => observe(sl, key, { url: site.url("/form.html") })));
    for (const r of replies) expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(observePool(sl).endpointStats().map((e) => e.connected)).toEqual([true, true]);
    expect(observePool(sl).browserPid(sl)).toBeNull(); // no local Chromium
    expect(await sl.credits(key)).toBe(998);
  });

  it("keeps the host policy: a redirect to a refused address is stopped by the egress proxy, uncharged", async () => {
    other.requests.length = 0;
    const before = await sl.credits(key);
    const { status, json } = await observe(sl, key, { url: site.url("/redirect-out") });
    expect(status).toBe(400);
    expect(json.error).toBe("Invalid URL");
    expect(other.requests).toEqual([]);
    expect(await sl.credits(key)).toBe(before);
  });

  it("a browser server killed mid-render: that render fails uncharged; the next goes to the other; the killed one is used again once back", async () => {
    const before = await sl.credits(key);
    const asked = new Promise<void>((r) => (slowAsked = r));
    const rendering = observe(sl, key, { url: site.url("/slow.html") });
    await asked; // the page is loading in a remote browser
    const busy = observePool(sl).endpointStats().findIndex((e) => e.running > 0);
    expect(busy).toBeGreaterThanOrEqual(0);
    const chromiums = serverChromiums();
    servers[busy].proc.kill("SIGKILL");
    const failed = await rendering;
    expect(failed.status, JSON.stringify(failed.json)).toBe(502);
    expect(failed.json.error_code).toBe("render_failed");
    expect(await sl.credits(key)).toBe(before);
    await exited(servers[busy].proc);
    // The killed server's Chromium does not outlive it (it exits when its pipe closes).
    if (chromiums > 0) await until(() => serverChromiums() < chromiums, 15_000); // (0: no pgrep here)

    const next = await observe(sl, key, { url: site.url("/form.html") });
    expect(next.status, JSON.stringify(next.json)).toBe(200);
    expect(observePool(sl).endpointStats()[busy].connected).toBe(false);
    expect(await sl.credits(key)).toBe(before - 1);
    expect(observePool(sl).stats()).toMatchObject({ openContexts: 0, openPages: 0 }); // nothing leaked

    // Back on the same endpoint: after the endpoint's retry pause the pool reconnects to it.
    servers[busy] = await startBrowserServer(ports[busy], `/test-${busy}`);
    await new Promise((r) => setTimeout(r, 3100));
    const renders = await Promise.all([0, 1].map(() => observe(sl, key, { url: site.url("/form.html") })));
    for (const r of renders) expect(r.status).toBe(200);
    await until(() => observePool(sl).endpointStats().every((e) => e.connected), 10_000);
  }, 150_000); // renders, a kill and a browser server restart: slow on a loaded 2-core machine
});
