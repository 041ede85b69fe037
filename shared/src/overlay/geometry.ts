// Where a box goes in the current viewport.
import type { OverlayBox, OverlayRect } from "./types.js";

/** The box's rect in current viewport coordinates, or null when it cannot be placed. */
export function currentRect(box: OverlayBox, win: Window): OverlayRect | null {
  const el = box.element;
  if (el && el.isConnected) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 || r.height > 0) return { x: r.left, y: r.top, width: r.width, height: r.height };
  }
  const { rect } = box;
  if (!Number.isFinite(rect.x) || !Number.isFinite(rect.y)) return null;
  // A captured rect is relative to the viewport at capture time: move it by how far the page
  // has scrolled since.
  const dx = (box.scroll?.x ?? win.scrollX) - win.scrollX;
  const dy = (box.scroll?.y ?? win.scrollY) - win.scrollY;
  return { x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height };
}

/** Whether any part of the rect is inside a viewport of this size. */
export function intersectsViewport(r: OverlayRect, width: number, height: number): boolean {
  return r.x + r.width > 0 && r.y + r.height > 0 && r.x < width && r.y < height;
}
