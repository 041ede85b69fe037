// "Can the person see this text?", decided per text run (text node) from layout and paint,
// and "can the person see this box?" per element. Browser code; it reads styles and layout
// only (no DOM writes), so one judge serves a whole read or snapshot and caches as it goes.
//
// A run is hidden when:
//  - nothing of it renders: display:none or content-visibility:hidden on the way up, a closed
//    <details> (all but its summary), <template>, aria-hidden="true", visibility hidden;
//  - it has no box, or one too small to read (font-size ≈ 0, scale(0), a squashed matrix);
//  - its opacity chain (opacity and filter: opacity() of every ancestor, multiplied) is ≈ 0;
//  - its colour does not stand out from what is painted under it: the text colour (alpha,
//    opacity chain, filters, blend mode) against the resolved background (the ancestors'
//    backgrounds composited, or a box painted under the text), contrast below MIN_CONTRAST,
//    unless a text shadow or stroke shows the letters;
//  - it lies outside what the person can reach: outside every clip on the way up (overflow,
//    clip-path, clip), outside the scroll extent of its scroller (the document, or a scrolling
//    box), or its scroller itself cannot be seen;
//  - an opaque box that is not one of its ancestors paints over it (any element or pseudo-
//    element with an opaque background, image, video, canvas or frame that comes later in the
//    painting order); a box fixed to the viewport hides it only when no scroll position shows
//    the run beside it.
// Partly hidden runs (a clip or a box over part of them) are split per word.
import { WHITE, blend, contrast, filterOpacity, filterShadowColours, filtered, over, parseColour, shadowColours, uniformGradient, type RGBA } from "./colour.js";
import { EVERYWHERE, NOWHERE, clipPathRect, clipRect, fromDOMRect, height, intersect, isEmpty, overlaps, width, type Rect } from "./geometry.js";
import { layerItem, paintsAbove, type LayerItem } from "./paint-order.js";

/** Below this opacity (the product of the chain) nothing is legible. */
const MIN_OPACITY = 0.05;
/** Text whose colour differs less than this (WCAG contrast ratio) from its background is not seen. */
const MIN_CONTRAST = 1.2;
/** A shadow or stroke with at least this contrast makes the letters visible. */
const OUTLINE_CONTRAST = 1.5;
/** Line boxes lower than this (px) are not legible text. */
const MIN_TEXT_HEIGHT = 4;
/** A run narrower than this per visible character is squashed beyond reading. */
const MIN_CHAR_WIDTH = 0.75;
/** A box at least this opaque hides what is under it. */
const OPAQUE = 0.9;
/** A line is hidden when less than this share of its height shows. */
const MIN_SHOWN = 0.6;

/** Hidden character ranges of a run: [] visible, [[0, length]] hidden. */
export type HiddenRanges = Array<[number, number]>;

const SKIP_PARENTS = new Set(["script", "style", "noscript", "template", "title", "textarea", "option", "optgroup", "select", "datalist", "head", "iframe", "frame", "object"]);
const REPLACED = new Set(["img", "video", "canvas", "iframe", "embed", "object", "frame"]);
const SCROLLS = new Set(["auto", "scroll", "overlay"]);
const CLIPS = new Set(["hidden", "clip"]);

interface Scroll {
  /** Where its content can be brought into view (viewport coordinates). */
  extent: Rect;
  /** The scrolling box itself can be seen somewhere. */
  visible: boolean;
  /** Fixed to the viewport (position: fixed content): does not move when the page scrolls. */
  viewport: boolean;
}

interface Ctx {
  clip: Rect;
  scroll: Scroll;
}

interface State {
  el: Element | null;
  cs: CSSStyleDeclaration | null;
  /** Nothing in it renders. */
  gone: boolean;
  /** Its children do not render (content-visibility: hidden). */
  hidesChildren: boolean;
  opacity: number;
  /** Where its own box may show. */
  box: Ctx;
  /** Where its in-flow content may show. */
  content: Ctx;
  parent: State | null;
  /** Makes the containing block of absolutely / fixed positioned descendants (read on demand). */
  cbAbs?: boolean;
  cbFixed?: boolean;
  /** Some element from here up clips its background to its text, or has a filter or blend mode (read on demand). */
  textClip?: boolean;
  effects?: boolean;
  /** Some element from here up has a negative z-index (read on demand). */
  sunk?: boolean;
  /** clip-path / clip of itself and its ancestors since the last scroller (positioned content cannot escape them). */
  pathClip: Rect;
  /** Its own clip-path / clip, viewport coordinates. */
  ownClip: Rect;
  chain?: LayerItem[];
  bg?: Background;
  rendered?: boolean;
}

/** What is painted under an element's content: an opaque colour, or unknown (an image). */
interface Background {
  colour: RGBA | null;
  /** The element that paints it (null: the canvas). */
  el: Element | null;
}

/** A box that may paint over text: an element or pseudo-element with an opaque paint. */
interface Occluder {
  el: Element;
  pseudo: "before" | "after" | null;
  rect: Rect;
  /** Fixed to the viewport. */
  fixed: boolean;
  /** Its colour, null for an image, video, canvas or frame. */
  colour: RGBA | null;
  /** Paints with inline content when in flow (replaced or inline-level). */
  inline: boolean;
  chain?: LayerItem[];
}

const BUCKET = 256;

function flatParent(n: Node): Element | null {
  const slot = (n as Element | Text).assignedSlot;
  if (slot) return slot;
  const p = n.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return (p as ShadowRoot).host ?? null;
  return p.nodeType === 1 ? (p as Element) : null;
}

function composedContains(outer: Node, inner: Node): boolean {
  for (let n: Node | null = inner; n; ) {
    if (n === outer) return true;
    const slot: Element | null = (n as Element).assignedSlot ?? null;
    const p: Node | null = slot ?? n.parentNode;
    n = p && p.nodeType === 11 ? (p as ShadowRoot).host ?? null : p;
  }
  return false;
}

const num = (s: string, d = 1) => {
  const n = parseFloat(s);
  return Number.isFinite(n) ? n : d;
};

function establishesAbsCB(cs: CSSStyleDeclaration): boolean {
  return cs.position !== "static" || establishesFixedCB(cs);
}

function establishesFixedCB(cs: CSSStyleDeclaration): boolean {
  return (
    cs.transform !== "none" ||
    cs.perspective !== "none" ||
    cs.filter !== "none" ||
    (cs.translate !== "none" && cs.translate !== "") ||
    (cs.rotate !== "none" && cs.rotate !== "") ||
    (cs.scale !== "none" && cs.scale !== "") ||
    /paint|layout|strict|content/.test(cs.contain) ||
    /transform|perspective|filter/.test(cs.willChange)
  );
}

/**
 * The elements of a tree scope some rule gives ::before/::after content (any, "" included);
 * null when a sheet cannot be read.
 */
function pseudoHostsOf(scope: Document | ShadowRoot): Set<Element> | null {
  const selectors = new Set<string>();
  let unreadable = false;
  const visit = (rules: CSSRuleList) => {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      const imported = (rule as CSSImportRule).styleSheet;
      if (imported) {
        try {
          visit(imported.cssRules);
        } catch {
          unreadable = true;
        }
      }
      const style = (rule as CSSStyleRule).style;
      const content = style?.content;
      if (content && content !== "none" && content !== "normal") {
        const sel = (rule as CSSStyleRule).selectorText ?? "";
        for (const part of sel.split(",")) {
          if (!/::?(?:before|after)\b/i.test(part)) continue;
          selectors.add(part.replace(/::?(?:before|after)\b/gi, "").replace(/:(?:hover|focus(?:-visible|-within)?|active|visited)\b/g, "").trim() || "*");
        }
      }
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested && nested.length) visit(nested);
    }
  };
  const sheets: CSSStyleSheet[] = Array.from(scope.styleSheets ?? []);
  for (const s of (scope as { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets ?? []) sheets.push(s);
  for (const sheet of sheets) {
    try {
      visit(sheet.cssRules);
    } catch {
      unreadable = true;
    }
  }
  if (unreadable) return null;
  const out = new Set<Element>();
  for (const sel of selectors) {
    try {
      scope.querySelectorAll(sel).forEach((e) => out.add(e));
    } catch {
      return null; // a selector we cannot match apart: check every element
    }
  }
  return out;
}

export class VisibilityJudge {
  private readonly states = new WeakMap<Element, State>();
  private readonly runs = new Map<Text, HiddenRanges | null>();
  private readonly boxes = new WeakMap<Element, boolean>();
  private readonly root: State;
  private readonly viewportScroll: Scroll;
  private readonly canvas: RGBA;
  private readonly vw: number;
  private readonly vh: number;
  private readonly maxScrollY: number;
  private readonly range: Range;
  private occluders: Occluder[] | null = null;
  private fixedOccluders: Occluder[] = [];
  private buckets = new Map<number, Occluder[]>();
  private readonly stacks = new Map<string, Element[]>();
  private readonly pseudoHosts = new Map<Node, Set<Element> | null>();

  constructor(private readonly doc: Document) {
    const win = doc.defaultView ?? window;
    this.vw = win.innerWidth || doc.documentElement.clientWidth;
    this.vh = win.innerHeight || doc.documentElement.clientHeight;
    this.range = doc.createRange();
    const html = doc.documentElement;
    const body = doc.body;
    const hcs = win.getComputedStyle(html);
    const bcs = body ? win.getComputedStyle(body) : null;
    // The viewport scrolls as the root says, or as the body says when the root leaves it visible.
    const ox = hcs.overflowX !== "visible" ? hcs.overflowX : bcs?.overflowX ?? "visible";
    const oy = hcs.overflowY !== "visible" ? hcs.overflowY : bcs?.overflowY ?? "visible";
    const se = doc.scrollingElement ?? html;
    const docW = Math.max(se.scrollWidth, this.vw);
    const docH = Math.max(se.scrollHeight, this.vh);
    const sx = win.scrollX;
    const sy = win.scrollY;
    this.maxScrollY = CLIPS.has(oy) ? sy : Math.max(0, docH - this.vh);
    const extent: Rect = {
      l: CLIPS.has(ox) ? 0 : -sx,
      r: CLIPS.has(ox) ? this.vw : docW - sx,
      t: CLIPS.has(oy) ? 0 : -sy,
      b: CLIPS.has(oy) ? this.vh : docH - sy,
    };
    const rootScroll: Scroll = { extent, visible: true, viewport: false };
    this.viewportScroll = { extent: { l: 0, t: 0, r: this.vw, b: this.vh }, visible: true, viewport: true };
    const ctx: Ctx = { clip: EVERYWHERE, scroll: rootScroll };
    this.root = { el: null, cs: null, gone: false, hidesChildren: false, opacity: 1, box: ctx, content: ctx, parent: null, pathClip: EVERYWHERE, ownClip: EVERYWHERE, chain: [], textClip: false, effects: false, sunk: false };
    // The canvas: the root's or the body's background, else the UA's (dark for a dark-only scheme).
    const scheme = hcs.colorScheme || "normal";
    const dark = /\bdark\b/.test(scheme) && (!/\blight\b/.test(scheme) || win.matchMedia?.("(prefers-color-scheme: dark)").matches === true);
    this.canvas = dark ? { r: 0.07, g: 0.07, b: 0.07, a: 1 } : WHITE;
  }

  private style(el: Element): CSSStyleDeclaration {
    return (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
  }

  /** Computed display of an element (through the judge's cache). */
  displayOf(el: Element): string {
    return this.state(el).cs?.display ?? "";
  }

  /** The element's state, computed top-down for any ancestors not seen yet. */
  private state(el: Element): State {
    const known = this.states.get(el);
    if (known) return known;
    const todo: Element[] = [];
    let ps: State = this.root;
    for (let n: Element | null = el; n; n = flatParent(n)) {
      const s = this.states.get(n);
      if (s) {
        ps = s;
        break;
      }
      todo.push(n);
    }
    for (let i = todo.length - 1; i >= 0; i--) {
      const s = this.compute(todo[i], ps);
      this.states.set(todo[i], s);
      ps = s;
    }
    return ps;
  }

  private compute(el: Element, ps: State): State {
    const cs = this.style(el);
    const tag = el.localName;
    const parent = ps.el;
    let gone = ps.gone || ps.hidesChildren || cs.display === "none" || tag === "template" || el.getAttribute("aria-hidden") === "true";
    if (!gone && parent && parent.localName === "details" && !(parent as HTMLDetailsElement).open) {
      // A closed disclosure shows its first summary only.
      gone = !(tag === "summary" && parent.querySelector(":scope > summary") === el);
    }
    const opacity = gone ? 0 : ps.opacity * num(cs.opacity) * filterOpacity(cs.filter);
    const pos = cs.position;
    const box = this.boxIn(ps, pos);
    const s: State = { el, cs, gone, hidesChildren: cs.contentVisibility === "hidden", opacity, box, content: box, parent: ps, pathClip: ps.pathClip, ownClip: EVERYWHERE };
    if (gone) return s;
    const html = el === this.doc.documentElement;
    const propagated = html || (el === this.doc.body && this.style(this.doc.documentElement).overflowX === "visible" && this.style(this.doc.documentElement).overflowY === "visible");
    const display = cs.display;
    const ox = cs.overflowX;
    const oy = cs.overflowY;
    const overflows = !propagated && display !== "inline" && display !== "contents" && (ox !== "visible" || oy !== "visible");
    const clipPath = cs.clipPath;
    const clipProp = (pos === "absolute" || pos === "fixed") && cs.clip !== "auto" ? cs.clip : "";
    if (!overflows && clipPath === "none" && !clipProp) return s;
    const rect = fromDOMRect(el.getBoundingClientRect());
    let own = clipPath !== "none" ? this.clipPathOf(clipPath, rect) : EVERYWHERE;
    if (clipProp) own = intersect(own, clipRect(clipProp, rect));
    s.ownClip = own;
    s.pathClip = intersect(ps.pathClip, own);
    if (!overflows) {
      s.content = { clip: intersect(box.clip, own), scroll: box.scroll };
      return s;
    }
    const he = el as HTMLElement;
    // The padding box; client sizes are untransformed, the rect is not: scale them alike.
    const ow = he.offsetWidth || rect.r - rect.l;
    const oh = he.offsetHeight || rect.b - rect.t;
    const kx = ow ? (rect.r - rect.l) / ow : 1;
    const ky = oh ? (rect.b - rect.t) / oh : 1;
    const pl = rect.l + el.clientLeft * kx;
    const pt = rect.t + el.clientTop * ky;
    const pr = pl + (el.clientWidth || ow) * kx;
    const pb = pt + (el.clientHeight || oh) * ky;
    const sx = SCROLLS.has(ox);
    const sy = SCROLLS.has(oy);
    if (sx || sy) {
      const extent: Rect = {
        l: sx ? pl - el.scrollLeft * kx : CLIPS.has(ox) ? pl : -Infinity,
        r: sx ? pl + (el.scrollWidth - el.scrollLeft) * kx : CLIPS.has(ox) ? pr : Infinity,
        t: sy ? pt - el.scrollTop * ky : CLIPS.has(oy) ? pt : -Infinity,
        b: sy ? pt + (el.scrollHeight - el.scrollTop) * ky : CLIPS.has(oy) ? pb : Infinity,
      };
      const shown = intersect(intersect(intersect({ l: pl, t: pt, r: pr, b: pb }, box.clip), own), box.scroll.extent);
      const visible = box.scroll.visible && !isEmpty(shown) && opacity >= MIN_OPACITY;
      s.content = { clip: EVERYWHERE, scroll: { extent, visible, viewport: false } };
      s.pathClip = EVERYWHERE; // what scrolls inside is clipped by the scroller, judged above
      return s;
    }
    const padding: Rect = { l: CLIPS.has(ox) ? pl : -Infinity, r: CLIPS.has(ox) ? pr : Infinity, t: CLIPS.has(oy) ? pt : -Infinity, b: CLIPS.has(oy) ? pb : Infinity };
    s.content = { clip: intersect(intersect(box.clip, own), padding), scroll: box.scroll };
    return s;
  }

  /** Where a box positioned `pos` inside `ps` may show: out of the clips its containing block escapes. */
  /** The nearest state from `ps` up that contains boxes positioned `pos` (null: the initial one). */
  private containingBlock(ps: State, pos: "absolute" | "fixed"): State | null {
    for (let s: State | null = ps; s && s.el && s.cs; s = s.parent) {
      if (pos === "absolute") {
        s.cbAbs ??= establishesAbsCB(s.cs);
        if (s.cbAbs) return s;
      } else {
        s.cbFixed ??= establishesFixedCB(s.cs);
        if (s.cbFixed) return s;
      }
    }
    return null;
  }

  private boxIn(ps: State, pos: string): Ctx {
    if (pos === "fixed") {
      const cb = this.containingBlock(ps, "fixed");
      return cb ? { clip: intersect(cb.content.clip, ps.pathClip), scroll: cb.content.scroll } : { clip: ps.pathClip, scroll: this.viewportScroll };
    }
    if (pos === "absolute") {
      const cb = this.containingBlock(ps, "absolute");
      return cb ? { clip: intersect(cb.content.clip, ps.pathClip), scroll: cb.content.scroll } : { clip: ps.pathClip, scroll: this.root.content.scroll };
    }
    return ps.content;
  }

  private clipPathOf(value: string, rect: Rect): Rect {
    const url = /^url\("?#([^")]+)"?\)/.exec(value);
    if (!url) return clipPathRect(value, rect);
    const ref = this.doc.getElementById(decodeURIComponent(url[1]));
    if (!ref || ref.localName !== "clipPath") return EVERYWHERE;
    // An SVG clip path with nothing of any size in it lets nothing through.
    for (const c of Array.from(ref.children)) {
      try {
        const b = (c as SVGGraphicsElement).getBBox?.();
        if (b && b.width > 0 && b.height > 0) return EVERYWHERE;
      } catch {
        return EVERYWHERE;
      }
    }
    return NOWHERE;
  }

  /** The browser's own verdict (display, content-visibility) for the nearest box-bearing ancestor. */
  private rendered(el: Element, s: State): boolean {
    if (s.rendered !== undefined) return s.rendered;
    let n: Element | null = el;
    while (n && this.state(n).cs?.display === "contents") n = flatParent(n);
    const check = n && (n as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
    s.rendered = n && check ? check.call(n, {}) : true;
    return s.rendered;
  }

  private chain(el: Element): LayerItem[] {
    const s = this.state(el);
    if (s.chain) return s.chain;
    const parent = flatParent(el);
    const pc = parent ? this.chain(parent) : [];
    const item = s.cs ? layerItem(el, s.cs, parent ? this.state(parent).cs?.display ?? "" : "") : null;
    s.chain = item ? [...pc, item] : pc;
    return s.chain;
  }

  // ------------------------------------------------------------------ backgrounds

  /** The colour an element's own background paints (alpha kept), "image", or null (none). */
  private ownPaint(el: Element | null, cs: CSSStyleDeclaration, opacity: number): RGBA | "image" | null {
    if (el && REPLACED.has(el.localName)) {
      if (el.localName === "img" && !((el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0)) return null;
      return "image";
    }
    const img = cs.backgroundImage;
    if (img && img !== "none") {
      const u = uniformGradient(img);
      if (!u) return "image";
      if (u.a > 0) return { ...u, a: u.a * opacity };
    }
    const c = parseColour(cs.backgroundColor);
    if (!c || c.a === 0) return null;
    return { ...c, a: c.a * opacity };
  }

  /** What the ancestors paint under an element's content, composited. */
  private background(el: Element | null): Background {
    if (!el) return { colour: this.canvas, el: null };
    const s = this.state(el);
    if (s.bg) return s.bg;
    const under = this.background(flatParent(el));
    let bg = under;
    if (s.cs && !s.gone) {
      const paint = this.ownPaint(el, s.cs, num(s.cs.opacity));
      if (paint === "image") bg = { colour: null, el };
      else if (paint) bg = paint.a >= 0.99 ? { colour: { ...paint, a: 1 }, el } : { colour: under.colour ? over(paint, under.colour) : null, el };
    }
    s.bg = bg;
    return bg;
  }

  /** Some ancestor clips its background to its text (gradient text): the text's colour is not its fill. */
  private clippedToText(s: State): boolean {
    if (s.textClip === undefined) s.textClip = (s.cs?.backgroundClip === "text") || (s.parent ? this.clippedToText(s.parent) : false);
    return s.textClip;
  }

  private sunk(s: State): boolean {
    if (s.sunk === undefined) s.sunk = (s.cs ? s.cs.zIndex.startsWith("-") : false) || (s.parent ? this.sunk(s.parent) : false);
    return s.sunk;
  }

  /** Some element from here up has a filter or a blend mode (which change colours). */
  private effects(s: State): boolean {
    if (s.effects === undefined) s.effects = (s.cs ? s.cs.filter !== "none" || s.cs.mixBlendMode !== "normal" : false) || (s.parent ? this.effects(s.parent) : false);
    return s.effects;
  }

  /** The text colour of `p` does not stand out from the background at `point`. */
  private colourHides(p: Element, s: State, t: Node, point: { x: number; y: number }, under: Occluder[]): boolean {
    const cs = s.cs!;
    const fill = parseColour((cs as CSSStyleDeclaration & { webkitTextFillColor?: string }).webkitTextFillColor || cs.color);
    if (!fill) return false;
    const alpha = fill.a * s.opacity;
    if (this.clippedToText(s)) return false;
    let bg = this.background(p);
    // A box painted under the text but over the ancestors' background is what the text is seen on.
    for (const o of under) {
      if (o.rect.l <= point.x && o.rect.r >= point.x && o.rect.t <= point.y && o.rect.b >= point.y && (!bg.el || composedContains(bg.el, o.el))) {
        bg = { colour: o.colour, el: o.el };
      }
    }
    if (!bg.colour) return alpha < MIN_OPACITY && !this.outlined(cs, s, null);
    let text: RGBA | null = { ...fill, a: alpha };
    if (!this.effects(s)) return contrast(over(text, bg.colour), bg.colour) < MIN_CONTRAST && !this.outlined(cs, s, bg.colour);
    let mode = "normal";
    // Filters and blend modes between the text and its background change the text alone…
    for (let n: Element | null = p; n && n !== bg.el; n = flatParent(n)) {
      const ncs = this.state(n).cs;
      if (!ncs) continue;
      if (ncs.filter !== "none") text = text && filtered(text, ncs.filter);
      if (ncs.mixBlendMode !== "normal" && mode === "normal") mode = ncs.mixBlendMode;
    }
    if (!text) return alpha < MIN_OPACITY;
    let seen = mode === "normal" ? over(text, bg.colour) : blend(mode, text, bg.colour);
    if (!seen) return alpha < MIN_OPACITY;
    let back: RGBA | null = bg.colour;
    // …those above the background change both.
    for (let n: Element | null = bg.el; n; n = flatParent(n)) {
      const ncs = this.state(n).cs;
      if (!ncs || ncs.filter === "none") continue;
      seen = seen && filtered(seen, ncs.filter);
      back = back && filtered(back, ncs.filter);
    }
    if (!seen || !back) return alpha < MIN_OPACITY;
    if (contrast(seen, back) >= MIN_CONTRAST) return false;
    return !this.outlined(cs, s, back);
  }

  /** A text shadow, stroke or drop shadow that shows the letters against `back`. */
  private outlined(cs: CSSStyleDeclaration, s: State, back: RGBA | null): boolean {
    const stands = (c: RGBA) => {
      const a = c.a * s.opacity;
      if (a < MIN_OPACITY) return false;
      return back ? contrast(over(c, back, s.opacity), back) >= OUTLINE_CONTRAST : true;
    };
    if (shadowColours(cs.textShadow).some(stands)) return true;
    const stroke = num((cs as CSSStyleDeclaration & { webkitTextStrokeWidth?: string }).webkitTextStrokeWidth ?? "0", 0);
    if (stroke > 0) {
      const sc = parseColour((cs as CSSStyleDeclaration & { webkitTextStrokeColor?: string }).webkitTextStrokeColor);
      if (sc && stands(sc)) return true;
    }
    for (let n: Element | null = s.el; n; n = flatParent(n)) {
      const f = this.state(n).cs?.filter;
      if (f && f !== "none" && filterShadowColours(f).some(stands)) return true;
    }
    return false;
  }

  // ------------------------------------------------------------------ boxes over text

  /** Every box with an opaque paint, found once per judge (one walk of the composed tree). */
  private allOccluders(): Occluder[] {
    if (this.occluders) return this.occluders;
    const out: Occluder[] = [];
    const visit = (el: Element): void => {
      const s = this.state(el);
      if (s.gone) return;
      const cs = s.cs!;
      if (cs.visibility === "visible" && s.opacity >= OPAQUE && s.box.scroll.visible) {
        const paint = this.ownPaint(el, cs, s.opacity);
        if (paint === "image" || (paint && paint.a >= OPAQUE)) {
          const area = intersect(intersect(s.box.clip, s.ownClip), s.box.scroll.extent);
          const rect = intersect(fromDOMRect(el.getBoundingClientRect()), area);
          if (!isEmpty(rect)) {
            const d = cs.display;
            out.push({ el, pseudo: null, rect, fixed: s.box.scroll.viewport, colour: paint === "image" ? null : paint, inline: REPLACED.has(el.localName) || d.startsWith("inline-") || (d === "inline" && el.localName === "svg") });
          }
        }
        if (this.mayHavePseudo(el)) for (const pseudo of ["before", "after"] as const) this.pseudoOccluder(el, s, pseudo, out);
      }
      const sr = el.shadowRoot;
      if (sr) for (let c = sr.firstElementChild; c; c = c.nextElementSibling) visit(c);
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c);
    };
    if (this.doc.documentElement) visit(this.doc.documentElement);
    this.occluders = out;
    for (const o of out) {
      if (o.fixed) {
        this.fixedOccluders.push(o);
        continue;
      }
      for (let k = Math.floor(Math.max(-1e6, o.rect.t) / BUCKET); k <= Math.floor(Math.min(1e6, o.rect.b) / BUCKET); k++) {
        let list = this.buckets.get(k);
        if (!list) this.buckets.set(k, (list = []));
        list.push(o);
      }
    }
    return out;
  }

  /**
   * Whether a style rule may give `el` a ::before/::after box. Reading a pseudo-element's style
   * costs about as much as an element's, and most elements have none: the tree scope's style
   * sheets name the few that may. A sheet that cannot be read (another origin) means every
   * element of that scope is checked.
   */
  private mayHavePseudo(el: Element): boolean {
    const scope = el.getRootNode() as Document | ShadowRoot;
    let hosts = this.pseudoHosts.get(scope);
    if (hosts === undefined) {
      hosts = pseudoHostsOf(scope);
      this.pseudoHosts.set(scope, hosts);
    }
    return hosts === null || hosts.has(el);
  }

  /** An absolutely placed ::before/::after with an opaque background (the usual CSS-only overlay). */
  private pseudoOccluder(el: Element, s: State, pseudo: "before" | "after", out: Occluder[]): void {
    const pcs = (el.ownerDocument.defaultView ?? window).getComputedStyle(el, `::${pseudo}`);
    const content = pcs.content;
    if (!content || content === "none" || content === "normal" || pcs.display === "none" || pcs.visibility !== "visible") return;
    const paint = this.ownPaint(null, pcs, s.opacity * num(pcs.opacity));
    if (!(paint === "image" || (paint && paint.a >= OPAQUE))) return;
    const pos = pcs.position;
    if (pos !== "absolute" && pos !== "fixed") return;
    // Placed in its containing block (the element itself for the usual `inset: 0` overlay).
    const cb = this.containingBlock(s, pos);
    const sx = -this.root.content.scroll.extent.l;
    const sy = -this.root.content.scroll.extent.t;
    const base = cb?.el ? fromDOMRect(cb.el.getBoundingClientRect()) : pos === "fixed" ? { l: 0, t: 0, r: this.vw, b: this.vh } : { l: -sx, t: -sy, r: this.vw - sx, b: this.vh - sy };
    const w = num(pcs.width, NaN);
    const h = num(pcs.height, NaN);
    if (!Number.isFinite(w) || !Number.isFinite(h)) return;
    const bl = cb?.el ? (cb.el as HTMLElement).clientLeft : 0;
    const bt = cb?.el ? (cb.el as HTMLElement).clientTop : 0;
    const left = num(pcs.left, NaN);
    const top = num(pcs.top, NaN);
    const right = num(pcs.right, NaN);
    const bottom = num(pcs.bottom, NaN);
    const l = Number.isFinite(left) ? base.l + bl + left : Number.isFinite(right) ? base.r - right - w : base.l + bl;
    const t = Number.isFinite(top) ? base.t + bt + top : Number.isFinite(bottom) ? base.b - bottom - h : base.t + bt;
    const box = this.boxIn(s, pos);
    const rect = intersect({ l, t, r: l + w, b: t + h }, intersect(box.clip, box.scroll.extent));
    if (isEmpty(rect) || !box.scroll.visible) return;
    const z = pcs.zIndex === "auto" ? 0 : Number(pcs.zIndex) || 0;
    out.push({
      el,
      pseudo,
      rect,
      fixed: box.scroll.viewport,
      colour: paint === "image" ? null : paint,
      inline: false,
      chain: [...this.chain(el), { el, pseudo, z, context: pcs.zIndex !== "auto" }],
    });
  }

  private near(r: Rect): Occluder[] {
    this.allOccluders();
    const seen = new Set<Occluder>();
    const out: Occluder[] = [];
    for (let k = Math.floor(Math.max(-1e6, r.t) / BUCKET); k <= Math.floor(Math.min(1e6, r.b) / BUCKET); k++) {
      for (const o of this.buckets.get(k) ?? []) {
        if (!seen.has(o) && overlaps(o.rect, r)) {
          seen.add(o);
          out.push(o);
        }
      }
    }
    for (const o of this.fixedOccluders) if (!seen.has(o)) out.push(o); // may come over the run at another scroll position
    return out;
  }

  private stackAt(x: number, y: number): Element[] {
    const key = `${Math.round(x)},${Math.round(y)}`;
    let st = this.stacks.get(key);
    if (!st) this.stacks.set(key, (st = this.doc.elementsFromPoint(x, y)));
    return st;
  }

  /** Whether occluder `o` paints over `target` (a text node with parent `p`, or an element box). */
  private above(o: Occluder, target: Node, p: Element, overlap: Rect): boolean {
    if (!o.pseudo && !o.fixed) {
      // Where the engine can tell (both hit-testable, in the viewport), its stack decides.
      const x = (Math.max(o.rect.l, overlap.l) + Math.min(o.rect.r, overlap.r)) / 2;
      const y = (Math.max(o.rect.t, overlap.t) + Math.min(o.rect.b, overlap.b)) / 2;
      if (x >= 0 && y >= 0 && x < this.vw && y < this.vh) {
        const stack = this.stackAt(x, y);
        let io = -1;
        let it = -1;
        for (let i = 0; i < stack.length && (io < 0 || it < 0); i++) {
          const e = stack[i];
          if (io < 0 && composedContains(o.el, e)) io = i;
          if (it < 0 && composedContains(e, p)) it = i;
        }
        if (io >= 0 && it >= 0) return io < it;
      }
    }
    o.chain ??= this.chain(o.el);
    return paintsAbove({ node: o.el, pseudo: o.pseudo, chain: o.chain, inline: o.inline }, { node: target, chain: this.chain(p) });
  }

  /**
   * Backgrounds of the ancestors that paint over `p`'s content because it sits in a negative
   * z-index layer below them (z-index: -1 under a non-stacking-context parent with a background).
   */
  private buriedUnder(p: Element): Rect[] {
    if (!this.sunk(this.state(p))) return [];
    const chain = this.chain(p);
    const out: Rect[] = [];
    const htmlBg = parseColour(this.state(this.doc.documentElement).cs?.backgroundColor);
    for (let i = 0; i < chain.length; i++) {
      if (chain[i].z >= 0) continue;
      let rootOfContext: Element | null = null;
      for (let j = i - 1; j >= 0; j--) if (chain[j].context) { rootOfContext = chain[j].el; break; }
      for (let n = flatParent(chain[i].el); n && n !== rootOfContext; n = flatParent(n)) {
        if (n === this.doc.documentElement || (n === this.doc.body && (!htmlBg || htmlBg.a === 0))) continue; // painted on the canvas, under everything
        const s = this.state(n);
        const paint = s.cs ? this.ownPaint(n, s.cs, s.opacity) : null;
        if (paint === "image" || (paint && paint.a >= OPAQUE)) out.push(fromDOMRect(n.getBoundingClientRect()));
      }
    }
    return out;
  }

  /** A box fixed to the viewport hides `r` (a rect in the scrolling document) at every scroll position. */
  private fixedHides(o: Rect, r: Rect): boolean {
    if (o.l > r.l + 1 || o.r < r.r - 1) return false;
    const sy = -this.root.content.scroll.extent.t; // current scrollY
    const d0 = r.t + sy;
    const d1 = r.b + sy;
    const M = this.maxScrollY;
    const h = r.b - r.t;
    // Scroll positions s in [0, M] where the line is wholly in the viewport beside the box.
    const fits = (lo: number, hi: number) => Math.max(lo, 0) <= Math.min(hi, M);
    if (o.t > 0 && o.t >= h && fits(d1 - o.t, d0)) return false;
    if (o.b < this.vh && this.vh - o.b >= h && fits(d1 - this.vh, d0 - o.b)) return false;
    return true;
  }

  // ------------------------------------------------------------------ verdicts

  /** Hidden character ranges of a text run; null when it is not a run (whitespace, script text…). */
  run(t: Text): HiddenRanges | null {
    if (this.runs.has(t)) return this.runs.get(t)!;
    const r = this.judgeRun(t);
    this.runs.set(t, r);
    return r;
  }

  private judgeRun(t: Text): HiddenRanges | null {
    const value = t.nodeValue ?? "";
    if (!/\S/.test(value)) return null;
    const all: HiddenRanges = [[0, value.length]];
    const pn = t.parentNode;
    if (pn && pn.nodeType === 1 && (pn as Element).shadowRoot && !t.assignedSlot) return all; // a host's unslotted text is not rendered
    const p = flatParent(t);
    if (!p) return null;
    if (SKIP_PARENTS.has(p.localName)) return null;
    const s = this.state(p);
    if (s.gone || s.cs!.visibility !== "visible" || s.opacity < MIN_OPACITY || !this.rendered(p, s)) return all;
    this.range.selectNodeContents(t);
    const rects = Array.from(this.range.getClientRects()).filter((r) => r.width > 0 && r.height > 0).map(fromDOMRect);
    if (!rects.length) return all;
    let maxH = 0;
    let sumW = 0;
    for (const r of rects) {
      maxH = Math.max(maxH, height(r));
      sumW += width(r);
    }
    const chars = value.replace(/\s+/g, "").length;
    if (maxH < MIN_TEXT_HEIGHT || sumW < chars * MIN_CHAR_WIDTH) return all;
    const ctx = s.content;
    if (!ctx.scroll.visible) return all;
    const area = intersect(ctx.clip, ctx.scroll.extent);
    const runBox = rects.reduce((a, r) => ({ l: Math.min(a.l, r.l), t: Math.min(a.t, r.t), r: Math.max(a.r, r.r), b: Math.max(a.b, r.b) }));
    const covers: Array<{ rect: Rect; fixed: boolean }> = [];
    const under: Occluder[] = [];
    for (const o of this.near(runBox)) {
      const fixed = o.fixed && !ctx.scroll.viewport;
      // A box fixed to the viewport matters only where no scroll position moves the line out from under it.
      if (fixed && !rects.some((r) => this.fixedHides(o.rect, intersect(r, area)))) continue;
      if (!o.pseudo && composedContains(o.el, t)) continue; // its own ancestors are what it is painted on
      if (this.above(o, t, p, runBox)) covers.push({ rect: o.rect, fixed });
      else if (!o.fixed) under.push(o);
    }
    for (const r of this.buriedUnder(p)) covers.push({ rect: r, fixed: false });
    const first = rects[0];
    if (this.colourHides(p, s, t, { x: (first.l + first.r) / 2, y: (first.t + first.b) / 2 }, under)) return all;
    // Per line box: shown, hidden or in part.
    let shown = 0;
    let hidden = 0;
    for (const r of rects) {
      const v = this.lineVerdict(r, area, covers);
      if (v === 1) shown++;
      else if (v === 0) hidden++;
    }
    if (shown === rects.length) return [];
    if (hidden === rects.length) return all;
    return this.byWord(t, value, area, covers);
  }

  /** 1: shown, 0: hidden, 0.5: in part. */
  private lineVerdict(r: Rect, area: Rect, covers: Array<{ rect: Rect; fixed: boolean }>): number {
    const vis = intersect(r, area);
    if (height(vis) < MIN_SHOWN * height(r) || width(vis) <= 0) return 0;
    let partial = width(vis) < width(r) - 1;
    for (const c of covers) {
      const o = c.rect;
      if (c.fixed) {
        if (this.fixedHides(o, vis)) return 0;
        continue;
      }
      if (!overlaps(o, vis)) continue;
      const vcover = Math.min(o.b, vis.b) - Math.max(o.t, vis.t);
      if (vcover < MIN_SHOWN * height(vis)) continue;
      if (o.l <= vis.l + 1 && o.r >= vis.r - 1) return 0;
      partial = true;
    }
    return partial ? 0.5 : 1;
  }

  /** A run partly hidden: which words are (by their centre). */
  private byWord(t: Text, value: string, area: Rect, covers: Array<{ rect: Rect; fixed: boolean }>): HiddenRanges {
    const out: HiddenRanges = [];
    for (const m of value.matchAll(/\S+/g)) {
      const start = m.index;
      const end = start + m[0].length;
      this.range.setStart(t, start);
      this.range.setEnd(t, end);
      const r = this.range.getBoundingClientRect();
      let hide: boolean;
      if (r.width <= 0 || r.height <= 0) hide = true;
      else {
        const w = fromDOMRect(r);
        const cx = (w.l + w.r) / 2;
        const dot: Rect = { l: cx - 0.5, r: cx + 0.5, t: w.t, b: w.b };
        hide = cx < area.l || cx > area.r || this.lineVerdict(dot, area, covers) === 0;
      }
      if (!hide) continue;
      const last = out[out.length - 1];
      if (last && /^\s*$/.test(value.slice(last[1], start))) last[1] = end;
      else out.push([start, end]);
    }
    return out;
  }

  /** The person cannot see the element's own box (nothing of it renders, or every part is hidden). */
  boxHidden(el: Element): boolean {
    const known = this.boxes.get(el);
    if (known !== undefined) return known;
    const v = this.judgeBox(el);
    this.boxes.set(el, v);
    return v;
  }

  private judgeBox(el: Element): boolean {
    const s = this.state(el);
    if (s.gone || s.cs!.visibility !== "visible" || s.opacity < MIN_OPACITY || !this.rendered(el, s)) return true;
    const rects = Array.from(el.getClientRects()).filter((r) => r.width >= 2 && r.height >= 2).map(fromDOMRect);
    if (!rects.length) return true;
    if (!s.box.scroll.visible) return true;
    const area = intersect(intersect(s.box.clip, s.ownClip), s.box.scroll.extent);
    const box = rects.reduce((a, r) => ({ l: Math.min(a.l, r.l), t: Math.min(a.t, r.t), r: Math.max(a.r, r.r), b: Math.max(a.b, r.b) }));
    const covers: Array<{ rect: Rect; fixed: boolean }> = [];
    for (const o of this.near(box)) {
      const fixed = o.fixed && !s.box.scroll.viewport;
      if (fixed && !rects.some((r) => this.fixedHides(o.rect, intersect(r, area)))) continue;
      if (composedContains(o.el, el) || (!o.pseudo && composedContains(el, o.el))) continue;
      if (this.above(o, el, el, box)) covers.push({ rect: o.rect, fixed });
    }
    return rects.every((r) => this.lineVerdict(r, area, covers) === 0);
  }
}

