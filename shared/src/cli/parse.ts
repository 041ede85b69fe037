// Shared flag parsing helpers on top of node:util parseArgs.
import { CliError, EXIT } from "./exit-codes.js";

/** Runs a node:util parseArgs call; its errors (unknown flag, missing value) become usage errors (exit 2). */
export function parsed<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${usage}`, EXIT.usage);
  }
}

export function oneUrl(positionals: string[], usage: string): string {
  if (positionals.length !== 1) {
    throw new CliError(`${positionals.length ? "expected one URL" : "missing URL"}\n\n${usage}`, EXIT.usage);
  }
  const raw = positionals[0];
  // Accept "example.com" as a convenience: the server wants an absolute http(s) URL.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL | null = null;
  try {
    url = new URL(withScheme);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new CliError(`invalid URL: ${raw} (an http:// or https:// URL is needed)`, EXIT.usage);
  return url.href;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag} must be a positive whole number, got "${value}"`, EXIT.usage);
  return n;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`${flag} must be one of ${allowed.join(", ")}, got "${value}"`, EXIT.usage);
  }
  return value as T;
}

export function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} must be a positive number of seconds, got "${value}"`, EXIT.usage);
  return n * 1000;
}
