// API keys: random, shown once, stored only as a sha256 hash.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const PREFIX = "sl_";

/** A new API key: "sl_" + 32 random bytes, base64url (≈ 256 bits). */
export function generateKey(): string {
  return PREFIX + randomBytes(32).toString("base64url");
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Constant-time equality of two hex digests (never short-circuits on the first differing byte). */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What an operator may see of a key in logs and listings: its prefix, never the secret. */
export function keyHint(key: string): string {
  return `${key.slice(0, 7)}…`;
}
