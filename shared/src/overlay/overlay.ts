// Numbered boxes drawn over the live page inside a closed shadow root: the page's CSS cannot
// style them and its scripts cannot reach into them. Boxes follow scroll and resize; if the
// page removes the host, it is put back.
import { currentRect, intersectsViewport } from "./geometry.js";
import { DEFAULT_COLOR, DEFAULT_HIGHLIGHT, HOST_STYLE, shadowCss } from "./styles.js";
import type { Overlay, OverlayBox, OverlayOptions } from "./types.js";

export function createOverlay(doc: Document = document, options: OverlayOptions = {}): Overlay {
  const win = doc.defaultView;
  if (!win) throw new Error("createOverlay: the document has no window");
  const host = doc.createElement(options.hostTag ?? "sightline-overlay");
  host.setAttribute("style", HOST_STYLE);
  host.setAttribute("aria-hidden", "true");
  const root = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = shadowCss(options.color ?? DEFAULT_COLOR, options.highlightColor ?? DEFAULT_HIGHLIGHT);
  const layer = doc.createElement("div");
  layer.className = "layer";
  root.append(style, layer);

  let boxes: { box: OverlayBox; node: HTMLElement }[] = [];
  let hl: { box: OverlayBox; node: HTMLElement } | null = null;
  let frame = 0;
  let destroyed = false;

  const attach = () => {
    if (!destroyed && !host.isConnected) (doc.documentElement ?? doc.body)?.appendChild(host);
  };

  function makeNode(box: OverlayBox, cls: string): HTMLElement {
    const node = doc.createElement("div");
    node.className = cls;
    const badge = doc.createElement("span");
    badge.className = "badge";
    badge.textContent = box.label ?? String(box.id);
    node.append(badge);
    return node;
  }

  function place(box: OverlayBox, node: HTMLElement, vw: number, vh: number) {
    const r = currentRect(box, win!);
    if (!r || !intersectsViewport(r, vw, vh)) {
      node.style.display = "none";
      return;
    }
    node.style.display = "block";
    node.style.left = `${r.x}px`;
    node.style.top = `${r.y}px`;
    node.style.width = `${Math.max(r.width, 2)}px`;
    node.style.height = `${Math.max(r.height, 2)}px`;
    // Badges of boxes touching the top edge go inside, so they stay readable.
    node.classList.toggle("inside", r.y < 16);
  }

  function update() {
    frame = 0;
    if (destroyed) return;
    attach();
    const vw = win!.innerWidth;
    const vh = win!.innerHeight;
    for (const { box, node } of boxes) place(box, node, vw, vh);
    if (hl) place(hl.box, hl.node, vw, vh);
  }

  const schedule = () => {
    if (!frame && !destroyed) frame = win.requestAnimationFrame(update);
  };

  win.addEventListener("scroll", schedule, { capture: true, passive: true });
  win.addEventListener("resize", schedule, { passive: true });
  const resizeObserver = typeof ResizeObserver === "function" ? new ResizeObserver(schedule) : null;
  if (doc.documentElement) resizeObserver?.observe(doc.documentElement);
  // The page may remove our host (or replace <body>): put it back on the next frame.
  const guard = new MutationObserver(() => {
    if (!host.isConnected) schedule();
  });
  if (doc.documentElement) guard.observe(doc.documentElement, { childList: true });

  attach();

  return {
    showBoxes(next) {
      for (const { node } of boxes) node.remove();
      boxes = next.map((box) => ({ box, node: makeNode(box, "box") }));
      layer.append(...boxes.map((b) => b.node));
      update();
    },
    highlight(box) {
      hl?.node.remove();
      hl = box ? { box, node: makeNode(box, "hl") } : null;
      if (hl) layer.append(hl.node);
      update();
    },
    get boxCount() {
      return boxes.length;
    },
    update,
    destroy() {
      destroyed = true;
      if (frame) win.cancelAnimationFrame(frame);
      win.removeEventListener("scroll", schedule, { capture: true });
      win.removeEventListener("resize", schedule);
      resizeObserver?.disconnect();
      guard.disconnect();
      host.remove();
    },
  };
}
