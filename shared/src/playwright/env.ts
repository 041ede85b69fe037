// Client settings from the environment (Node callers: the CLI, the Playwright helpers).
import { Sightline } from "../client/index.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export interface EnvSettings {
  baseUrl: string;
  apiKey: string | undefined;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): EnvSettings {
  return { baseUrl: env.SIGHTLINE_BASE_URL || DEFAULT_BASE_URL, apiKey: env.SIGHTLINE_API_KEY || undefined };
}

/** A client from SIGHTLINE_BASE_URL / SIGHTLINE_API_KEY, or null when no key is set. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): Sightline | null {
  const s = settingsFromEnv(env);
  return s.apiKey ? new Sightline({ baseUrl: s.baseUrl, apiKey: s.apiKey }) : null;
}
