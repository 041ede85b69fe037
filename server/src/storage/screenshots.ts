// Screenshots as observe returns them: stored behind a signed link (default) or inline base64.
import { randomBytes } from "node:crypto";
import { SCREENSHOT_URL_TTL_MS, type Screenshot, type ScreenshotDelivery } from "@sightline/shared/contract";
import { CONTENT_TYPES, type ImageFormat, type ObjectStore, type StoredObject } from "./store.js";
import type { UrlSigner } from "./signed-url.js";

export type Opened = { verdict: "ok"; object: StoredObject } | { verdict: "expired" | "invalid" | "missing" };

export class ScreenshotService {
  constructor(
    private readonly store: ObjectStore,
    private readonly signer: UrlSigner,
    private readonly ttlMs = SCREENSHOT_URL_TTL_MS,
  ) {}

  /** `baseUrl`: the public origin links should point at (SIGHTLINE_PUBLIC_URL or the request's). */
  async deliver(image: Buffer, format: ImageFormat, delivery: ScreenshotDelivery, baseUrl: string, now = Date.now()): Promise<Screenshot> {
    if (delivery === "base64") {
      return { type: "base64", data: image.toString("base64"), format, size_bytes: image.length };
    }
    const id = `${randomBytes(18).toString("base64url")}.${format}`;
    await this.store.put(id, image, CONTENT_TYPES[format]);
    const expires = now + this.ttlMs;
    return {
      type: "url",
      url: this.signer.url(baseUrl, id, expires),
      format,
      size_bytes: image.length,
      expires_at: new Date(expires).toISOString(),
    };
  }

  /** The image behind a link, or why not: "invalid" (tampered/unknown), "expired". */
  async open(id: string, expires: string | undefined, sig: string | undefined, now = Date.now()): Promise<Opened> {
    const verdict = this.signer.verify(id, expires, sig, now);
    if (verdict !== "ok") return { verdict };
    const object = await this.store.get(id);
    return object ? { verdict: "ok", object } : { verdict: "missing" };
  }
}
