// How tests launch Debian's Chromium with playwright-core (it cannot download its own browser).
import { chromium, type Browser, type LaunchOptions } from "playwright-core";
import { CHROMIUM_BASE_ARGS } from "../../server/src/browser/pool.js";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The server pool's base flags: keep Chromium off the (closed) network and quiet on 2 cores. */
export const CHROMIUM_ARGS: string[] = [...CHROMIUM_BASE_ARGS];

export function launchOptions(extra: LaunchOptions = {}): LaunchOptions {
  return { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, ...extra };
}

export function launchChromium(extra: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch(launchOptions(extra));
}
