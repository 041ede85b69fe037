// The refinement engine's entry: raw elements in, ranked refined elements (spec 2.9) out.
// One O(n) pass builds every element; then filter → groups → order (importance, or the goal
// ranker over all filtered candidates) → limit. Pure and synchronous.
import {
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
import { VISUAL_TAGS, deriveRole } from "./roles.js";
import { accessibleName, readHref, readStates, readValue } from "./states.js";
import { attrBool, attrStr, attrText, compact, finiteOr, toNumber } from "./text.js";

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
  interactive: boolean;
  group: GroupItem;
  modal: ModalItem;
}

function isPointer(raw: RawElement | undefined): boolean {
  const c = raw?.styles?.cursor;
  return typeof c === "string" && c.trim().toLowerCase() === "pointer";
}

/** Styles that make an element invisible even though it has a box. */
function styleHidden(s: RawElement["styles"]): boolean {
  if (!s) return false;
  const op = toNumber(s.opacity);
  if (op !== null && op <= 0.05) return true;
  const vis = s.visibility;
  if (typeof vis === "string" && (vis === "hidden" || vis === "collapse")) return true;
  return s.display === "none";
}

function refineOne(raw: RawElement, vp: Viewport, parents: Map<number, RawElement> | null): Work {
  const styles = raw.styles ?? null;
  const a = raw.attributes ?? null;
  const pointer = isPointer(raw);
  let inherited = false;
  if (pointer && parents !== null) {
    const pid = raw.parent_id;
    inherited = typeof pid === "number" && isPointer(parents.get(pid));
  }
  const ri = deriveRole(raw, pointer, inherited);

  const r = raw.rect;
  const x = finiteOr(r.x, 0), y = finiteOr(r.y, 0);
  const w = Math.max(0, finiteOr(r.width, 0)), h = Math.max(0, finiteOr(r.height, 0));
  const scrollY = finiteOr(raw.scroll_y, 0);
  const center_x = finiteOr(raw.center_x, x + w / 2);
  const center_y = finiteOr(raw.center_y, y + h / 2);
  const doc_y = finiteOr(raw.doc_y, center_y + scrollY);
  const in_viewport = typeof raw.in_viewport === "boolean" ? raw.in_viewport : intersectsViewport(x, y, w, h, vp);
  const is_occluded = raw.is_occluded === true;
  const zRaw = toNumber(styles?.z_index);
  const z_index = zRaw === null ? 0 : Math.trunc(zRaw);

  const text = compact(raw.text);
  const name = accessibleName(a, text);
  const states = readStates(a, ri.role, ri.interactive);
  const val = readValue(a, ri.inputType);
  const color = describeColor(typeof styles?.background_color === "string" ? styles.background_color : null);
  const fontWeight = parseFontWeight(styles?.font_weight);
  const fontSizePx = toNumber(styles?.font_size);
  const area = w * h;

  const imp: ImportanceInput = {
    role: ri.role,
    inViewport: in_viewport,
    occluded: is_occluded,
    invisible: area === 0 || styleHidden(styles),
    area,
    labelled: name !== null,
    disabled: states.disabled === true,
    clickable: ri.clickable,
    vivid: color.vivid,
    fontWeight,
    fontSizePx,
    isSubmit: ri.inputType === "submit" && (ri.tag === "button" || ri.tag === "input"),
  };

  const el: RefinedElement = {
    id: raw.id,
    role: ri.role,
    text,
    importance: importanceOf(imp),
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
    nearby_text: attrText(a, "nearby_text"),
    diff_status: null,
    tag: ri.tag === "" ? null : ri.tag,
  };

  const group: GroupItem = {
    id: raw.id,
    role: ri.role,
    x,
    docTop: y + scrollY,
    center_x,
    doc_y,
    interactive: ri.interactive,
    rawKey: typeof raw.group_key === "string" && raw.group_key !== "" ? raw.group_key : null,
    group_key: null,
    group_index: null,
    in_dominant_group: null,
  };

  const pos = styles?.position;
  const hint = a ? `${attrStr(a, "class_name") ?? ""} ${attrStr(a, "id") ?? ""}`.trim().toLowerCase() : "";
  const modal: ModalItem = {
    el,
    interactive: ri.interactive,
    ariaModal: attrBool(a, "aria_modal") === true,
    position: typeof pos === "string" ? pos.trim().toLowerCase() : null,
    hint,
  };
  return { raw, el, interactive: ri.interactive, group, modal };
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
  const flat = flattenElements(Array.isArray(req.raw_elements) ? req.raw_elements : []);
  const viewportDerived = !req.viewport;
  const vp: Viewport = req.viewport
    ? { width: req.viewport.width, height: req.viewport.height }
    : deriveViewport(flat);

  // Parent lookups only when the collector sends parent ids (tells an inherited cursor apart).
  let parents: Map<number, RawElement> | null = null;
  for (let i = 0; i < flat.length && i < 8; i++) if (typeof flat[i].parent_id === "number") { parents = new Map(); break; }
  if (parents) for (const e of flat) parents.set(e.id, e);

  const filter = compileFilter(req.options?.filter);
  const all: Work[] = new Array(flat.length);
  const candidates: Work[] = [];
  let interactiveCount = 0, interactiveInViewport = 0, occludedInViewport = 0;
  let visualCoverage = 0, canvasCoverage = 0;
  for (let i = 0; i < flat.length; i++) {
    const w = refineOne(flat[i], vp, parents);
    all[i] = w;
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

  const dominant = assignGroups(candidates.map((w) => w.group));
  for (const w of candidates) {
    w.el.group_key = w.group.group_key;
    w.el.group_index = w.group.group_index;
    w.el.in_dominant_group = w.group.in_dominant_group;
  }

  candidates.sort(byImportance);
  const limit = effectiveLimit(req.options?.limit, opts.cap ?? SNAPSHOT_DEFAULT_CAP);
  const reranker = opts.reranker ?? null;
  const goal = typeof req.goal === "string" ? req.goal.trim() : "";

  let elements: RefinedElement[];
  let ml_rerank: MlRerank;
  if (goal !== "") {
    const ranked = rankByGoal(goal, candidates.map((w) => ({ element: w.el, raw: w.raw })), { reranker });
    elements = ranked.elements.slice(0, limit);
    ml_rerank = ranked.ml_rerank;
  } else {
    elements = candidates.length > limit ? candidates.slice(0, limit).map((w) => w.el) : candidates.map((w) => w.el);
    for (let i = 0; i < elements.length; i++) {
      elements[i].heuristic_index = i;
      elements[i].fused_rank_index = i;
    }
    ml_rerank = noGoalRerank(reranker !== null, candidates.length);
  }

  const modal_grids = detectModals(all.map((w) => w.modal), vp);
  const diagnostics = buildDiagnostics({
    metrics: req.client_metrics,
    captcha: req.client_diagnostics?.captcha,
    rawCount: flat.length,
    interactiveCount,
    interactiveInViewport,
    occludedInViewport,
    visualCoverage: Math.min(1, visualCoverage),
    canvasCoverage,
    modalCount: modal_grids.length,
    viewportDerived,
  });

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
