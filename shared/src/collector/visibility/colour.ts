// Colours as the person sees them: computed CSS colours parsed to sRGB, composited, run through
// CSS filters and blend modes, and compared by WCAG contrast. Computed values are rgb()/rgba()
// for sRGB colours; anything else (oklch(), color(), lab()) is drawn on a 1×1 canvas and read
// back, so no colour syntax escapes the comparison.

export interface RGBA {
  /** 0–1 each. */
  r: number;
  g: number;
  b: number;
  a: number;
}

export const WHITE: RGBA = { r: 1, g: 1, b: 1, a: 1 };
export const BLACK: RGBA = { r: 0, g: 0, b: 0, a: 1 };

const RGB = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)$/;
const parsed = new Map<string, RGBA | null>();
let ctx2d: OffscreenCanvasRenderingContext2D | null | undefined;

function viaCanvas(s: string): RGBA | null {
  if (ctx2d === undefined) {
    try {
      ctx2d = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true }) : null;
    } catch {
      ctx2d = null;
    }
  }
  if (!ctx2d) return null;
  ctx2d.clearRect(0, 0, 1, 1);
  ctx2d.fillStyle = "rgba(0, 0, 0, 0)";
  ctx2d.fillStyle = s;
  ctx2d.fillRect(0, 0, 1, 1);
  const d = ctx2d.getImageData(0, 0, 1, 1).data;
  return { r: d[0] / 255, g: d[1] / 255, b: d[2] / 255, a: d[3] / 255 };
}

/** A computed colour; null when it cannot be read. */
export function parseColour(s: string | null | undefined): RGBA | null {
  if (!s) return null;
  let c = parsed.get(s);
  if (c !== undefined) return c;
  const m = RGB.exec(s);
  if (m) {
    const a = m[4] === undefined ? 1 : m[5] ? Number(m[4]) / 100 : Number(m[4]);
    c = { r: Number(m[1]) / 255, g: Number(m[2]) / 255, b: Number(m[3]) / 255, a };
  } else if (s === "transparent") c = { r: 0, g: 0, b: 0, a: 0 };
  else c = viaCanvas(s);
  parsed.set(s, c);
  return c;
}

/** `top` with its alpha scaled by `alpha`, over an opaque `bottom`. */
export function over(top: RGBA, bottom: RGBA, alpha = 1): RGBA {
  const a = Math.max(0, Math.min(1, top.a * alpha));
  return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a), b: top.b * a + bottom.b * (1 - a), a: 1 };
}

const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
export const luminance = (c: RGBA): number => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);

/** WCAG contrast ratio of two opaque colours (1 = the same, 21 = black on white). */
export function contrast(a: RGBA, b: RGBA): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const clamp = (x: number) => Math.max(0, Math.min(1, x));
type Matrix = [number, number, number, number, number, number, number, number, number];
const apply = (m: Matrix, c: RGBA): RGBA => ({
  r: clamp(m[0] * c.r + m[1] * c.g + m[2] * c.b),
  g: clamp(m[3] * c.r + m[4] * c.g + m[5] * c.b),
  b: clamp(m[6] * c.r + m[7] * c.g + m[8] * c.b),
  a: c.a,
});

function amount(arg: string, dflt: number): number {
  const m = /^(-?[\d.]+)(%?)/.exec(arg.trim());
  if (!m) return dflt;
  return m[2] ? Number(m[1]) / 100 : Number(m[1]);
}

function angle(arg: string): number {
  const m = /^(-?[\d.]+)(deg|rad|turn|grad)?/.exec(arg.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  return m[2] === "rad" ? n : m[2] === "turn" ? n * 2 * Math.PI : m[2] === "grad" ? (n * Math.PI) / 200 : (n * Math.PI) / 180;
}

/** What one filter function does to a colour (the Filter Effects matrices); null: unknown. */
function filterOne(fn: string, arg: string, c: RGBA): RGBA | null {
  switch (fn) {
    case "opacity":
      return { ...c, a: c.a * clamp(amount(arg, 1)) };
    case "brightness": {
      const k = amount(arg, 1);
      return { r: clamp(c.r * k), g: clamp(c.g * k), b: clamp(c.b * k), a: c.a };
    }
    case "contrast": {
      const k = amount(arg, 1);
      const f = (x: number) => clamp((x - 0.5) * k + 0.5);
      return { r: f(c.r), g: f(c.g), b: f(c.b), a: c.a };
    }
    case "invert": {
      const k = clamp(amount(arg, 1));
      const f = (x: number) => k * (1 - x) + (1 - k) * x;
      return { r: f(c.r), g: f(c.g), b: f(c.b), a: c.a };
    }
    case "grayscale": {
      const s = 1 - clamp(amount(arg, 1));
      return apply([0.2126 + 0.7874 * s, 0.7152 - 0.7152 * s, 0.0722 - 0.0722 * s, 0.2126 - 0.2126 * s, 0.7152 + 0.2848 * s, 0.0722 - 0.0722 * s, 0.2126 - 0.2126 * s, 0.7152 - 0.7152 * s, 0.0722 + 0.9278 * s], c);
    }
    case "sepia": {
      const s = 1 - clamp(amount(arg, 1));
      return apply([0.393 + 0.607 * s, 0.769 - 0.769 * s, 0.189 - 0.189 * s, 0.349 - 0.349 * s, 0.686 + 0.314 * s, 0.168 - 0.168 * s, 0.272 - 0.272 * s, 0.534 - 0.534 * s, 0.131 + 0.869 * s], c);
    }
    case "saturate": {
      const s = Math.max(0, amount(arg, 1));
      return apply([0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s], c);
    }
    case "hue-rotate": {
      const a = angle(arg);
      const cos = Math.cos(a);
      const sin = Math.sin(a);
      return apply(
        [
          0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928,
          0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283,
          0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072,
        ],
        c,
      );
    }
    case "blur":
    case "drop-shadow":
      return c; // colour unchanged (a drop shadow is judged as a text shadow is)
    default:
      return null;
  }
}

/** The filter functions of a computed `filter` value, in order. */
export function filterFunctions(value: string): Array<[string, string]> {
  if (!value || value === "none") return [];
  return [...value.matchAll(/([a-z-]+)\(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => [m[1], m[2]]);
}

/** A colour through a computed filter; null when the filter is one we cannot follow (url()). */
export function filtered(c: RGBA, value: string): RGBA | null {
  let out: RGBA | null = c;
  for (const [fn, arg] of filterFunctions(value)) {
    out = out && filterOne(fn, arg, out);
    if (!out) return null;
  }
  return out;
}

/** The opacity() factor of a computed filter (1 when none). */
export function filterOpacity(value: string): number {
  let k = 1;
  for (const [fn, arg] of filterFunctions(value)) if (fn === "opacity") k *= clamp(amount(arg, 1));
  return k;
}

/** The colour of a drop-shadow() in a filter, if any. */
export function filterShadowColours(value: string): RGBA[] {
  return filterFunctions(value)
    .filter(([fn]) => fn === "drop-shadow")
    .map(([, arg]) => parseColour(/rgba?\([^)]*\)/.exec(arg)?.[0] ?? ""))
    .filter((c): c is RGBA => c !== null);
}

/** Separable blend modes (mix-blend-mode) of a source colour over an opaque backdrop; null: unknown. */
export function blend(mode: string, src: RGBA, dst: RGBA): RGBA | null {
  const f = (cs: number, cb: number): number | null => {
    switch (mode) {
      case "normal":
        return cs;
      case "multiply":
        return cs * cb;
      case "screen":
        return cs + cb - cs * cb;
      case "darken":
        return Math.min(cs, cb);
      case "lighten":
        return Math.max(cs, cb);
      case "difference":
        return Math.abs(cs - cb);
      case "exclusion":
        return cs + cb - 2 * cs * cb;
      case "overlay":
        return cb <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb);
      case "hard-light":
        return cs <= 0.5 ? 2 * cs * cb : 1 - 2 * (1 - cs) * (1 - cb);
      default:
        return null;
    }
  };
  const r = f(src.r, dst.r);
  const g = f(src.g, dst.g);
  const b = f(src.b, dst.b);
  if (r === null || g === null || b === null) return null;
  return over({ r, g, b, a: src.a }, dst);
}

/** The colours a computed text-shadow paints (its alpha kept). */
export function shadowColours(value: string): RGBA[] {
  if (!value || value === "none") return [];
  return (value.match(/rgba?\([^)]*\)|color\([^)]*\)|oklch\([^)]*\)|oklab\([^)]*\)|lab\([^)]*\)|lch\([^)]*\)|hsla?\([^)]*\)/g) ?? [])
    .map((s) => parseColour(s))
    .filter((c): c is RGBA => c !== null);
}

/**
 * The one colour a computed background-image paints everywhere, when it is made of gradients
 * of a single colour (`linear-gradient(white, white)`); null when it shows an image or several
 * colours (the background is then unknown).
 */
export function uniformGradient(value: string): RGBA | null {
  if (/url\(|image-set\(|element\(|cross-fade\(|paint\(/.test(value)) return null;
  const cols = (value.match(/rgba?\([^)]*\)|color\([^)]*\)|oklch\([^)]*\)|oklab\([^)]*\)|lab\([^)]*\)|lch\([^)]*\)/g) ?? []).map((s) => parseColour(s));
  if (!cols.length || cols.some((c) => c === null)) return null;
  const first = cols[0]!;
  for (const c of cols) {
    if (Math.abs(c!.r - first.r) > 0.02 || Math.abs(c!.g - first.g) > 0.02 || Math.abs(c!.b - first.b) > 0.02 || Math.abs(c!.a - first.a) > 0.05) return null;
  }
  return first;
}
