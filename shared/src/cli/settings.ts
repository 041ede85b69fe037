// Where the CLI finds the server and its key: SIGHTLINE_BASE_URL (default
// http://127.0.0.1:8787) and SIGHTLINE_API_KEY. For a local server started with `npm start`,
// the development key it keeps in <SIGHTLINE_DATA_DIR or ./data>/dev-key is used when
// SIGHTLINE_API_KEY is not set, so `npx sightline ...` works right after `npm start`.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_BASE_URL } from "../playwright/env.js";

export interface CliSettings {
  baseUrl: string;
  apiKey: string | undefined;
  /** Where the key came from, for messages. */
  keySource: "env" | "dev-key" | "none";
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function cliSettings(env: NodeJS.ProcessEnv, cwd: string): CliSettings {
  const baseUrl = env.SIGHTLINE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  const key = env.SIGHTLINE_API_KEY?.trim();
  if (key) return { baseUrl, apiKey: key, keySource: "env" };
  let host = "";
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // An invalid base URL is reported when it is used.
  }
  if (LOOPBACK.has(host)) {
    const file = join(resolve(cwd, env.SIGHTLINE_DATA_DIR?.trim() || "data"), "dev-key");
    try {
      const dev = readFileSync(file, "utf8").trim();
      if (dev) return { baseUrl, apiKey: dev, keySource: "dev-key" };
    } catch {
      // No local development key: fall through.
    }
  }
  return { baseUrl, apiKey: undefined, keySource: "none" };
}
