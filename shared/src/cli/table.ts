// Elements as a fixed-width text table for terminals.
import type { ObserveElement, RefinedElement } from "../contract/index.js";
import { redundantType } from "../prompt/format.js";

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function render(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells.map((v, c) => (rightAligned.has(c) ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function flags(el: RefinedElement): string {
  const f: string[] = [];
  if (el.visual_cues?.is_primary) f.push("primary");
  if (el.disabled) f.push("disabled");
  if (el.checked === true) f.push("checked");
  if (el.expanded === true) f.push("expanded");
  if (!el.in_viewport) f.push("offscreen");
  if (el.is_occluded) f.push("occluded");
  if (el.diff_status) f.push(el.diff_status.toLowerCase());
  return f.join(",");
}

/** Ranked snapshot elements: rank, id, role, label, centre, importance, flags. */
export function snapshotTable(elements: RefinedElement[], labelWidth = 48): string {
  const rows = elements.map((el, i) => {
    const label = clean(el.name) || clean(el.text) || (el.nearby_text ? `(near) ${clean(el.nearby_text)}` : "");
    const cx = el.center_x ?? el.bbox.x + el.bbox.width / 2;
    const cy = el.center_y ?? el.bbox.y + el.bbox.height / 2;
    return [
      String(i + 1),
      String(el.id),
      el.input_type && !redundantType(el.role, el.input_type) ? `${el.role}[${el.input_type}]` : el.role,
      cut(label, labelWidth),
      `${Math.round(cx)},${Math.round(cy)}`,
      String(Math.round(el.importance)),
      flags(el),
    ];
  });
  return render(["#", "id", "role", "label", "x,y", "score", "flags"], rows, new Set([0, 1, 5]));
}

/** Observe (map/visual) elements: id, role, text, box, importance. */
export function observeTable(elements: ObserveElement[], labelWidth = 48): string {
  const rows = elements.map((el) => [
    String(el.id),
    el.role,
    cut(clean(el.text) || clean(el.attributes?.placeholder) || clean(el.attributes?.aria_label), labelWidth),
    `${Math.round(el.bbox.x)},${Math.round(el.bbox.y)} ${Math.round(el.bbox.width)}x${Math.round(el.bbox.height)}`,
    String(Math.round(el.importance)),
    [el.in_viewport ? "" : "offscreen", el.is_occluded ? "occluded" : ""].filter(Boolean).join(","),
  ]);
  return render(["id", "role", "text", "box", "score", "flags"], rows, new Set([0, 4]));
}
