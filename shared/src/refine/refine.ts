// The refinement engine's entry: raw elements in, ranked refined elements (spec 2.9) out.
// One O(n) pass builds every element; then filter → groups → order (importance, or the goal
// ranker over all filtered candidates) → limit. Pure and synchronous.
import {
  MAX_IFRAME_DEPTH,
  SNAPSHOT_DEFAULT_CAP,
  type MlRerank,
  type RawElement,
  type RefineResult,
  type RefinedElement,
  type SnapshotRequest,
  type Viewport,
} from "../contract/index.js";
import { rankByGoal, type Reranker } from "../rank/index.js";
import { describeColor } from "./colors.js";
import { buildDiagnostics } from "./diagnostics.js";
import { compileFilter, effectiveLimit } from "./filter.js";
import { flattenElements } from "./flatten.js";
import { assignGroups, deriveViewport, intersectsViewport, viewportCoverage, type GroupItem } from "./geometry.js";
import { importanceOf, isPrimary, parseFontWeight, type ImportanceInput } from "./importance.js";
import { detectModals, type ModalItem } from "./modal.js";
import { markPurpose, markRowContext } from "./lookalike.js";
import { mergeDuplicates } from "./merge.js";
import { unanswered } from "./vision.js";
import { VISUAL_TAGS, deriveRole } from "./roles.js";
import { accessibleName, readHref, readStates, readValue } from "./states.js";
import { boolOf, compact, finiteOr, str, textOf, toNumber } from "./text.js";
import { readAttrs, readRaw, readStyles, type RawView, type Styles } from "./fields.js";

export interface RefineOptions {
  /** Server cap on options.limit (spec 4.2 rule 3). Default SNAPSHOT_DEFAULT_CAP. */
  cap?: number;
  /** Learned reranker; null or absent means ml_rerank says it is disabled. */
  reranker?: Reranker | null;
}

/** One element on its way through the engine. */
interface Work {
  raw: RawElement;
  el: RefinedElement;
  /** Importance inputs; importance itself is scored once modals are known. */
  imp: ImportanceInput;
  interactive: boolean;
  group: GroupItem;
  modal: ModalItem;
}

function isPointer(cursor: unknown): boolean {
  return typeof cursor === "string" && (cursor === "pointer" || cursor.trim().toLowerCase() === "pointer");
}

/** Styles that make an element invisible even though it has a box. */
function styleHidden(s: Styles): boolean {
  const op = toNumber(s.opacity);
  if (op !== null && op <= 0.05) return true;
  return s.visibility === "hidden" || s.visibility === "collapse" || s.display === "none";
}

function parentPointer(parents: Map<number, RawElement>, pid: unknown): boolean {
  if (typeof pid !== "number") return false;
  const p = parents.get(pid);
  return p !== undefined && p.styles !== null && typeof p.styles === "object" && isPointer(p.styles.cursor);
}

function refineOne(raw: RawElement, rv: RawView, vp: Viewport, parents: Map<number, RawElement> | null): Work {
  const styles = readStyles(rv.styles);
  const a = readAttrs(rv.attributes);
  const pointer = isPointer(styles.cursor);
  const inherited = pointer && parents !== null && parentPointer(parents, rv.parent_id);
  const tag = rv.tag;
  const flag = a.clickFlag || rv.clickFlag;
  const ri = deriveRole(tag, a, flag, pointer, inherited);

  const r = rv.rect as RawElement["rect"];
  const x = finiteOr(r.x, 0), y = finiteOr(r.y, 0);
  const w = Math.max(0, finiteOr(r.width, 0)), h = Math.max(0, finiteOr(r.height, 0));
  const scrollY = finiteOr(rv.scroll_y, 0);
  const center_x = finiteOr(rv.center_x, x + w / 2);
  const center_y = finiteOr(rv.center_y, y + h / 2);
  const doc_y = finiteOr(rv.doc_y, center_y + scrollY);
  const in_viewport = rv.in_viewport !== null ? rv.in_viewport : intersectsViewport(x, y, w, h, vp);
  const is_occluded = rv.is_occluded === true;
  const zRaw = toNumber(styles.z_index);
  const z_index = zRaw === null ? 0 : Math.trunc(zRaw);

  const text = compact(rv.text);
  const name = accessibleName(a, text);
  const states = readStates(a, ri.role, ri.interactive);
  const val = readValue(a, ri.inputType);
  const color = describeColor(typeof styles.background_color === "string" ? styles.background_color : null);
  const fontWeight = parseFontWeight(styles.font_weight);
  const fontSizePx = toNumber(styles.font_size);
  const area = w * h;

  const imp: ImportanceInput = {
    role: ri.role,
    inViewport: in_viewport,
    occluded: is_occluded,
    invisible: area === 0 || styleHidden(styles),
    behindModal: false,
    area,
    labelled: name !== null,
    disabled: states.disabled === true,
    clickable: ri.clickable,
    vivid: color.vivid,
    fontWeight,
    fontSizePx,
    isSubmit: ri.inputType === "submit" && (tag === "button" || tag === "input"),
  };

  const el: RefinedElement = {
    id: rv.id,
    role: ri.role,
    text,
    importance: 0,
    bbox: { x, y, width: w, height: h },
    visual_cues: { is_primary: isPrimary(imp), is_clickable: ri.clickable, background_color_name: color.name },
    in_viewport,
    is_occluded,
    z_index,
    fused_rank_index: null,
    heuristic_index: null,
    ml_probability: null,
    ml_score: null,
    center_x,
    center_y,
    doc_y,
    group_key: null,
    group_index: null,
    in_dominant_group: null,
    name,
    value: val.value,
    input_type: ri.inputType,
    value_redacted: val.value_redacted,
    checked: states.checked,
    disabled: states.disabled,
    expanded: states.expanded,
    aria_checked: states.aria_checked,
    aria_disabled: states.aria_disabled,
    aria_expanded: states.aria_expanded,
    href: readHref(a),
    nearby_text: textOf(a.nearby_text),
    diff_status: null,
    tag: tag === "" ? null : tag,
    // Undefined when absent (left out of the JSON), set in the literal so every element has one shape.
    inferred_name: textOf(a.inferred_name, 80) ?? undefined,
    merged_ids: undefined,
    context_text: undefined,
    purpose: undefined,
  };

  const group: GroupItem = {
    id: rv.id,
    role: ri.role,
    x,
    docTop: y + scrollY,
    center_x,
    doc_y,
    interactive: ri.interactive,
    rawKey: rv.group_key,
    group_key: null,
    group_index: null,
    in_dominant_group: null,
  };

  const pos = styles.position;
  const cls = str(a.class_name), idAttr = str(a.id);
  const hint = cls === null && idAttr === null ? "" : `${cls ?? ""} ${idAttr ?? ""}`.trim().toLowerCase();
  const modal: ModalItem = {
    el,
    interactive: ri.interactive,
    ariaModal: boolOf(a.aria_modal) === true,
    position: typeof pos === "string" ? pos.trim().toLowerCase() : null,
    hint,
  };
  return { raw, el, imp, interactive: ri.interactive, group, modal };
}

function noGoalRerank(enabled: boolean, count: number): MlRerank {
  return {
    enabled,
    applied: false,
    reason: "no_goal",
    candidate_count: count,
    top_probability: 0,
    min_confidence: 0,
    is_high_confidence: false,
    tags: [],
    error: null,
  };
}

/** Importance desc; ties by doc_y (higher on the page first), then id. */
function byImportance(a: Work, b: Work): number {
  return b.el.importance - a.el.importance || (a.el.doc_y ?? 0) - (b.el.doc_y ?? 0) || a.el.id - b.el.id;
}

export function refineSnapshot(req: SnapshotRequest, opts: RefineOptions = {}): RefineResult {
  const top: readonly RawElement[] = Array.isArray(req.raw_elements) ? req.raw_elements : [];
  // A sent viewport must be usable (the server validates it; local mode may not have).
  const sent = req.viewport;
  const usable = sent != null && typeof sent === "object" && sent.width > 0 && sent.height > 0 &&
    Number.isFinite(sent.width) && Number.isFinite(sent.height);
  const viewportDerived = !usable;
  const vp: Viewport = usable ? { width: sent.width, height: sent.height } : deriveViewport(flattenElements(top));

  // Parent lookups only when the collector sends parent ids (tells an inherited cursor apart).
  let parents: Map<number, RawElement> | null = null;
  for (let i = 0; i < top.length && i < 8; i++) if (top[i] && typeof top[i].parent_id === "number") { parents = new Map(); break; }
  if (parents) for (const e of flattenElements(top)) parents.set(e.id, e);

  const filter = compileFilter(req.options?.filter);
  const all: Work[] = [];
  const candidates: Work[] = [];
  let interactiveCount = 0, interactiveInViewport = 0, occludedInViewport = 0;
  let visualCoverage = 0, canvasCoverage = 0;
  // Frames are refined after the top level (order does not matter: output is sorted);
  // each frame's children carry their depth so nesting stays bounded.
  const frames: Array<{ list: readonly unknown[]; depth: number }> = [{ list: top, depth: 0 }];
  for (let f = 0; f < frames.length; f++) {
    const { list, depth } = frames[f];
    for (let i = 0; i < list.length; i++) {
      const raw = list[i] as RawElement;
      if (raw === null || typeof raw !== "object") continue;
      const rv = readRaw(raw);
      if (!rv.valid) continue;
      if (rv.iframe_content !== null && depth < MAX_IFRAME_DEPTH) frames.push({ list: rv.iframe_content, depth: depth + 1 });
      const w = refineOne(raw, rv, vp, parents);
      all.push(w);
      const el = w.el;
      if (w.interactive) {
        interactiveCount++;
        if (el.in_viewport) {
          interactiveInViewport++;
          if (el.is_occluded) occludedInViewport++;
        }
      }
      if (el.tag !== null && VISUAL_TAGS.has(el.tag) && el.in_viewport) {
        const b = el.bbox;
        const cov = viewportCoverage(b.x, b.y, b.width, b.height, vp);
        visualCoverage += cov;
        if (el.tag === "canvas" && cov > canvasCoverage) canvasCoverage = cov;
      }
      if (filter.none || filter.test(el.role, el.tag ?? "", el.bbox.width * el.bbox.height, el.input_type)) candidates.push(w);
    }
  }

  const modal_grids = detectModals(all.map((w) => w.modal), vp);
  let members: Set<number> | null = null;
  if (modal_grids.length > 0) {
    members = new Set();
    for (const g of modal_grids) {
      if (g.container_id !== null) members.add(g.container_id);
      for (const id of g.element_ids) members.add(id);
    }
  }
  for (const w of all) {
    if (members !== null && w.el.is_occluded && !members.has(w.el.id)) w.imp.behindModal = true;
    w.el.importance = importanceOf(w.imp);
  }

  // One target reported twice (a tab and its link): merged before grouping and ranking.
  const merged = mergeDuplicates(candidates);
  if (merged !== candidates) candidates.splice(0, candidates.length, ...merged);
  const dominant = assignGroups(candidates.map((w) => w.group));
  for (const w of candidates) {
    w.el.group_key = w.group.group_key;
    w.el.group_index = w.group.group_index;
    w.el.in_dominant_group = w.group.in_dominant_group;
  }

  markRowContext(candidates);
  markPurpose(candidates);
  candidates.sort(byImportance);
  const limit = effectiveLimit(req.options?.limit, opts.cap ?? SNAPSHOT_DEFAULT_CAP);
  const reranker = opts.reranker ?? null;
  const goal = typeof req.goal === "string" ? req.goal.trim() : "";

  let elements: RefinedElement[];
  let ml_rerank: MlRerank;
  if (goal !== "") {
    const ranked = rankByGoal(goal, candidates.map((w) => ({ element: w.el, raw: w.raw })), { reranker, limit });
    elements = ranked.elements;
    ml_rerank = ranked.ml_rerank;
  } else {
    elements = candidates.length > limit ? candidates.slice(0, limit).map((w) => w.el) : candidates.map((w) => w.el);
    for (let i = 0; i < elements.length; i++) {
      elements[i].heuristic_index = i;
      elements[i].fused_rank_index = i;
    }
    ml_rerank = noGoalRerank(reranker !== null, candidates.length);
  }

  const diagnostics = buildDiagnostics({
    metrics: req.client_metrics,
    captcha: req.client_diagnostics?.captcha,
    rawCount: all.length,
    interactiveCount,
    interactiveInViewport,
    occludedInViewport,
    visualCoverage: Math.min(1, visualCoverage),
    canvasCoverage,
    modalCount: modal_grids.length,
    viewportDerived,
  });

  // The goal asks how something looks and nothing described says it, with a picture in view.
  if (goal !== "" && diagnostics.requires_vision !== true && visualCoverage > 0) {
    const missing = unanswered(goal, candidates.map((w) => w.el));
    if (missing.length > 0) {
      const reason = `the goal asks for ${missing.map((w) => `"${w}"`).join(", ")}, which no element's text, name or colour describes, and images, canvas or SVG are in view: the answer is likely in pixels`;
      diagnostics.requires_vision = true;
      diagnostics.requires_vision_reason = reason;
    }
  }

  return {
    viewport: vp,
    elements,
    dominant_group_key: dominant,
    ml_rerank,
    diagnostics,
    modal_detected: modal_grids.length > 0,
    modal_grids,
  };
}
