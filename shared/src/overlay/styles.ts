// Styles of the overlay: inside the closed shadow root, so the page's CSS never reaches them.
export const DEFAULT_COLOR = "#ff1f8f";
export const DEFAULT_HIGHLIGHT = "#00a2ff";

/** The host's own inline style: important, so page rules cannot hide or move it. */
export const HOST_STYLE = [
  "all: initial",
  "position: fixed",
  "inset: 0",
  "width: 100vw",
  "height: 100vh",
  "margin: 0",
  "padding: 0",
  "border: 0",
  "pointer-events: none",
  "z-index: 2147483647",
  "display: block",
  "visibility: visible",
  "opacity: 1",
  "contain: strict",
  "overflow: hidden",
  "transform: none",
  "filter: none",
]
  .map((d) => `${d} !important`)
  .join("; ");

export function shadowCss(color: string, highlight: string): string {
  return `
:host { all: initial; }
.layer { position: absolute; inset: 0; overflow: hidden; pointer-events: none; }
.box {
  position: absolute; box-sizing: border-box; border: 2px solid ${color};
  background: color-mix(in srgb, ${color} 8%, transparent); pointer-events: none;
}
.badge {
  position: absolute; left: -2px; top: -2px; transform: translateY(-100%);
  font: 600 11px/14px system-ui, sans-serif; color: #fff; background: ${color};
  padding: 0 4px; border-radius: 3px 3px 3px 0; white-space: nowrap;
}
.box.inside .badge { transform: none; border-radius: 0 0 3px 0; }
.hl {
  position: absolute; box-sizing: border-box; border: 3px solid ${highlight};
  background: color-mix(in srgb, ${highlight} 25%, transparent); pointer-events: none;
  box-shadow: 0 0 0 2px #fff;
}
.hl .badge { background: ${highlight}; }
`;
}
