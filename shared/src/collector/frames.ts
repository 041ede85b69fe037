// Frames: a same-origin frame's document is walked as part of the page, its elements' boxes
// moved into the top viewport's coordinates; a cross-origin one is reported but not read.
import type { RawElement } from "../contract/index.js";
import { listenerRegistry, readLooks } from "./listeners.js";
import { scanStyleRules } from "./style-rules.js";
import { clip, flat } from "./text.js";
import type { Ctx, Frame, Inherited } from "./walk-state.js";

/** Walks an element: collect.ts's visit(), handed in so that this module does not import the walk. */
export type Visit = (el: Element, ctx: Ctx, f: Frame, inh: Inherited) => void;

/**
 * An <iframe>/<frame> that was emitted as `raw`: reports whether its content can be read, and
 * for a same-origin frame (up to depth 4) walks its body with `visit` in a Frame of its own
 * (offset and clipped into top-viewport coordinates), its records going to raw.iframe_content.
 */
export function walkFrame(iframe: HTMLIFrameElement, raw: RawElement, ctx: Ctx, parent: Frame, visit: Visit): void {
  const attrs = raw.attributes as Record<string, string | null>;
  attrs.role = attrs.role === "generic" ? "iframe" : attrs.role;
  const src = iframe.getAttribute("src");
  if (src) attrs.iframe_src = flat(clip(iframe.src || src, 300));
  let doc: Document | null = null;
  try {
    doc = iframe.contentDocument;
  } catch {
    doc = null;
  }
  if (!doc) {
    // Cross-origin (or not loaded): the frame is reported, its content cannot be read.
    attrs.frame = iframe.contentWindow ? "cross-origin" : "unavailable";
    raw.iframe_content = [];
    return;
  }
  attrs.frame = "same-origin";
  if (parent.depth + 1 > 4 || !doc.documentElement) {
    raw.iframe_content = [];
    return;
  }
  const r = iframe.getBoundingClientRect();
  const pcs = ctx.style(iframe);
  const offX = parent.offX + r.left + iframe.clientLeft + (parseFloat(pcs.paddingLeft) || 0);
  const offY = parent.offY + r.top + iframe.clientTop + (parseFloat(pcs.paddingTop) || 0);
  const cw = iframe.clientWidth - (parseFloat(pcs.paddingLeft) || 0) - (parseFloat(pcs.paddingRight) || 0);
  const ch = iframe.clientHeight - (parseFloat(pcs.paddingTop) || 0) - (parseFloat(pcs.paddingBottom) || 0);
  const frame: Frame = {
    doc,
    win: doc.defaultView ?? window,
    offX,
    offY,
    frameEl: iframe,
    parent,
    clip: {
      l: Math.max(parent.clip.l, offX),
      t: Math.max(parent.clip.t, offY),
      r: Math.min(parent.clip.r, offX + cw),
      b: Math.min(parent.clip.b, offY + ch),
    },
    out: [],
    depth: parent.depth + 1,
    listeners: doc.defaultView ? listenerRegistry(doc.defaultView, ctx.pageListeners) : null,
    looks: true,
  };
  frame.looks = readLooks(frame.listeners, frame.win);
  scanStyleRules(doc, ctx.rules);
  if (doc.defaultView) ctx.labels?.add(doc.defaultView);
  const inh: Inherited = { container: 0, sequence: false, interactiveArea: 0, parentPointer: false, shadow: false, delegate: null, looks: false };
  if (doc.body) visit(doc.body, ctx, frame, inh);
  raw.iframe_content = frame.out;
}
