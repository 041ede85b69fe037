// `npm run browser-server`: a Playwright browser server for SIGHTLINE_BROWSER_ENDPOINTS, with
// the Chromium flags Sightline renders with (CHROMIUM_ARGS: no network path but the per-render
// egress proxy, no WebRTC UDP, no background traffic). Prints its ws:// endpoint on a line of
// its own; stops on SIGINT/SIGTERM.
//
//   HOST=10.0.0.5 PORT=3111 npm run browser-server
//
// The endpoint's path is a random token and the only credential a Playwright server has: keep
// the port on a private network that only Sightline instances reach. Environment: HOST
// (default 127.0.0.1), PORT (default 0: any free port), CHROMIUM_PATH, SIGHTLINE_BROWSER_WS_PATH
// (to keep the same endpoint across restarts).
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./pool.js";

async function main(): Promise<void> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH?.trim() || "/usr/bin/chromium",
    headless: true,
    // The marker finds this server's Chromium among the processes (tests, ops).
    args: [...CHROMIUM_ARGS, "--sightline-browser-server"],
    host: process.env.HOST?.trim() || "127.0.0.1",
    port: Number(process.env.PORT ?? 0) || 0,
    wsPath: process.env.SIGHTLINE_BROWSER_WS_PATH?.trim() || `/sightline-${randomBytes(12).toString("base64url")}`,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.stdout.write(`Sightline browser server (Chromium ${CHROMIUM_ARGS.length} flags), endpoint:\n${server.wsEndpoint()}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`browser-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
