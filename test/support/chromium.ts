// How tests launch Debian's Chromium with playwright-core (it cannot download its own browser).
import { chromium, type Browser, type LaunchOptions } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Flags that keep Chromium off the (closed) network and quiet on a 2-core CI machine. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export function launchOptions(extra: LaunchOptions = {}): LaunchOptions {
  return { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, ...extra };
}

export function launchChromium(extra: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch(launchOptions(extra));
}
