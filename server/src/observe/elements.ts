// Refined elements (spec 2.9, importance 0..1000) → observe elements (spec 2.5, 0..100).
import type { ObserveElement, RawElement, RefinedElement } from "@sightline/shared/contract";
import { toObserveImportance } from "@sightline/shared/refine";

export interface ElementOptions {
  /** Add `visual_cues` (options.include_visual_cues). */
  visualCues: boolean;
  /** Add `attributes` such as placeholder and type (visual mode). */
  attributes: boolean;
}

/** Raw attributes worth passing on in visual mode, by output key. */
const ATTRIBUTE_KEYS: Array<[string, string[]]> = [
  ["type", ["input_type", "type_"]],
  ["placeholder", ["placeholder"]],
  ["aria_label", ["aria_label"]],
  ["name", ["name"]],
  ["href", ["href"]],
  ["title", ["title"]],
  ["alt", ["alt"]],
];

function attributesOf(el: RefinedElement, raw: RawElement | undefined): Record<string, string> | undefined {
  const a = raw?.attributes;
  const out: Record<string, string> = {};
  for (const [key, sources] of ATTRIBUTE_KEYS) {
    for (const s of sources) {
      const v = a?.[s];
      if ((typeof v === "string" && v.trim() !== "") || typeof v === "number") {
        out[key] = String(v).slice(0, 500);
        break;
      }
    }
  }
  if (!out.type && el.input_type) out.type = el.input_type;
  if (!out.href && el.href) out.href = el.href;
  return Object.keys(out).length ? out : undefined;
}

/** Index raw elements by id, frames included (refined ids come from both). */
export function indexRaw(list: RawElement[] | undefined, into = new Map<number, RawElement>()): Map<number, RawElement> {
  for (const r of list ?? []) {
    into.set(r.id, r);
    if (Array.isArray(r.iframe_content)) indexRaw(r.iframe_content as RawElement[], into);
  }
  return into;
}

export function toObserveElements(refined: RefinedElement[], raw: Map<number, RawElement>, opts: ElementOptions): ObserveElement[] {
  return refined.map((el) => {
    const r = raw.get(el.id);
    const out: ObserveElement = {
      id: el.id,
      role: el.role,
      // Visible text; an icon button has none, so its accessible name stands in.
      text: el.text || el.name || "",
      bbox: { x: el.bbox.x, y: el.bbox.y, width: el.bbox.width, height: el.bbox.height },
      in_viewport: el.in_viewport,
      is_occluded: el.is_occluded,
      importance: toObserveImportance(el),
    };
    if (opts.visualCues) {
      const cursor = r?.styles?.cursor;
      out.visual_cues = {
        background_color_name: el.visual_cues.background_color_name,
        cursor_type: typeof cursor === "string" && cursor ? cursor : null,
        is_prominent: el.visual_cues.is_primary,
      };
    }
    if (opts.attributes) {
      const attrs = attributesOf(el, r);
      if (attrs) out.attributes = attrs;
    }
    return out;
  });
}
