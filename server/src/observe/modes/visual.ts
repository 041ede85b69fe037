// Visual mode: the map's elements with their attributes, plus a viewport screenshot of the
// settled page, delivered inline or as a signed link.
//   fromUrl: rendered with the precision engine, collected, then photographed.
//   fromCapture: the caller's `screenshot` and `raw_elements` as is; its `html` laid out for
//   whichever of the two it did not send.
import type { Page } from "playwright-core";
import { DEFAULT_JPEG_QUALITY, type ObserveOptions } from "@sightline/shared/contract";
import { renderUrl, type EngineName } from "../../browser/index.js";
import type { ImageFormat } from "../../storage/index.js";
import { withCapturedHtml } from "../capture.js";
import { renderRequest, type ModeOutput, type ObserveCall, type ObserveDeps } from "../deps.js";
import { badCapture } from "../errors.js";
import { mapCaptured, mapPage } from "./map.js";

export interface Shot {
  image: Buffer;
  format: ImageFormat;
}

export function fromUrl(deps: ObserveDeps, call: ObserveCall, engine: EngineName): Promise<ModeOutput> {
  const { req } = call;
  return renderUrl(deps.pool, renderRequest(deps, call, engine), async ({ page, deadline }) => {
    const map = await mapPage(deps, page, req, true);
    const shot = await screenshotPage(page, deadline - Date.now(), req.options);
    return { ...map, screenshot: await deliver(deps, shot, call) };
  });
}

export async function fromCapture(deps: ObserveDeps, call: ObserveCall): Promise<ModeOutput> {
  const { req } = call;
  const c = req.capture!;
  let given: Shot | null = null;
  if (c.screenshot) {
    given = decodeCapturedShot(c.screenshot);
    if (!given) throw badCapture("screenshot.data must be base64");
  }
  if (given && c.raw_elements) {
    const map = mapCaptured(deps, req, true);
    return { ...map, screenshot: await deliver(deps, given, call) };
  }
  if (!(typeof c.html === "string" && c.html.length > 0)) throw badCapture("needs `screenshot` with `raw_elements`, or `html`, in visual mode");
  return withCapturedHtml(deps.pool, call, c, deps.renderTimeoutMs, async (page, deadline) => {
    const map = c.raw_elements ? mapCaptured(deps, req, true) : await mapPage(deps, page, req, true);
    const shot = given ?? (await screenshotPage(page, deadline - Date.now(), req.options));
    return { ...map, screenshot: await deliver(deps, shot, call) };
  });
}

/** Stores the shot and answers its signed link, or inlines it (`options.screenshot_delivery`). */
function deliver(deps: ObserveDeps, shot: Shot, { req, baseUrl }: ObserveCall) {
  return deps.screenshots.deliver(shot.image, shot.format, req.options?.screenshot_delivery ?? "url", baseUrl);
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
