// collect(): one walk over the composed tree (document, open shadow roots, same-origin
// frames) that reads styles and boxes only (no DOM writes, so layout is computed once), then
// a hit-test pass for occlusion. Output: a ready /v1/snapshot request body. What is reported
// of each candidate is record.ts's; how a frame's document joins the walk, frames.ts's.
import type { RawElement } from "../contract/index.js";
import { libraryStyle } from "./name.js";
import { detectCaptcha } from "./captcha.js";
import { GROUP_ROLES, GROUP_TAGS, Kind, SEQUENCE_ROLES, SEQUENCE_TAGS, kindOf, scanAttributes } from "./candidates.js";
import { scanStyleRules, emptyRuleSets } from "./style-rules.js";
import { FoundBy, ROOT_SHARE, delegates, listenerRegistry, readLooks, shortLeaf, visualCandidate, type Visual } from "./listeners.js";
import { isOccluded, type HitCache } from "./occlusion.js";
import { patchLabels } from "./element-labels.js";
import { SecretValues } from "../agent/core/secrets.js";
import { hrefResolver } from "./href.js";
import { collectorState, idFor, installMutationClock, quietMs } from "./state.js";
import { displayCache, styleCache } from "./style-cache.js";
import { shownNoscript, withTextCache } from "./text.js";
import { emitRecord } from "./record.js";
import { walkFrame } from "./frames.js";
import type { Ctx, Frame, Inherited, Occluder } from "./walk-state.js";
import type { CollectOptions, CollectResult } from "./types.js";
import { Sight } from "./visibility/runs.js";
import { newPurposeCache } from "./purpose.js";
import { TEXT_HIDDEN_ATTRIBUTE } from "../agent/session/provenance.js";

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base", "datalist"]);

function sequenceLike(tag: string, role: string | null): boolean {
  return SEQUENCE_TAGS.has(tag) || (role !== null && SEQUENCE_ROLES.has(role));
}

function visitChildren(parent: Element | ShadowRoot, ctx: Ctx, f: Frame, inh: Inherited): void {
  for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
    if (ctx.count >= ctx.max) return;
    visit(c, ctx, f, inh);
  }
}

function visit(el: Element, ctx: Ctx, f: Frame, inh: Inherited): void {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag) && !shownNoscript(el)) return;
  // Not through the style cache: the walk reads each element once, and a cached declaration
  // saves only the getComputedStyle() call, not the property reads (the library's own reads
  // go through ctx.style).
  const cs = f.win.getComputedStyle(el);
  // Computed-style reads and layout queries are the walk's main cost (about a µs each): every
  // element pays for display (or a visibility check), cursor and position; candidates for the rest.
  const scan = scanAttributes(el);
  let kind = kindOf(el, tag, scan, ctx.allRoles);
  // Script-only controls: a recorded click listener (or a delegating parent's) makes a candidate.
  let found = FoundBy.None;
  let delegating = false;
  let opensLooks = false;
  const reg = f.listeners;
  if (reg !== null && kind !== Kind.Interactive) {
    if (reg.has(el) && tag !== "body" && tag !== "html") {
      const r = el.getBoundingClientRect();
      if (r.width * r.height >= ROOT_SHARE * ctx.vw * ctx.vh) f.looks = true; // an app root: delegates from the top
      else if (delegates(el)) delegating = true;
      else {
        // A listener on a drawing or a group of parts (an <svg>, a widget) may handle clicks on them.
        opensLooks = el.firstElementChild !== null && !inh.looks;
        kind = Kind.Interactive;
        scan.handler = true;
        found = FoundBy.Listener;
      }
    } else if (inh.delegate !== null && el.parentElement === inh.delegate) {
      kind = Kind.Interactive;
      found = FoundBy.Delegated;
    }
  }
  // A candidate is checked for visibility first: a visible element has a box, so its display
  // is not "none" and need not be read (display matters further only for non-candidates).
  let visible = kind !== Kind.None ? checkVisible(el) : null;
  let display = "";
  // display matters for what is under the element; a non-candidate with no element children
  // needs it only for the nested-pointer test below (read there). Left unread, a display:none
  // leaf still ends unseen: zero box, checkVisibility() false, no descendants, and (not being a
  // group container) no id taken.
  const leaf = kind === Kind.None && el.firstElementChild === null && el.shadowRoot === null && !GROUP_TAGS.has(tag);
  if (visible !== true && !leaf) {
    display = cs.display;
    if (display === "none") return; // nothing under it can be seen
  }
  const cursor = cs.cursor;
  const pointer = cursor === "pointer";
  const pos = cs.position;
  let hoverPointer = false;
  if (kind === Kind.None || kind === Kind.Structural) {
    if (pointer && !inh.parentPointer && tag !== "body" && tag !== "html") kind = Kind.Interactive;
    else if (!pointer && ctx.rules.hoverPointer.has(el)) {
      kind = Kind.Interactive;
      hoverPointer = true;
    }
  }
  // No listener records: a visually distinct leaf outside any control is a low-priority candidate.
  let look: Visual | null = null;
  if (kind === Kind.None && (f.looks || inh.looks) && (inh.interactiveArea === 0 || inh.looks) && shortLeaf(el) && tag !== "body" && (look = visualCandidate(el, tag, cs, f.win)) !== null) {
    kind = Kind.Interactive;
    found = FoundBy.Visual;
  } else if (found !== FoundBy.None && shortLeaf(el)) look = visualCandidate(el, tag, cs, f.win); // what a script-only control looks like
  let next = inh;
  let rawArea = 0;
  let emitted: RawElement | null = null;

  if (kind === Kind.None && pointer && inh.parentPointer && inh.interactiveArea > 0 && (display || (display = cs.display)) !== "inline") {
    // Nested pointer element inside a clickable region: an icon or a sub-control when it is
    // clearly smaller than the region (at most half its area).
    const r = el.getBoundingClientRect();
    const area = r.width * r.height;
    if (area > 0 && area <= inh.interactiveArea / 2) kind = Kind.Interactive;
  }

  let box: DOMRect | null = null;
  if (kind !== Kind.None && (visible ?? (visible = isVisible(el, cs)))) {
    box = el.getBoundingClientRect();
    // Each DOMRect getter is a call into the browser: read the four values once.
    const bw = box.width;
    const bh = box.height;
    rawArea = bw * bh;
    if (rawArea > 0) {
      const candidate = { el, tag, kind, scan, cs, cursor: hoverPointer ? "pointer" : cursor, position: pos, left: box.left, top: box.top, width: bw, height: bh, hoverPointer, found, look };
      emitted = emitRecord(candidate, ctx, f, inh);
    }
  }
  if (f.depth === 0 && pos !== "static" && (pos !== "relative" || cs.zIndex !== "auto")) {
    // Only positioned boxes paint over content that comes before them; elements no such box
    // overlaps need no hit test (hit tests cost O(page) each in Chromium).
    box = box ?? el.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) ctx.occluders.push({ el, x: box.left, y: box.top, r: box.right, b: box.bottom });
  }

  const role = emitted ? (emitted.attributes?.role as string) : scan.roleAttr;
  const isGroup = GROUP_TAGS.has(tag) || (role !== null && GROUP_ROLES.has(role));
  const interactiveArea = kind === Kind.Interactive && rawArea > 0 ? rawArea : inh.interactiveArea;
  if (isGroup || pointer !== inh.parentPointer || interactiveArea !== inh.interactiveArea || (el.shadowRoot && !inh.shadow) || delegating || inh.delegate !== null || opensLooks) {
    next = {
      container: isGroup ? idFor(el, ctx.state) : inh.container,
      sequence: isGroup ? sequenceLike(tag, role) : inh.sequence,
      interactiveArea,
      parentPointer: pointer,
      shadow: inh.shadow,
      delegate: delegating ? el : null,
      looks: inh.looks || opensLooks,
    };
  }

  if (tag === "iframe" || tag === "frame") {
    if (emitted && ctx.frames) walkFrame(el as HTMLIFrameElement, emitted, ctx, f, visit);
    return;
  }
  const sr = el.shadowRoot;
  if (sr) {
    scanStyleRules(sr, ctx.rules);
    visitChildren(sr, ctx, f, next.shadow ? next : { ...next, shadow: true });
  }
  visitChildren(el, ctx, f, next);
}

// checkOpacity/checkVisibilityCSS only: opacityProperty/visibilityProperty are their aliases,
// and every key given costs a property read when the browser converts the options.
const VISIBILITY_OPTIONS = { checkOpacity: true, checkVisibilityCSS: true };

type CheckVisibility = (this: Element, o: object) => boolean;
/**
 * The browser's checkVisibility, looked up once: `el.checkVisibility` on elements of many
 * classes is a megamorphic lookup per call. The same native function accepts elements of
 * same-origin frames.
 */
const CHECK_VISIBILITY: CheckVisibility | null =
  typeof Element !== "undefined" && typeof (Element.prototype as { checkVisibility?: unknown }).checkVisibility === "function"
    ? ((Element.prototype as unknown as { checkVisibility: CheckVisibility }).checkVisibility)
    : null;

/**
 * checkVisibility() where the browser has it (rendered, not visibility:hidden, not
 * transparent itself or through an ancestor); null where it does not.
 */
function checkVisible(el: Element): boolean | null {
  return CHECK_VISIBILITY ? CHECK_VISIBILITY.call(el, VISIBILITY_OPTIONS) : null;
}

/** Not visibility:hidden, not transparent (itself or an ancestor), rendered. */
function isVisible(el: Element, cs: CSSStyleDeclaration): boolean {
  return checkVisible(el) ?? (cs.visibility === "visible" && cs.opacity !== "0");
}

function composedContains(outer: Element, inner: Element): boolean {
  for (let n: Node | null = inner; n; ) {
    if (n === outer) return true;
    const p: Node | null = n.parentNode;
    n = p && p.nodeType === 11 ? (p as ShadowRoot).host ?? null : p;
  }
  return false;
}

/** Some positioned box, neither an ancestor nor a descendant, overlaps the element. */
function mayBeCovered(el: Element, rect: { x: number; y: number; width: number; height: number }, occluders: Occluder[]): boolean {
  const r = rect.x + rect.width;
  const b = rect.y + rect.height;
  for (const o of occluders) {
    if (o.x >= r || o.r <= rect.x || o.y >= b || o.b <= rect.y || o.el === el) continue;
    if (composedContains(o.el, el) || composedContains(el, o.el)) continue;
    return true;
  }
  return false;
}

/**
 * The scrub pass: a secret value that leaked into a name, a text or any attribute (embedded
 * controls, a page that echoes it) is masked, by the one scrub of shared/src/agent/core/secrets.ts.
 */
function scrub(list: RawElement[], secrets: SecretValues): void {
  for (const raw of list) {
    if (raw.text) raw.text = secrets.scrub(raw.text);
    const a = raw.attributes as Record<string, string | null>;
    for (const k in a) {
      const v = a[k];
      if (typeof v === "string" && v) a[k] = secrets.scrub(v);
    }
    if (raw.iframe_content && raw.iframe_content.length) scrub(raw.iframe_content as RawElement[], secrets);
  }
}

export async function collect(options: CollectOptions = {}): Promise<CollectResult> {
  return collectSync(options);
}

export function collectSync(options: CollectOptions = {}): CollectResult {
  const t0 = performance.now();
  const phases: Record<string, number> = {};
  const mark = (name: string, since: number): number => {
    const now = performance.now();
    phases[name] = Math.round((now - since) * 10) / 10;
    return now;
  };
  const state = collectorState();
  /** Values of the secret fields found (a page may show them again elsewhere). */
  const secrets = new SecretValues();
  installMutationClock(document, state);
  const vw = window.innerWidth || document.documentElement.clientWidth;
  const vh = window.innerHeight || document.documentElement.clientHeight;
  const rules = emptyRuleSets();
  const style = styleCache(rules.generatedContent);
  const ctx: Ctx = {
    names: { style, display: displayCache(style), lib: libraryStyle(style), generated: rules.generatedContent },
    state,
    rules,
    labels: null,
    hrefs: hrefResolver(),
    allRoles: options.allRoles === true,
    pageListeners: options.pageListeners === true,
    occluders: [],
    style,
    vw,
    vh,
    scrollY: window.scrollY,
    max: options.maxElements ?? 8000,
    textMax: options.maxTextLength ?? 200,
    frames: options.frames !== false,
    viewportOnly: options.viewportOnly === true,
    count: 0,
    pending: [],
    judged: options.textVisibility === true ? [] : null,
    secrets: [],
    purposes: newPurposeCache(),
  };
  const top: Frame = {
    doc: document,
    win: window,
    offX: 0,
    offY: 0,
    frameEl: null,
    parent: null,
    clip: { l: 0, t: 0, r: vw, b: vh },
    out: [],
    depth: 0,
    listeners: listenerRegistry(window, ctx.pageListeners),
    looks: true,
  };
  top.looks = readLooks(top.listeners, window);
  let t = performance.now();
  scanStyleRules(document, rules);
  t = mark("style_rules", t);
  const root = document.body ?? document.documentElement;
  ctx.labels = patchLabels(window);
  ctx.names.labels = ctx.labels;
  // One text cache for the walk and the captcha check: the latter's bounded read of the page
  // text reuses every card and control the walk has read instead of walking them again.
  const captcha = withTextCache(() => {
    try {
      if (root) visit(root, ctx, top, { container: 0, sequence: false, interactiveArea: 0, parentPointer: false, shadow: false, delegate: null, looks: false });
    } finally {
      ctx.labels?.restore();
    }
    t = mark("walk", t);
    if (options.occlusion !== false) {
      const hits: HitCache = new Map();
      for (const p of ctx.pending) {
        if (p.frame.depth === 0 && !mayBeCovered(p.el, p.raw.rect, ctx.occluders)) continue;
        p.raw.is_occluded = isOccluded(p.el, p.raw.rect, p.frame, vw, vh, hits);
      }
    }
    t = mark("occlusion", t);
    if (ctx.judged) {
      // After the walk: the judge reads layout only, and its verdicts concern the page as painted.
      const sight = new Sight();
      for (const p of ctx.judged) {
        const v = sight.element(p.el);
        if (v) (p.raw.attributes as Record<string, string | null>)[TEXT_HIDDEN_ATTRIBUTE] = v;
      }
      t = mark("text_visibility", t);
    }
    if (ctx.secrets.length) {
      for (const v of ctx.secrets) secrets.add(v);
      scrub(top.out, secrets);
    }
    const found = detectCaptcha(document);
    t = mark("captcha", t);
    return found;
  });
  const nodeCount = document.getElementsByTagName("*").length;
  mark("total", t0);
  const metrics: Record<string, unknown> = {
    ready_state: document.readyState,
    quiet_ms: quietMs(state),
    node_count: nodeCount,
    collect_ms: phases.total,
  };
  if (options.timings) metrics.phases_ms = phases;
  return {
    url: secrets.scrub(location.href),
    viewport: { width: vw, height: vh },
    raw_elements: top.out,
    client_metrics: metrics as CollectResult["client_metrics"],
    client_diagnostics: { captcha },
  };
}
