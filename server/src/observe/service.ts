// /v1/observe without HTTP: plan → (render | capture) → mode output. The route wraps it with
// validation, credits and error rendering.
import {
  ContractError,
  ERROR_NAMES,
  type ObserveRequest,
  type ObserveResponse,
  type SnapshotRequest,
} from "@sightline/shared/contract";
import type { refineSnapshot } from "@sightline/shared/refine";
import type { Page } from "playwright-core";
import { renderUrl, type BrowserPool, type EngineName } from "../browser/index.js";
import { EgressRefusal, type HostPolicy, type Lookup } from "../net/index.js";
import type { ScreenshotService } from "../storage/index.js";
import { withCapturedHtml } from "./capture.js";
import { collectSnapshot } from "./collector.js";
import { mapElements } from "./modes/map.js";
import { clip, clipReading, contentLimitOf, needsScripts, readPage, readPageUnclipped, readingChars } from "./modes/read.js";
import type { ReadContent } from "./collector.js";
import { decodeCapturedShot, screenshotPage, type Shot } from "./modes/visual.js";
import type { ObservePlan } from "./plan.js";

export interface ObserveDeps {
  pool: BrowserPool;
  policy: HostPolicy;
  screenshots: ScreenshotService;
  refine: typeof refineSnapshot;
  renderTimeoutMs: number;
  /** Most raw elements a page may yield. */
  maxRawElements: number;
  /** DNS for the egress proxy (tests); the system resolver otherwise. */
  lookup?: Lookup;
}

/** The mode-specific part of a success response (the route adds status and credits). */
export type ObserveOutput = Omit<ObserveResponse, "status" | "credits_used" | "credits_remaining">;

const badCapture = (detail: string) => new ContractError("bad_request", ERROR_NAMES.invalidField, `${ERROR_NAMES.invalidField}: capture ${detail}`);

export async function runObserve(deps: ObserveDeps, req: ObserveRequest, plan: ObservePlan, baseUrl: string): Promise<ObserveOutput> {
  const head = { url: req.url, engine: plan.engine };
  if (plan.engine === "capture") return { ...head, ...(await fromCapture(deps, req, plan, baseUrl)) };
  if (plan.mode === "read") return { ...head, ...(await readUrl(deps, req, plan.engine)) };

  return renderUrl(deps.pool, { url: req.url, engine: plan.engine, policy: deps.policy, timeoutMs: deps.renderTimeoutMs, lookup: deps.lookup }, async ({ page, deadline }) => {
    switch (plan.mode) {
      case "read":
        return { ...head, ...(await readPage(page, req)) };
      case "map":
        return { ...head, ...(await mapPage(deps, page, req, false)) };
      case "visual": {
        const map = await mapPage(deps, page, req, true);
        const shot = await screenshotPage(page, deadline - Date.now(), req.options);
        return { ...head, ...map, screenshot: await deliver(deps, shot, req, baseUrl) };
      }
    }
  });
}

/** Least time the JavaScript pass gets, even when the first pass used up most of the budget. */
const MIN_SCRIPT_PASS_MS = 5_000;

/** Read mode on a URL: JavaScript off first, on only when needed (modes/read.ts, needsScripts). */
async function readUrl(deps: ObserveDeps, req: ObserveRequest, engine: EngineName): Promise<ReadContent> {
  const started = Date.now();
  // The spare the first pass used is made again once the request is done, not while the
  // JavaScript pass renders (on a small machine the two slow each other).
  let done = () => {};
  const requestDone = new Promise<void>((resolve) => (done = resolve));
  const render = (javaScript: boolean, timeoutMs: number, refillAfter?: Promise<unknown>) =>
    renderUrl(deps.pool, { url: req.url, engine, policy: deps.policy, timeoutMs, lookup: deps.lookup, javaScript, refillAfter }, ({ page }) =>
      readPageUnclipped(page, req),
    );
  try {
    const plain = await render(false, deps.renderTimeoutMs, requestDone);
    if (!needsScripts(plain)) return clipReading(plain, req);
    let scripted: ReadContent;
    try {
      scripted = await render(true, Math.max(MIN_SCRIPT_PASS_MS, deps.renderTimeoutMs - (Date.now() - started)));
    } catch (err) {
      // The scripted pass failed (a script bounced the page to nowhere, a timeout): what the
      // server sent is still an answer, unless it held nothing at all.
      if (readingChars(plain) > 0 && !(err instanceof EgressRefusal)) return clipReading(plain, req);
      throw err;
    }
    return clipReading(readingChars(scripted) > readingChars(plain) ? scripted : plain, req);
  } finally {
    done();
  }
}

async function mapPage(deps: ObserveDeps, page: Page, req: ObserveRequest, attributes: boolean) {
  const snapshot = await collectSnapshot(page);
  return mapElements(snapshot, req, deps.refine, { attributes, maxElements: deps.maxRawElements });
}

function deliver(deps: ObserveDeps, shot: Shot, req: ObserveRequest, baseUrl: string) {
  return deps.screenshots.deliver(shot.image, shot.format, req.options?.screenshot_delivery ?? "url", baseUrl);
}

/** `capture`: use what the caller sent; lay out its HTML only for what it did not send. */
async function fromCapture(deps: ObserveDeps, req: ObserveRequest, plan: ObservePlan, baseUrl: string): Promise<Partial<ObserveOutput>> {
  const c = req.capture!;
  const timeout = deps.renderTimeoutMs;
  const html = typeof c.html === "string" && c.html.length > 0;
  switch (plan.mode) {
    case "read": {
      if (typeof c.content === "string") {
        return { title: c.title ?? "", description: c.description ?? "", content: clip(c.content, contentLimitOf(req)) };
      }
      if (!html) throw badCapture("needs `content` or `html` in read mode");
      const r = await withCapturedHtml(deps.pool, req.url, c, timeout, (page) => readPage(page, req));
      return { ...r, title: c.title ?? r.title, description: c.description ?? r.description };
    }
    case "map": {
      if (c.raw_elements) return mapElements(capturedSnapshot(req), req, deps.refine, { attributes: false, maxElements: deps.maxRawElements });
      if (!html) throw badCapture("needs `raw_elements` or `html` in map mode");
      return withCapturedHtml(deps.pool, req.url, c, timeout, (page) => mapPage(deps, page, req, false));
    }
    case "visual": {
      let given: Shot | null = null;
      if (c.screenshot) {
        given = decodeCapturedShot(c.screenshot);
        if (!given) throw badCapture("screenshot.data must be base64");
      }
      if (given && c.raw_elements) {
        const map = mapElements(capturedSnapshot(req), req, deps.refine, { attributes: true, maxElements: deps.maxRawElements });
        return { ...map, screenshot: await deliver(deps, given, req, baseUrl) };
      }
      if (!html) throw badCapture("needs `screenshot` with `raw_elements`, or `html`, in visual mode");
      return withCapturedHtml(deps.pool, req.url, c, timeout, async (page, deadline) => {
        const map = c.raw_elements
          ? mapElements(capturedSnapshot(req), req, deps.refine, { attributes: true, maxElements: deps.maxRawElements })
          : await mapPage(deps, page, req, true);
        const shot = given ?? (await screenshotPage(page, deadline - Date.now(), req.options));
        return { ...map, screenshot: await deliver(deps, shot, req, baseUrl) };
      });
    }
  }
}

function capturedSnapshot(req: ObserveRequest): SnapshotRequest {
  const c = req.capture!;
  return { url: req.url, raw_elements: c.raw_elements ?? [], ...(c.viewport ? { viewport: c.viewport } : {}) };
}
