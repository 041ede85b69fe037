// Visual mode: a viewport screenshot of the settled page, delivered inline or as a signed link.
import type { Page } from "playwright-core";
import { DEFAULT_JPEG_QUALITY, type ObserveOptions } from "@sightline/shared/contract";
import type { ImageFormat } from "../../storage/index.js";

export interface Shot {
  image: Buffer;
  format: ImageFormat;
}

/**
 * The viewport (element coordinates are viewport coordinates, so they line up), as PNG or, when
 * asked (`options.screenshot_format: "jpeg"`, Sightline's extension), JPEG at the given quality.
 */
export async function screenshotPage(
  page: Page,
  timeoutMs: number,
  opts: Pick<ObserveOptions, "screenshot_format" | "screenshot_quality"> = {},
): Promise<Shot> {
  const common = { fullPage: false, animations: "disabled", caret: "hide", timeout: Math.max(1000, timeoutMs) } as const;
  if (opts.screenshot_format === "jpeg") {
    const quality = opts.screenshot_quality ?? DEFAULT_JPEG_QUALITY;
    return { image: await page.screenshot({ ...common, type: "jpeg", quality }), format: "jpeg" };
  }
  return { image: await page.screenshot({ ...common, type: "png" }), format: "png" };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A caller's screenshot (`capture.screenshot`), decoded; null when the data is not base64. */
export function decodeCapturedShot(shot: { format: ImageFormat; data: string }): Shot | null {
  const data = shot.data.replace(/^data:image\/[a-z]+;base64,/, "").replace(/\s+/g, "");
  if (!data || !BASE64.test(data)) return null;
  return { image: Buffer.from(data, "base64"), format: shot.format };
}
