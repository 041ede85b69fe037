// Controls made clickable only by script (a div or span with a click listener, no role, no
// tabindex, no cursor, no text). Two ways to find them:
// 1. Listener records: an init script (shared/src/playwright/listeners.ts, added to headless
//    Chromium's and the SDK's pages before any page script runs) wraps addEventListener and keeps
//    every element given a click-like listener in a WeakSet on the frame's global (of the page's
//    world: a collector in Sightline's isolated world asks for them, see requestRecords). An
//    element in it is a candidate; a container whose listener serves a run of look-alike children (event
//    delegation: `list.addEventListener("click", e => e.target.closest("li"))`) makes those
//    children the candidates instead.
// 2. Where no records exist (the extension's capture after load, a saved or server-rendered copy
//    of a page), what the page looks like: visually distinct leaf boxes (solid-coloured swatches,
//    icon images drawn as backgrounds, bordered tiles among look-alikes, SVG shapes) become
//    low-priority candidates, with a name hint from their colour and shape.
import { LISTENER_MARK_EVENT, LISTENER_MARKS_END, LISTENER_REQUEST_EVENT } from "../agent/listener-marks.js";
import { describeColor } from "../refine/colors.js";

/** The global the init script fills (per frame). */
export const LISTENER_REGISTRY = "__sightlineListeners__";

/**
 * The frame's listener records: the registry of this world (the init script's, when the
 * collector runs in the page's world; the receiver's, see receiveListenerMarks), else, when
 * `ask`, the init script's records asked from the page's world; null when there are none.
 */
export function listenerRegistry(win: Window, ask = false): WeakSet<object> | null {
  const r = (win as unknown as Record<string, unknown>)[LISTENER_REGISTRY];
  // instanceof would fail for a frame's WeakSet (another realm): duck-typed.
  if (r !== null && typeof r === "object" && typeof (r as WeakSet<object>).has === "function") return r as WeakSet<object>;
  return ask ? requestRecords(win) : null;
}

/**
 * In Sightline's isolated world (the Playwright paths) the init script's WeakSet is out of reach:
 * its script is asked with an event on the document (DOM events cross worlds) and answers with a
 * mark on each recorded node, synchronously, then an end mark. No end mark: no init script ran.
 */
function requestRecords(win: Window): WeakSet<object> | null {
  const doc = win.document;
  const reg = new WeakSet<object>();
  let answered = false;
  const take = (e: Event) => {
    const detail = (e as CustomEvent).detail;
    if (detail === LISTENER_MARKS_END) answered = true;
    else if (detail === "window") reg.add(win);
    else {
      const target = e.composedPath()[0];
      if (target) reg.add(target);
    }
  };
  doc.addEventListener(LISTENER_MARK_EVENT, take, true);
  try {
    doc.dispatchEvent(new CustomEvent(LISTENER_REQUEST_EVENT));
  } finally {
    doc.removeEventListener(LISTENER_MARK_EVENT, take, true);
  }
  return answered ? reg : null;
}

/**
 * Whether the records leave script-only controls unseen, so looks must be read too: none were
 * recorded, or the page listens at the top (window, document, html, body) and so may delegate
 * from there (React, $(document).on).
 */
export function readLooks(reg: WeakSet<object> | null, win: Window): boolean {
  if (reg === null) return true;
  const doc = win.document;
  return reg.has(win) || reg.has(doc) || (doc.documentElement !== null && reg.has(doc.documentElement)) || (doc.body !== null && reg.has(doc.body));
}

const RECEIVER = "__sightlineMarkReceiver__";

/**
 * Listener records from a debugger instead of the init script: starts a fresh registry in this
 * world and fills it from `sightline:listener` events, which a CDP client dispatches from the
 * page's world on every node DOMDebugger.getEventListeners names (DOM events cross worlds; the
 * init script's WeakSet would not). Call before the marks are sent, then collect().
 */
export function receiveListenerMarks(win: Window = window): void {
  const g = win as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(g, LISTENER_REGISTRY);
  if (own && !own.writable && !own.configurable) return; // the init script records in this world already
  Object.defineProperty(g, LISTENER_REGISTRY, { value: new WeakSet<object>(), enumerable: false, configurable: true, writable: true });
  if (g[RECEIVER]) return;
  Object.defineProperty(g, RECEIVER, { value: true, enumerable: false });
  win.document.addEventListener(
    LISTENER_MARK_EVENT,
    (e) => {
      const reg = listenerRegistry(win);
      const target = (e as CustomEvent).detail === "window" ? win : e.composedPath()[0];
      if (reg && target) reg.add(target);
    },
    true,
  );
}

/** A recorded element this large (share of the viewport) is an app root delegating for its content. */
export const ROOT_SHARE = 0.5;

/** Which path found a candidate (sent as `found_by`). */
export const enum FoundBy {
  None = 0,
  Listener = 1,
  Delegated = 2,
  Visual = 3,
}
export const FOUND_BY_NAMES = ["", "listener", "delegated-listener", "visual"];

/** A listener on a container whose children are a run of look-alikes: it delegates to them. */
export function delegates(el: Element): boolean {
  const first = el.firstElementChild;
  if (!first || el.childElementCount < 3) return false;
  const tag = first.localName, cls = first.getAttribute("class");
  let same = 0;
  for (let c: Element | null = first; c && same < 3; c = c.nextElementSibling) {
    if (c.localName !== tag || c.getAttribute("class") !== cls) return false;
    same++;
  }
  return same >= 3;
}

const SVG_SHAPES = new Set(["circle", "ellipse", "rect", "polygon", "path", "polyline"]);
const MIN_SIDE = 8;
const MAX_SIDE = 320;
const MAX_ICON = 64;

export interface Visual {
  /** swatch | icon | tile | shape */
  kind: string;
  /** Colour and shape words ("blue square", "red triangle"), or null. */
  hint: string | null;
}

/** A leaf whose own content is at most a short label (a grid cell's "7", nothing at all). */
export function shortLeaf(el: Element): boolean {
  if (el.firstElementChild !== null) return false;
  const t = el.firstChild;
  if (t === null) return true;
  if (t.nextSibling !== null || t.nodeType !== 3) return false;
  return (t.nodeValue ?? "").trim().length <= 3;
}

function lookalikeSibling(el: Element): boolean {
  const cls = el.getAttribute("class");
  const tag = el.localName;
  const p = el.previousElementSibling, n = el.nextElementSibling;
  return (p !== null && p.localName === tag && p.getAttribute("class") === cls) || (n !== null && n.localName === tag && n.getAttribute("class") === cls);
}

function shapeWord(tag: string, el: Element, w: number, h: number): string {
  const square = Math.abs(w - h) <= Math.max(2, 0.1 * Math.max(w, h));
  if (tag === "circle") return "circle";
  if (tag === "ellipse") return square ? "circle" : "ellipse";
  if (tag === "rect") return square ? "square" : "rectangle";
  if (tag === "polygon" || tag === "polyline") {
    const pts = (el.getAttribute("points") ?? "").trim().split(/[\s,]+/).filter(Boolean).length / 2;
    const n = Math.round(pts);
    const names: Record<number, string> = { 3: "triangle", 4: square ? "square" : "quadrilateral", 5: "pentagon", 6: "hexagon", 7: "heptagon", 8: "octagon" };
    return names[n] ?? "polygon";
  }
  return "shape";
}

/**
 * Whether a non-candidate leaf looks like something to click, with what it looks like. `cs` is
 * its computed style. The caller has checked it is a short leaf outside any control.
 */
export function visualCandidate(el: Element, tag: string, cs: CSSStyleDeclaration, win: Window): Visual | null {
  const r = el.getBoundingClientRect();
  const w = r.width, h = r.height;
  if (w < MIN_SIDE || h < MIN_SIDE || w > MAX_SIDE || h > MAX_SIDE) return null;
  if (SVG_SHAPES.has(tag)) {
    const svg = (el as SVGGraphicsElement).ownerSVGElement;
    if (!svg) return null;
    // A shape filling its drawing is the drawing's background, not a target.
    const o = svg.getBoundingClientRect();
    if (w * h >= 0.8 * o.width * o.height) return null;
    const fill = describeColor(cs.fill && cs.fill.startsWith("rgb") ? cs.fill : null).name;
    const shape = shapeWord(tag, el, w, h);
    return { kind: "shape", hint: fill ? `${fill} ${shape}` : shape };
  }
  const square = Math.abs(w - h) <= Math.max(2, 0.1 * Math.max(w, h));
  const bgImage = cs.backgroundImage;
  if (bgImage && bgImage !== "none" && bgImage.startsWith("url(") && w <= MAX_ICON && h <= MAX_ICON) return { kind: "icon", hint: null };
  const bg = cs.backgroundColor;
  const color = describeColor(bg);
  if (color.name !== null) {
    const parent = el.parentElement;
    const pbg = parent ? win.getComputedStyle(parent).backgroundColor : "";
    if (pbg !== bg) return { kind: "swatch", hint: `${color.name} ${square ? "square" : "rectangle"}` };
  }
  const bw = parseFloat(cs.borderTopWidth);
  if (bw >= 1 && cs.borderTopStyle !== "none" && parseFloat(cs.borderLeftWidth) >= 1 && lookalikeSibling(el)) return { kind: "tile", hint: null };
  return null;
}
