// Map mode (and the element half of visual): collected raw elements → refineSnapshot with the
// request's filter and limit → observe elements with 0..100 importance (spec 2.5).
//   fromUrl: the page rendered with the plan's engine, then collected.
//   fromCapture: the caller's `raw_elements` as is, else its `html` laid out and collected.
import {
  validateSnapshotRequest,
  type ObserveElement,
  type ObserveRequest,
  type SnapshotRequest,
  type Viewport,
} from "@sightline/shared/contract";
import type { refineSnapshot } from "@sightline/shared/refine";
import type { Page } from "playwright-core";
import { renderUrl, type EngineName } from "../../browser/index.js";
import { withCapturedHtml } from "../capture.js";
import { collectSnapshot } from "../collector.js";
import { renderRequest, type ModeOutput, type ObserveCall, type ObserveDeps } from "../deps.js";
import { indexRaw, toObserveElements } from "../elements.js";
import { badCapture } from "../errors.js";

export interface MapResult {
  viewport: Viewport;
  interactable_elements: ObserveElement[];
}

/** Observe has no default element limit (spec 2.2), so neither limit nor cap applies unless asked. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export function fromUrl(deps: ObserveDeps, call: ObserveCall, engine: EngineName): Promise<ModeOutput> {
  return renderUrl(deps.pool, renderRequest(deps, call, engine), ({ page }) => mapPage(deps, page, call.req, false));
}

export async function fromCapture(deps: ObserveDeps, call: ObserveCall): Promise<ModeOutput> {
  const { req } = call;
  const c = req.capture!;
  if (c.raw_elements) return mapCaptured(deps, req, false);
  if (!(typeof c.html === "string" && c.html.length > 0)) throw badCapture("needs `raw_elements` or `html` in map mode");
  return withCapturedHtml(deps.pool, call, c, deps.renderTimeoutMs, (page) => mapPage(deps, page, req, false));
}

/** Collects the page and maps it (`attributes`: visual mode's element attributes too). */
export async function mapPage(deps: ObserveDeps, page: Page, req: ObserveRequest, attributes: boolean): Promise<MapResult> {
  const snapshot = await collectSnapshot(page);
  return mapElements(snapshot, req, deps.refine, { attributes, maxElements: deps.maxRawElements });
}

/** Maps the caller's `capture.raw_elements`. */
export function mapCaptured(deps: ObserveDeps, req: ObserveRequest, attributes: boolean): MapResult {
  const c = req.capture!;
  const snapshot: SnapshotRequest = { url: req.url, raw_elements: c.raw_elements ?? [], ...(c.viewport ? { viewport: c.viewport } : {}) };
  return mapElements(snapshot, req, deps.refine, { attributes, maxElements: deps.maxRawElements });
}

export function mapElements(
  snapshot: SnapshotRequest,
  req: ObserveRequest,
  refine: typeof refineSnapshot,
  opts: { attributes: boolean; maxElements: number },
): MapResult {
  // The page produced this body; a hostile page can shape it, so it is validated like a request.
  const body = validateSnapshotRequest(
    { ...snapshot, url: req.url, options: { limit: req.options?.limit ?? NO_LIMIT, filter: req.options?.filter } },
    { maxElements: opts.maxElements },
  );
  const refined = refine(body, { cap: NO_LIMIT, reranker: null });
  return {
    viewport: refined.viewport,
    interactable_elements: toObserveElements(refined.elements, indexRaw(body.raw_elements), {
      visualCues: req.options?.include_visual_cues === true,
      attributes: opts.attributes,
    }),
  };
}
