// Hand-made candidates for ranking tests: a refined element plus the raw element it came from.
import type { RawElement, RefinedElement } from "@sightline/shared/contract";
import type { GoalCandidate } from "@sightline/shared/rank";

export interface Spec {
  id: number;
  tag?: string;
  role: string;
  text?: string;
  name?: string | null;
  nearby?: string | null;
  href?: string | null;
  inputType?: string | null;
  value?: string | null;
  attrs?: Record<string, string>;
  box?: [number, number, number, number];
  importance?: number;
  group?: string | null;
  groupIndex?: number | null;
  dominant?: boolean;
  occluded?: boolean;
}

export function cand(s: Spec): GoalCandidate {
  const [x, y, w, h] = s.box ?? [10, 10 + s.id * 30, 120, 24];
  const element: RefinedElement = {
    id: s.id,
    role: s.role,
    text: s.text ?? "",
    importance: s.importance ?? 500,
    bbox: { x, y, width: w, height: h },
    visual_cues: { is_primary: false, is_clickable: s.role !== "heading" && s.role !== "generic", background_color_name: null },
    in_viewport: true,
    is_occluded: s.occluded ?? false,
    z_index: 0,
    fused_rank_index: null,
    heuristic_index: null,
    ml_probability: null,
    ml_score: null,
    center_x: x + w / 2,
    center_y: y + h / 2,
    doc_y: y + h / 2,
    group_key: s.group ?? null,
    group_index: s.groupIndex ?? null,
    in_dominant_group: s.dominant ?? null,
    name: s.name ?? (s.text || null),
    value: s.value ?? null,
    input_type: s.inputType ?? null,
    value_redacted: null,
    checked: null,
    disabled: null,
    expanded: null,
    aria_checked: null,
    aria_disabled: null,
    aria_expanded: null,
    href: s.href ?? null,
    nearby_text: s.nearby ?? null,
    diff_status: null,
    tag: s.tag ?? null,
    // Refine passes the collector's card text on as the element's own (lookalike.ts): these
    // hand-made look-alikes carry it both ways, as the engine's output does.
    ...(s.attrs?.context_text ? { context_text: s.attrs.context_text } : {}),
  };
  const raw: RawElement = {
    id: s.id,
    tag: s.tag ?? "div",
    rect: { x, y, width: w, height: h },
    text: s.text ?? "",
    attributes: { nearby_text: s.nearby ?? null, href: s.href ?? null, input_type: s.inputType ?? null, ...(s.attrs ?? {}) },
    in_viewport: true,
    is_occluded: s.occluded ?? false,
  };
  return { element, raw };
}
