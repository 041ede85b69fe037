// Visual mode: a viewport screenshot of the settled page, delivered inline or as a signed link.
import type { Page } from "playwright-core";
import type { ImageFormat } from "../../storage/index.js";

export interface Shot {
  image: Buffer;
  format: ImageFormat;
}

/** The viewport as PNG (element coordinates are viewport coordinates, so they line up). */
export async function screenshotPage(page: Page, timeoutMs: number): Promise<Shot> {
  const image = await page.screenshot({ type: "png", fullPage: false, animations: "disabled", caret: "hide", timeout: Math.max(1000, timeoutMs) });
  return { image, format: "png" };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A caller's screenshot (`capture.screenshot`), decoded; null when the data is not base64. */
export function decodeCapturedShot(shot: { format: ImageFormat; data: string }): Shot | null {
  const data = shot.data.replace(/^data:image\/[a-z]+;base64,/, "").replace(/\s+/g, "");
  if (!data || !BASE64.test(data)) return null;
  return { image: Buffer.from(data, "base64"), format: shot.format };
}
