// Browser layer: numbered-box overlay for the live page (closed shadow root).
export { createOverlay } from "./overlay.js";
export { currentRect, intersectsViewport } from "./geometry.js";
export { DEFAULT_COLOR, DEFAULT_HIGHLIGHT } from "./styles.js";
export type { Overlay, OverlayBox, OverlayOptions, OverlayRect } from "./types.js";
