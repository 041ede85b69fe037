// What the overlay draws: numbered boxes tied to live elements (preferred, they follow layout
// changes) or to the page coordinates they had when the page was captured.

export interface OverlayRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OverlayBox {
  id: number;
  /** Viewport rect at capture time, used when `element` is gone. */
  rect: OverlayRect;
  /** Page scroll at capture time, so a captured rect can be placed on the scrolled page. */
  scroll?: { x: number; y: number };
  /** The live element; when connected its current rect wins over `rect`. */
  element?: Element | null;
  /** Text of the badge; defaults to the id. */
  label?: string;
}

export interface OverlayOptions {
  /** Tag name of the host element (a custom, otherwise meaningless tag). */
  hostTag?: string;
  /** Colour of the numbered boxes. */
  color?: string;
  /** Colour of the hover highlight. */
  highlightColor?: string;
}

export interface Overlay {
  /** Draws numbered boxes (replacing any drawn before); an empty list clears them. */
  showBoxes(boxes: OverlayBox[]): void;
  /** Highlights one element (or clears the highlight with null). */
  highlight(box: OverlayBox | null): void;
  /** Boxes currently drawn (not counting the highlight). */
  readonly boxCount: number;
  /** Re-measures and repositions everything now (it also happens on scroll and resize). */
  update(): void;
  /** Removes the host from the page and stops listening. */
  destroy(): void;
}
