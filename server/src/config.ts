// Environment → typed server configuration. Every variable is documented in the README's
// Configuration table; tests pass `overrides` instead of touching process.env.
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { SNAPSHOT_DEFAULT_CAP } from "@sightline/shared/contract";
import { DEFAULT_OBSERVE_CONFIG, readObserveConfig, type ObserveConfig } from "./observe/config.js";
import { parseRerankSetting, type RerankSetting } from "@sightline/shared/rank";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export interface ServerConfig {
  /** Interface to bind (HOST). */
  host: string;
  /** TCP port (PORT); 0 picks a free port. */
  port: number;
  /** Where the ledger and the development key live (SIGHTLINE_DATA_DIR), absolute. */
  dataDir: string;
  /** Server cap on /v1/snapshot `options.limit` (SIGHTLINE_SNAPSHOT_CAP). */
  snapshotCap: number;
  /** Requests per minute per API key, token bucket (SIGHTLINE_RATE_LIMIT); 0 turns it off. */
  rateLimitPerMinute: number;
  /** Largest request body in bytes (SIGHTLINE_BODY_LIMIT, e.g. "10mb"). */
  bodyLimitBytes: number;
  /** Failed authentications per minute per client before 429 (SIGHTLINE_AUTH_FAILURE_LIMIT); 0 turns it off. */
  authFailuresPerMinute: number;
  /** Largest message the extension may send over the bridge once authenticated (SIGHTLINE_BRIDGE_MAX_MESSAGE). */
  bridgeMaxMessageBytes: number;
  /** Open MCP sessions per account at most (SIGHTLINE_MCP_SESSIONS); the oldest idle one is closed for a new one. */
  mcpSessionsPerAccount: number;
  /** Host names requests may be addressed to besides the loopback names, the listen address and
   *  SIGHTLINE_PUBLIC_URL's host (SIGHTLINE_ALLOWED_HOSTS): `name`, `name:port`, `.suffix`, or `*`. */
  allowedHosts: string[];
  /** Browser origins allowed on /mcp (SIGHTLINE_ALLOWED_ORIGINS): exact origins, or `*`. */
  allowedOrigins: string[];
  /** Most raw elements (frames included) one snapshot may carry (SIGHTLINE_MAX_RAW_ELEMENTS). */
  maxRawElements: number;
  /** pino level (SIGHTLINE_LOG_LEVEL). */
  logLevel: LogLevel;
  /** Create and print a development key on `npm start` (SIGHTLINE_DEV_KEY=0 turns it off). */
  devKey: boolean;
  /** Credits given to the development key when it is created (SIGHTLINE_DEV_CREDITS). */
  devKeyCredits: number;
  /** Worker threads for /v1/snapshot's parse/validate/refine (SIGHTLINE_REFINE_WORKERS); 0 = main thread. */
  refineWorkers: number;
  /** The learned goal reranker: auto (when its model loads), on or off (SIGHTLINE_ML_RERANK; shared/src/rank/setting.ts). */
  mlRerank: RerankSetting;
  /** PostgreSQL for the ledger and the state instances share (SIGHTLINE_DATABASE_URL); null: the lowdb file. */
  databaseUrl: string | null;
  /** Database connections per instance at most (SIGHTLINE_DATABASE_POOL). */
  databasePoolSize: number;
  /** /v1/observe: browser pool, render timeout, egress policy, screenshot links (observe/config.ts). */
  observe: ObserveConfig;
}

export const DEFAULT_CONFIG: ServerConfig = {
  host: "127.0.0.1",
  port: 8787,
  dataDir: "./data",
  snapshotCap: SNAPSHOT_DEFAULT_CAP,
  rateLimitPerMinute: 600,
  bodyLimitBytes: 10 * 1024 * 1024,
  authFailuresPerMinute: 30,
  // A capture of a page with 50,000 elements is ~15 MB of JSON; a screenshot a few MB.
  bridgeMaxMessageBytes: 32 * 1024 * 1024,
  mcpSessionsPerAccount: 16,
  allowedHosts: [],
  allowedOrigins: [],
  maxRawElements: 50_000,
  logLevel: "info",
  devKey: true,
  devKeyCredits: 1000,
  // One per core (at most 4): the main thread only does I/O, auth and the ledger.
  refineWorkers: Math.min(4, availableParallelism()),
  mlRerank: "auto",
  databaseUrl: null,
  databasePoolSize: 10,
  observe: DEFAULT_OBSERVE_CONFIG,
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** "10mb", "512kb", "1048576" → bytes. */
export function parseBytes(raw: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(raw);
  if (!m) throw new ConfigError(`not a size: ${JSON.stringify(raw)} (use e.g. 10mb, 512kb or a byte count)`);
  const bytes = Math.floor(Number(m[1]) * UNITS[(m[2] ?? "b").toLowerCase()]);
  if (bytes < 1) throw new ConfigError(`size must be at least 1 byte: ${raw}`);
  return bytes;
}

function int(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function bool(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1/0 or true/false, got ${JSON.stringify(env[name])}`);
}

function rerankSetting(raw: string | undefined): RerankSetting {
  const setting = parseRerankSetting(raw);
  if (setting === null) throw new ConfigError(`SIGHTLINE_ML_RERANK must be 1/0 or true/false (or unset: use the model when it loads), got ${JSON.stringify(raw)}`);
  return setting;
}

function databaseUrl(raw: string | undefined): string | null {
  const url = raw?.trim();
  if (!url) return null;
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new ConfigError("SIGHTLINE_DATABASE_URL must be a postgres:// (or postgresql://) URL");
  return url;
}

/**
 * Reads the configuration from `env` (normally process.env); `overrides` win over both env
 * and defaults. Throws ConfigError naming the variable when a value is malformed.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const level = (env.SIGHTLINE_LOG_LEVEL ?? env.LOG_LEVEL ?? DEFAULT_CONFIG.logLevel).trim().toLowerCase();
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new ConfigError(`SIGHTLINE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
  }
  const fromEnv: ServerConfig = {
    host: env.HOST?.trim() || DEFAULT_CONFIG.host,
    port: int(env, "PORT", DEFAULT_CONFIG.port, 0, 65535),
    dataDir: env.SIGHTLINE_DATA_DIR?.trim() || DEFAULT_CONFIG.dataDir,
    snapshotCap: int(env, "SIGHTLINE_SNAPSHOT_CAP", DEFAULT_CONFIG.snapshotCap, 1),
    rateLimitPerMinute: int(env, "SIGHTLINE_RATE_LIMIT", DEFAULT_CONFIG.rateLimitPerMinute, 0),
    bodyLimitBytes: env.SIGHTLINE_BODY_LIMIT?.trim() ? parseBytes(env.SIGHTLINE_BODY_LIMIT) : DEFAULT_CONFIG.bodyLimitBytes,
    authFailuresPerMinute: int(env, "SIGHTLINE_AUTH_FAILURE_LIMIT", DEFAULT_CONFIG.authFailuresPerMinute, 0, 1_000_000),
    bridgeMaxMessageBytes: env.SIGHTLINE_BRIDGE_MAX_MESSAGE?.trim() ? parseBytes(env.SIGHTLINE_BRIDGE_MAX_MESSAGE) : DEFAULT_CONFIG.bridgeMaxMessageBytes,
    mcpSessionsPerAccount: int(env, "SIGHTLINE_MCP_SESSIONS", DEFAULT_CONFIG.mcpSessionsPerAccount, 1, 10_000),
    allowedHosts: hostList(env.SIGHTLINE_ALLOWED_HOSTS),
    allowedOrigins: originList(env.SIGHTLINE_ALLOWED_ORIGINS),
    maxRawElements: int(env, "SIGHTLINE_MAX_RAW_ELEMENTS", DEFAULT_CONFIG.maxRawElements, 1),
    logLevel: level as LogLevel,
    devKey: bool(env, "SIGHTLINE_DEV_KEY", DEFAULT_CONFIG.devKey),
    devKeyCredits: int(env, "SIGHTLINE_DEV_CREDITS", DEFAULT_CONFIG.devKeyCredits, 0),
    refineWorkers: int(env, "SIGHTLINE_REFINE_WORKERS", DEFAULT_CONFIG.refineWorkers, 0, 64),
    mlRerank: rerankSetting(env.SIGHTLINE_ML_RERANK),
    databaseUrl: databaseUrl(env.SIGHTLINE_DATABASE_URL),
    databasePoolSize: int(env, "SIGHTLINE_DATABASE_POOL", DEFAULT_CONFIG.databasePoolSize, 1, 1000),
    observe: readObserveConfig(env, (msg) => new ConfigError(msg)),
  };
  const config = { ...fromEnv, ...overrides };
  // On every interface the server cannot know by which name clients reach it, and must not
  // learn it from the request (links, Host checks): it has to be told.
  if (isWildcardHost(config.host) && !config.observe.publicUrl) {
    throw new ConfigError(
      `HOST=${config.host} listens on every interface: set SIGHTLINE_PUBLIC_URL to the URL clients use (its host is allowed and links are built from it), and SIGHTLINE_ALLOWED_HOSTS for any other name`,
    );
  }
  return { ...config, dataDir: resolve(config.dataDir) };
}

/** 0.0.0.0, :: and the like: every interface. */
export function isWildcardHost(host: string): boolean {
  const h = host.trim().replace(/^\[|\]$/g, "");
  return h === "" || h === "0.0.0.0" || /^[0:]+$/.test(h);
}

const list = (raw: string | undefined) =>
  (raw ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

function hostList(raw: string | undefined): string[] {
  const out = list(raw);
  for (const h of out) {
    if (h !== "*" && !/^(\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/.test(h)) {
      throw new ConfigError(`SIGHTLINE_ALLOWED_HOSTS takes host names, name:port, .suffixes or *, comma-separated; got ${JSON.stringify(h)}`);
    }
  }
  return out;
}

function originList(raw: string | undefined): string[] {
  const out = list(raw).map((o) => o.replace(/\/+$/, ""));
  for (const o of out) {
    if (o !== "*" && !/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/.test(o)) {
      throw new ConfigError(`SIGHTLINE_ALLOWED_ORIGINS takes origins (scheme://host[:port]) or *, comma-separated; got ${JSON.stringify(o)}`);
    }
  }
  return out;
}
