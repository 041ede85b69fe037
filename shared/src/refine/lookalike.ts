// Row context for look-alike controls: a list's trash icons, "Book" buttons or stars are the same
// control many times over, and only the row or card around each (the collector's
// `context_text`) tells them apart. Such controls get it as `context_text`, which goal ranking
// weighs and toPrompt writes; a control whose label is its own gets nothing (payload).
import type { RawElement, RefinedElement } from "../contract/index.js";
import { compact } from "./text.js";

const CONTEXT_CAP = 160;

/** A label with digits, prices and separators masked: "Book 2" and "Book 3" look alike. */
function shapeOf(el: RefinedElement): string {
  const label = el.text || el.name || el.inferred_name || "";
  return `${el.role}|${label.toLowerCase().replace(/[\d.,$€£¥]+/g, "#")}`;
}

export function markRowContext(items: ReadonlyArray<{ el: RefinedElement; raw: RawElement }>): void {
  let shapes: Map<string, number> | null = null;
  const withCtx: Array<{ el: RefinedElement; ctx: string; shape: string }> = [];
  for (const { el, raw } of items) {
    const c = raw.attributes?.context_text;
    if (typeof c !== "string" || c === "") continue;
    const shape = shapeOf(el);
    shapes ??= new Map();
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    withCtx.push({ el, ctx: c, shape });
  }
  if (shapes === null) return;
  for (const { el, ctx, shape } of withCtx) {
    if ((shapes.get(shape) ?? 0) < 2) continue;
    const t = compact(ctx, CONTEXT_CAP);
    if (t !== "" && t !== el.text) el.context_text = t;
  }
}
