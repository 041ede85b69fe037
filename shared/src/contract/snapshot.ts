// POST /v1/snapshot: request (2.6, 2.7) and response (2.8, 2.9, 2.10) schemas.
// Types are inferred from these schemas; the OpenAPI document is generated from them too.
import { z } from "zod";
import { BboxSchema, FilterSchema, RequestStatusSchema, ViewportSchema, FiniteNumberSchema as finite, type Filter, type Viewport } from "./common.js";

/**
 * Attribute values: strings per the spec, `null` allowed. Collectors in the wild also send
 * booleans and numbers for `checked`/`disabled`; those are accepted and read as strings.
 */
const AttrValue = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();

export const RawAttributesSchema = z.looseObject({
  role: AttrValue,
  type_: AttrValue,
  aria_label: AttrValue,
  href: AttrValue,
  nearby_text: AttrValue,
  name: AttrValue,
  input_type: AttrValue,
  value: AttrValue,
  value_redacted: AttrValue,
  checked: AttrValue,
  disabled: AttrValue,
  aria_checked: AttrValue,
  aria_disabled: AttrValue,
  aria_expanded: AttrValue,
  placeholder: AttrValue,
  title: AttrValue,
  alt: AttrValue,
  id: AttrValue,
  class_name: AttrValue,
});
export type RawAttributes = { [key: string]: string | number | boolean | null | undefined };

export const RawStylesSchema = z.looseObject({
  z_index: z.union([z.string(), z.number(), z.null()]).optional(),
  cursor: z.union([z.string(), z.null()]).optional(),
  background_color: z.union([z.string(), z.null()]).optional(),
  color: z.union([z.string(), z.null()]).optional(),
  font_size: z.union([z.string(), z.number(), z.null()]).optional(),
  font_weight: z.union([z.string(), z.number(), z.null()]).optional(),
  opacity: z.union([z.string(), z.number(), z.null()]).optional(),
  position: z.union([z.string(), z.null()]).optional(),
});

/** Spec 2.7. Unknown extra fields are tolerated; `iframe_content` holds raw elements of a frame. */
export const RawElementSchema = z.looseObject({
  id: finite,
  tag: z.string().nullish(),
  rect: BboxSchema,
  styles: RawStylesSchema.nullish(),
  attributes: RawAttributesSchema.nullish(),
  text: z.string().nullish(),
  in_viewport: z.boolean().nullish(),
  is_occluded: z.boolean().nullish(),
  iframe_content: z.array(z.unknown()).nullish(),
  scroll_y: finite.nullish(),
  center_x: finite.nullish(),
  center_y: finite.nullish(),
  doc_y: finite.nullish(),
  group_key: z.string().nullish(),
});

export interface RawElement {
  id: number;
  tag?: string | null;
  rect: { x: number; y: number; width: number; height: number };
  styles?: {
    z_index?: string | number | null;
    cursor?: string | null;
    background_color?: string | null;
    color?: string | null;
    font_size?: string | number | null;
    font_weight?: string | number | null;
    opacity?: string | number | null;
    position?: string | null;
    [key: string]: unknown;
  } | null;
  attributes?: RawAttributes | null;
  text?: string | null;
  in_viewport?: boolean | null;
  is_occluded?: boolean | null;
  iframe_content?: RawElement[] | null;
  scroll_y?: number | null;
  center_x?: number | null;
  center_y?: number | null;
  doc_y?: number | null;
  group_key?: string | null;
  [key: string]: unknown;
}

export const CaptchaEvidenceSchema = z.looseObject({
  text_hits: z.array(z.string()).optional(),
  selector_hits: z.array(z.string()).optional(),
  iframe_src_hits: z.array(z.string()).optional(),
  url_hits: z.array(z.string()).optional(),
});

export const CaptchaSchema = z.looseObject({
  detected: z.boolean(),
  confidence: z.number().min(0).max(1),
  evidence: CaptchaEvidenceSchema.optional(),
  /** Which providers matched (Sightline addition), e.g. ["recaptcha"]. */
  providers: z.array(z.string()).optional(),
});
export type Captcha = z.infer<typeof CaptchaSchema>;

export const ClientMetricsSchema = z.looseObject({
  ready_state: z.string().nullish(),
  quiet_ms: finite.nullish(),
  node_count: finite.nullish(),
});
export type ClientMetrics = z.infer<typeof ClientMetricsSchema>;

export const ClientDiagnosticsSchema = z.looseObject({
  captcha: CaptchaSchema.nullish(),
});
export type ClientDiagnostics = z.infer<typeof ClientDiagnosticsSchema>;

export const SnapshotOptionsSchema = z.looseObject({
  limit: z.number().int().positive().optional(),
  filter: FilterSchema.optional(),
});
export type SnapshotOptions = { limit?: number; filter?: Filter };

/**
 * Spec 2.6. `raw_elements` items are validated one by one by `validateSnapshotRequest`
 * (so the error can name the element), which is why the array is `unknown[]` here.
 */
export const SnapshotRequestSchema = z.looseObject({
  url: z.string(),
  viewport: ViewportSchema.optional(),
  raw_elements: z.array(RawElementSchema),
  goal: z.string().optional(),
  options: SnapshotOptionsSchema.optional(),
  client_metrics: ClientMetricsSchema.nullish(),
  client_diagnostics: ClientDiagnosticsSchema.nullish(),
});

export interface SnapshotRequest {
  url: string;
  viewport?: Viewport;
  raw_elements: RawElement[];
  goal?: string;
  options?: SnapshotOptions;
  client_metrics?: ClientMetrics | null;
  client_diagnostics?: ClientDiagnostics | null;
}

// ---------------------------------------------------------------------------------------
// Response

export const VisualCuesSchema = z.object({
  is_primary: z.boolean(),
  is_clickable: z.boolean(),
  background_color_name: z.string().nullable(),
});

export const DiffStatusSchema = z.enum(["ADDED", "REMOVED", "MODIFIED", "MOVED"]);
export type DiffStatus = z.infer<typeof DiffStatusSchema>;

/** Spec 2.9. */
export const RefinedElementSchema = z.object({
  id: z.number(),
  role: z.string(),
  text: z.string(),
  importance: z.number().min(0).max(1000),
  bbox: BboxSchema,
  visual_cues: VisualCuesSchema,
  in_viewport: z.boolean(),
  is_occluded: z.boolean(),
  z_index: z.number(),
  fused_rank_index: z.number().nullable(),
  heuristic_index: z.number().nullable(),
  ml_probability: z.number().min(0).max(1).nullable(),
  ml_score: z.number().nullable(),
  center_x: z.number().nullable(),
  center_y: z.number().nullable(),
  doc_y: z.number().nullable(),
  group_key: z.string().nullable(),
  group_index: z.number().nullable(),
  in_dominant_group: z.boolean().nullable(),
  name: z.string().nullable(),
  value: z.string().nullable(),
  input_type: z.string().nullable(),
  value_redacted: z.boolean().nullable(),
  checked: z.boolean().nullable(),
  disabled: z.boolean().nullable(),
  expanded: z.boolean().nullable(),
  aria_checked: z.string().nullable(),
  aria_disabled: z.string().nullable(),
  aria_expanded: z.string().nullable(),
  href: z.string().nullable(),
  nearby_text: z.string().nullable(),
  diff_status: DiffStatusSchema.nullable(),
  /** Sightline addition: the HTML tag the element came from. */
  tag: z.string().nullable(),
  /**
   * Sightline addition, present only when inferred: what an icon-only control's icon says it is
   * ("trash (delete)", from icon-font classes, SVG, image file names or glyphs) when its accessible
   * name is empty, a glyph or a ligature. `name` stays the accessible name; ranking and toPrompt
   * read this as a hint, marked as inferred.
   */
  inferred_name: z.string().optional(),
  /**
   * Sightline addition, present only for look-alike controls (several of the same role and label,
   * like a list's trash icons or "Book" buttons): the text of the row or card around this one.
   */
  context_text: z.string().optional(),
  /**
   * Sightline addition, present only where it tells look-alike controls apart (two text fields,
   * two "Submit" buttons, in different forms): the label of the form, fieldset or search region
   * the control belongs to ("Newsletter"), from the collector's `purpose` attribute.
   */
  purpose: z.string().optional(),
  /** Sightline addition, present only when merged: ids of same-box interactive elements folded into this one (each still resolvable for actions). */
  merged_ids: z.array(z.number()).optional(),
});
export type RefinedElement = z.infer<typeof RefinedElementSchema>;

/** Documented values of `ml_rerank.reason` (the spec leaves them open). */
export const ML_RERANK_REASONS = [
  "applied", // the model reranked the candidates
  "no_goal", // no goal in the request, nothing to rerank for
  "disabled", // turned off server-side (SIGHTLINE_ML_RERANK=0) or no model loaded
  "model_unavailable", // no model file could be loaded
  "too_few_candidates", // fewer than 2 candidates: the order cannot change
  "low_confidence", // the model was not confident enough; heuristic order kept
  "error", // the model failed; heuristic order kept, `error` says why
] as const;
export type MlRerankReason = (typeof ML_RERANK_REASONS)[number];

/** Spec 2.10. */
export const MlRerankSchema = z.object({
  enabled: z.boolean(),
  applied: z.boolean(),
  reason: z.enum(ML_RERANK_REASONS),
  candidate_count: z.number(),
  top_probability: z.number(),
  min_confidence: z.number(),
  is_high_confidence: z.boolean(),
  tags: z.array(z.string()),
  error: z.string().nullable(),
});
export type MlRerank = z.infer<typeof MlRerankSchema>;

/** A machine-readable reason behind `diagnostics.confidence` (shape chosen by Sightline). */
export const DiagnosticReasonSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** How much this reason lowered confidence (0 = informational). */
  penalty: z.number(),
});
export type DiagnosticReason = z.infer<typeof DiagnosticReasonSchema>;

export const SnapshotMetricsSchema = z.object({
  ready_state: z.string().nullable(),
  quiet_ms: z.number().nullable(),
  node_count: z.number().nullable(),
  interactive_count: z.number(),
  raw_elements_count: z.number(),
});

export const DiagnosticsSchema = z.object({
  confidence: z.number().min(0).max(1),
  reasons: z.array(DiagnosticReasonSchema),
  metrics: SnapshotMetricsSchema,
  captcha: CaptchaSchema.nullable(),
  requires_vision: z.boolean().nullable(),
  requires_vision_reason: z.string().nullable(),
});
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;

/** One detected modal/overlay (shape chosen by Sightline; the spec does not show it). */
export const ModalGridSchema = z.object({
  /** Id of the element that is the modal container (dialog) when one was sent, else null. */
  container_id: z.number().nullable(),
  role: z.string(),
  bbox: BboxSchema,
  z_index: z.number(),
  /** Share of the viewport area the modal covers, 0..1. */
  viewport_coverage: z.number(),
  /** Ids of the elements inside the modal. */
  element_ids: z.array(z.number()),
  /** Ids of close/dismiss controls (×, Close, Cancel, No thanks...). */
  close_ids: z.array(z.number()),
  /** Ids of the controls that accept the modal (OK, Accept, Continue...). */
  primary_ids: z.array(z.number()),
});
export type ModalGrid = z.infer<typeof ModalGridSchema>;

/** Spec 2.8. */
export const SnapshotResponseSchema = z.object({
  status: RequestStatusSchema,
  url: z.string(),
  timestamp: z.string(),
  viewport: z.object({ width: z.number(), height: z.number() }),
  credits_used: z.number(),
  credits_remaining: z.number(),
  elements: z.array(RefinedElementSchema),
  dominant_group_key: z.string().nullable(),
  ml_rerank: MlRerankSchema.nullable(),
  diagnostics: DiagnosticsSchema.nullable(),
  modal_detected: z.boolean().nullable(),
  modal_grids: z.array(ModalGridSchema).nullable(),
  error: z.string().nullable(),
});
export type SnapshotResponse = z.infer<typeof SnapshotResponseSchema>;

/** The part of the response the refinement engine computes (the server adds the rest). */
export type RefineResult = Pick<
  SnapshotResponse,
  "viewport" | "elements" | "dominant_group_key" | "ml_rerank" | "diagnostics" | "modal_detected" | "modal_grids"
>;
