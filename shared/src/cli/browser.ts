// Headless Chromium for the snapshot command: Debian's /usr/bin/chromium or CHROMIUM_PATH
// (playwright-core does not download browsers).
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { PROXY_ONLY_CHROMIUM_ARGS } from "../net/index.js";
import { CliError, EXIT } from "./exit-codes.js";

// The headless MCP's context goes through the egress proxy: WebRTC must not go around it.
const ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", ...PROXY_ONLY_CHROMIUM_ARGS];

export async function launchBrowser(env: NodeJS.ProcessEnv): Promise<Browser> {
  const path = env.CHROMIUM_PATH?.trim() || "/usr/bin/chromium";
  if (!existsSync(path)) {
    throw new CliError(`Chromium not found at ${path}. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.`, EXIT.browser);
  }
  try {
    return await chromium.launch({ executablePath: path, headless: true, args: ARGS });
  } catch (err) {
    throw new CliError(`could not start Chromium at ${path}: ${(err as Error).message.split("\n")[0]}`, EXIT.browser);
  }
}
