// POST /v1/observe (legacy): request (2.1, 2.2), element (2.5) and response (2.4) schemas.
import { z } from "zod";
import { BboxSchema, FilterSchema, RequestStatusSchema, ViewportSchema, type Filter } from "./common.js";
import { RawElementSchema, type RawElement } from "./snapshot.js";

export const OBSERVE_MODES = ["read", "map", "visual"] as const;
export type ObserveMode = (typeof OBSERVE_MODES)[number];
export const RENDER_QUALITIES = ["performance", "precision"] as const;
export type RenderQuality = (typeof RENDER_QUALITIES)[number];
export const READ_FORMATS = ["markdown", "text"] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];
export const SCREENSHOT_DELIVERIES = ["url", "base64"] as const;
export type ScreenshotDelivery = (typeof SCREENSHOT_DELIVERIES)[number];

/**
 * Sightline addition: the kind of page read mode took a page for (what it declares in schema.org
 * or Open Graph, else its structure). It decides what the extractor keeps: one article's text,
 * every post of a thread, a product's name, price and specifications, a listing's items.
 */
export const PAGE_TYPES = ["article", "forum", "product", "listing", "documentation", "page"] as const;
export type PageType = (typeof PAGE_TYPES)[number];
/** Sightline's extension: the visual screenshot's encoding (the contract's responses name both). */
export const SCREENSHOT_FORMATS = ["png", "jpeg"] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];
/** JPEG quality when `screenshot_format` is "jpeg" and no `screenshot_quality` is given. */
export const DEFAULT_JPEG_QUALITY = 80;

export const ObserveOptionsSchema = z.looseObject({
  render_quality: z.enum(RENDER_QUALITIES).optional(),
  contentLimit: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().optional(),
  filter: FilterSchema.optional(),
  include_visual_cues: z.boolean().optional(),
  screenshot_delivery: z.enum(SCREENSHOT_DELIVERIES).optional(),
  screenshot_format: z.enum(SCREENSHOT_FORMATS).optional(),
  screenshot_quality: z.number().int().min(1).max(100).optional(),
});
export interface ObserveOptions {
  render_quality?: RenderQuality;
  contentLimit?: number;
  limit?: number;
  filter?: Filter;
  include_visual_cues?: boolean;
  screenshot_delivery?: ScreenshotDelivery;
  /** Sightline's extension: "png" (default) or "jpeg" (several times smaller for photos). */
  screenshot_format?: ScreenshotFormat;
  /** Sightline's extension: JPEG quality 1–100 (default 80); only with screenshot_format "jpeg". */
  screenshot_quality?: number;
}

/**
 * Sightline's extension of the contract: a page the caller already captured (the browser
 * extension, on the user's logged-in tab). When present, observe uses it instead of rendering `url`.
 */
export const CaptureSchema = z.looseObject({
  html: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  content: z.string().optional(),
  raw_elements: z.array(RawElementSchema).optional(),
  viewport: ViewportSchema.optional(),
  screenshot: z
    .object({ format: z.enum(["png", "jpeg"]), data: z.string() })
    .optional(),
});
export interface Capture {
  html?: string;
  title?: string;
  description?: string;
  content?: string;
  raw_elements?: RawElement[];
  viewport?: { width: number; height: number };
  screenshot?: { format: "png" | "jpeg"; data: string };
}

export const ObserveRequestSchema = z.looseObject({
  url: z.string(),
  mode: z.enum(OBSERVE_MODES).optional(),
  format: z.enum(READ_FORMATS).optional(),
  options: ObserveOptionsSchema.optional(),
  capture: CaptureSchema.optional(),
});
export interface ObserveRequest {
  url: string;
  mode?: ObserveMode;
  format?: ReadFormat;
  options?: ObserveOptions;
  capture?: Capture;
}

export const ObserveVisualCuesSchema = z.object({
  background_color_name: z.string().nullable(),
  cursor_type: z.string().nullable(),
  is_prominent: z.boolean(),
});

/** Spec 2.5. */
export const ObserveElementSchema = z.object({
  id: z.number(),
  role: z.string(),
  text: z.string(),
  bbox: BboxSchema,
  in_viewport: z.boolean(),
  is_occluded: z.boolean(),
  importance: z.number().min(0).max(100),
  visual_cues: ObserveVisualCuesSchema.optional(),
  attributes: z.record(z.string(), z.string()).optional(),
});
export type ObserveElement = z.infer<typeof ObserveElementSchema>;

export const ScreenshotSchema = z.object({
  type: z.enum(SCREENSHOT_DELIVERIES),
  url: z.string().optional(),
  data: z.string().optional(),
  format: z.enum(["png", "jpeg"]),
  size_bytes: z.number(),
  expires_at: z.string().optional(),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

/** Spec 2.4; mode-specific fields are optional here and present per mode. */
export const ObserveResponseSchema = z.object({
  status: RequestStatusSchema,
  url: z.string(),
  credits_used: z.number(),
  /** Sightline addition: balance after this request. */
  credits_remaining: z.number().optional(),
  /** Which rendering engine ran: `performance`, `precision` or `capture` (caller-supplied page). */
  engine: z.string().optional(),
  content: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** Sightline addition (read mode): the kind of page read, see PAGE_TYPES. */
  page_type: z.enum(PAGE_TYPES).optional(),
  viewport: z.object({ width: z.number(), height: z.number() }).optional(),
  interactable_elements: z.array(ObserveElementSchema).optional(),
  screenshot: ScreenshotSchema.optional(),
});
export type ObserveResponse = z.infer<typeof ObserveResponseSchema>;
