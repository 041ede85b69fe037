// Capability links for stored screenshots: HMAC-SHA256 over id and expiry with a server
// secret. Whoever holds the link may fetch the image until it expires; no API key needed.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export type Verdict = "ok" | "expired" | "invalid";

export class UrlSigner {
  constructor(private readonly secret: Buffer) {
    if (secret.length < 16) throw new Error("signing secret must be at least 16 bytes");
  }

  sign(id: string, expiresAtMs: number): string {
    return createHmac("sha256", this.secret).update(`${id}\n${expiresAtMs}`).digest("base64url");
  }

  /** `expires` and `sig` as they came in the query string. The signature is checked first. */
  verify(id: string, expires: string | undefined, sig: string | undefined, now = Date.now()): Verdict {
    if (!expires || !sig || !/^\d{1,15}$/.test(expires)) return "invalid";
    const expected = Buffer.from(this.sign(id, Number(expires)));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "invalid";
    return Number(expires) <= now ? "expired" : "ok";
  }

  /** `{base}/v1/screenshots/{id}?expires=…&sig=…` */
  url(base: string, id: string, expiresAtMs: number): string {
    const q = new URLSearchParams({ expires: String(expiresAtMs), sig: this.sign(id, expiresAtMs) });
    return `${base.replace(/\/+$/, "")}/v1/screenshots/${encodeURIComponent(id)}?${q}`;
  }
}

/**
 * The signing secret: SIGHTLINE_SIGNING_SECRET when set, else `<dataDir>/signing-secret`,
 * created (32 random bytes, mode 0600) on first use so links survive restarts.
 */
export async function loadSigningSecret(dataDir: string, fromEnv?: string): Promise<Buffer> {
  if (fromEnv && fromEnv.trim()) return Buffer.from(fromEnv.trim(), "utf8");
  const file = join(dataDir, "signing-secret");
  try {
    const hex = (await readFile(file, "utf8")).trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, "hex");
  } catch {
    // first run
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  await writeFile(file, `${secret.toString("hex")}\n`, { mode: 0o600, flag: "w" });
  return secret;
}
