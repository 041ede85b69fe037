// Backend settings, kept in chrome.storage.local: readable by the extension's own pages only
// (never injected into or sent to a web page).
import { browser } from "wxt/browser";

export interface Settings {
  /** e.g. http://127.0.0.1:8787; empty means local mode. */
  backendUrl: string;
  apiKey: string;
  /** How many elements to ask for (snapshot `options.limit`). */
  limit: number;
}

export const DEFAULT_SETTINGS: Settings = { backendUrl: "", apiKey: "", limit: 50 };
const KEY = "sightline.settings";

export async function loadSettings(): Promise<Settings> {
  const got = (await browser.storage.local.get(KEY))[KEY] as Partial<Settings> | undefined;
  return { ...DEFAULT_SETTINGS, ...got };
}

export async function saveSettings(s: Settings): Promise<Settings> {
  const clean: Settings = {
    backendUrl: normalizeBackendUrl(s.backendUrl),
    apiKey: s.apiKey.trim(),
    limit: Math.min(100, Math.max(1, Math.round(s.limit) || DEFAULT_SETTINGS.limit)),
  };
  await browser.storage.local.set({ [KEY]: clean });
  return clean;
}

/** "host:8787/" → "http://host:8787"; throws a readable error for what is not an http(s) URL. */
export function normalizeBackendUrl(raw: string): string {
  const t = raw.trim();
  if (!t) return "";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new Error(`"${raw}" is not a URL. Example: http://127.0.0.1:8787`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("The backend URL must start with http:// or https://");
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
}

export function isApiConfigured(s: Settings): boolean {
  return !!s.backendUrl && !!s.apiKey;
}
