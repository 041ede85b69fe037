// Modal/overlay detection (modal_detected, modal_grids). Two kinds of container count:
// - dialogs: role dialog/alertdialog or aria-modal, visible in the viewport;
// - overlays: a positioned (fixed/absolute or unknown) container with z-index >= 10 covering
//   at least a quarter of the viewport, with a visible interactive element inside its box, and
//   either page content hidden under it or z-index >= 100.
// A candidate that contains another accepted one is its backdrop/wrapper and is skipped.
import type { ModalGrid, RefinedElement, Viewport } from "../contract/index.js";
import { viewportCoverage } from "./geometry.js";

export interface ModalItem {
  el: RefinedElement;
  interactive: boolean;
  ariaModal: boolean;
  /** CSS position when the collector sent it, lower-cased. */
  position: string | null;
  /** class_name + id attributes, lower-cased, for close-button hints. */
  hint: string;
}

const OVERLAY_MIN_Z = 10;
const OVERLAY_SURE_Z = 100;
const OVERLAY_MIN_COVERAGE = 0.25;
const MAX_CANDIDATES = 8;
const MAX_MEMBER_IDS = 500;

const CLOSE_SYMBOL = /^[×✕✖✗✘╳⨯xX]$/;
const CLOSE_WORDS = /\b(close|dismiss|cancel|no,? thanks|not now|maybe later|skip|decline|reject( all)?|not interested|go back)\b/i;
const CLOSE_HINT = /(^|[-_\s])(close|dismiss)([-_\s]|$)|btn-?close|close-?btn|closebutton/;
const PRIMARY_WORDS = /\b(ok|okay|accept( all)?|agree|allow( all)?|continue|confirm|yes|submit|got it|sign ?up|subscribe|save|apply|i understand|proceed|done|start|buy)\b/i;

function label(el: RefinedElement): string {
  return el.text !== "" ? el.text : el.name ?? "";
}

export function isCloseControl(el: RefinedElement, hint: string): boolean {
  const t = label(el).trim();
  const n = el.name ?? "";
  if (CLOSE_SYMBOL.test(t) || CLOSE_SYMBOL.test(n.trim())) return true;
  if (t.length <= 40 && CLOSE_WORDS.test(t)) return true;
  if (n.length <= 60 && CLOSE_WORDS.test(n)) return true;
  return hint !== "" && CLOSE_HINT.test(hint);
}

function inside(cx: number, cy: number, b: RefinedElement["bbox"]): boolean {
  return cx >= b.x && cy >= b.y && cx <= b.x + b.width && cy <= b.y + b.height;
}

function contains(outer: RefinedElement["bbox"], inner: RefinedElement["bbox"]): boolean {
  const t = 2;
  return inner.x >= outer.x - t && inner.y >= outer.y - t &&
    inner.x + inner.width <= outer.x + outer.width + t && inner.y + inner.height <= outer.y + outer.height + t;
}

/** Smallest non-interactive member containing all interactive ones; wrappers hugging a lone control don't count. */
function tightestBox(members: readonly ModalItem[], vp: Viewport): RefinedElement | null {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const m of members) {
    if (!m.interactive) continue;
    const b = m.el.bbox;
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
  }
  if (x0 === Infinity) return null;
  const need = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  const minArea = Math.max(1.5 * need.width * need.height, 0.02 * vp.width * vp.height);
  let best: RefinedElement | null = null;
  for (const m of members) {
    if (m.interactive) continue;
    const b = m.el.bbox;
    if (b.width * b.height < minArea || !contains(b, need)) continue;
    if (best === null || b.width * b.height < best.bbox.width * best.bbox.height) best = m.el;
  }
  return best;
}

export function detectModals(items: readonly ModalItem[], vp: Viewport): ModalGrid[] {
  const cands: Array<{ it: ModalItem; coverage: number; kind: "dialog" | "overlay" }> = [];
  for (const it of items) {
    const el = it.el;
    const b = el.bbox;
    if (!(b.width > 0 && b.height > 0)) continue;
    const isDialog = el.role === "dialog" || el.role === "alertdialog" || it.ariaModal;
    if (isDialog) {
      const coverage = viewportCoverage(b.x, b.y, b.width, b.height, vp);
      if (coverage > 0) cands.push({ it, coverage, kind: "dialog" });
      continue;
    }
    if (it.interactive || el.z_index < OVERLAY_MIN_Z) continue;
    if (it.position !== null && it.position !== "fixed" && it.position !== "absolute" && it.position !== "sticky") continue;
    const coverage = viewportCoverage(b.x, b.y, b.width, b.height, vp);
    if (coverage >= OVERLAY_MIN_COVERAGE) cands.push({ it, coverage, kind: "overlay" });
  }
  if (cands.length === 0) return [];
  // Dialogs first, then the topmost overlays; a bounded number keeps this O(n).
  cands.sort((a, b) => (a.kind === b.kind ? b.it.el.z_index - a.it.el.z_index || a.it.el.id - b.it.el.id : a.kind === "dialog" ? -1 : 1));
  const picked = cands.slice(0, MAX_CANDIDATES);

  const grids: Array<{ grid: ModalGrid; area: number; bbox: RefinedElement["bbox"]; kind: string }> = [];
  for (const c of picked) {
    const box = c.it.el.bbox;
    const members: ModalItem[] = [];
    let interactiveInside = 0, hiddenUnder = 0;
    for (const it of items) {
      const el = it.el;
      if (el.id === c.it.el.id) continue;
      const cx = el.center_x ?? el.bbox.x + el.bbox.width / 2;
      const cy = el.center_y ?? el.bbox.y + el.bbox.height / 2;
      if (!inside(cx, cy, box)) continue;
      if (el.is_occluded) { hiddenUnder++; continue; }
      if (el.bbox.width * el.bbox.height >= box.width * box.height) continue;
      members.push(it);
      if (it.interactive) interactiveInside++;
    }
    if (c.kind === "overlay" && (interactiveInside === 0 || (hiddenUnder === 0 && c.it.el.z_index < OVERLAY_SURE_Z))) continue;
    let container = c.it.el;
    let coverage = c.coverage;
    if (c.kind === "overlay") {
      // A full-screen backdrop usually holds the real box: the smallest non-interactive
      // member that contains every interactive member is the modal's container.
      const inner = tightestBox(members, vp);
      if (inner !== null) {
        container = inner;
        const b = inner.bbox;
        coverage = viewportCoverage(b.x, b.y, b.width, b.height, vp);
      }
    }
    members.sort((a, b) => (a.el.doc_y ?? 0) - (b.el.doc_y ?? 0) || (a.el.center_x ?? 0) - (b.el.center_x ?? 0) || a.el.id - b.el.id);
    const close_ids: number[] = [];
    const primary_ids: number[] = [];
    for (const m of members) {
      if (!m.interactive && !m.el.visual_cues.is_clickable) continue;
      if (isCloseControl(m.el, m.hint)) close_ids.push(m.el.id);
      else if (m.el.visual_cues.is_primary || PRIMARY_WORDS.test(label(m.el))) primary_ids.push(m.el.id);
    }
    const cbox = container.bbox;
    grids.push({
      area: box.width * box.height,
      bbox: box,
      kind: c.kind,
      grid: {
        container_id: container.id,
        role: c.kind === "dialog" ? (c.it.el.role === "alertdialog" ? "alertdialog" : "dialog") : "overlay",
        bbox: { ...cbox },
        z_index: Math.max(container.z_index, c.it.el.z_index),
        viewport_coverage: Math.round(coverage * 1000) / 1000,
        element_ids: members.filter((m) => m.el !== container).slice(0, MAX_MEMBER_IDS).map((m) => m.el.id),
        close_ids,
        primary_ids,
      },
    });
  }
  // Drop wrappers/backdrops: a grid whose box contains another accepted grid's box.
  const out: ModalGrid[] = [];
  for (const g of grids) {
    const wrapsAnother = grids.some((o) => o !== g && o.area < g.area && contains(g.bbox, o.bbox) && !(g.kind === "dialog" && o.kind === "overlay"));
    if (!wrapsAnother) out.push(g.grid);
  }
  return out;
}
