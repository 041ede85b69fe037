// Background colour → nearest basic colour name ("blue", "white"...), for visual_cues.
// Parses what getComputedStyle and authors write: rgb()/rgba() (comma or space syntax),
// #rgb/#rgba/#rrggbb/#rrggbbaa, hsl()/hsla() and CSS named colours. Results are memoised per
// string: a page repeats a handful of colours across thousands of elements.

export interface Rgba { r: number; g: number; b: number; a: number }

/** CSS named colours (CSS Color 4), as 0xRRGGBB. */
const CSS_NAMED: Record<string, number> = {
  aliceblue: 0xf0f8ff, antiquewhite: 0xfaebd7, aqua: 0x00ffff, aquamarine: 0x7fffd4, azure: 0xf0ffff,
  beige: 0xf5f5dc, bisque: 0xffe4c4, black: 0x000000, blanchedalmond: 0xffebcd, blue: 0x0000ff,
  blueviolet: 0x8a2be2, brown: 0xa52a2a, burlywood: 0xdeb887, cadetblue: 0x5f9ea0, chartreuse: 0x7fff00,
  chocolate: 0xd2691e, coral: 0xff7f50, cornflowerblue: 0x6495ed, cornsilk: 0xfff8dc, crimson: 0xdc143c,
  cyan: 0x00ffff, darkblue: 0x00008b, darkcyan: 0x008b8b, darkgoldenrod: 0xb8860b, darkgray: 0xa9a9a9,
  darkgreen: 0x006400, darkgrey: 0xa9a9a9, darkkhaki: 0xbdb76b, darkmagenta: 0x8b008b,
  darkolivegreen: 0x556b2f, darkorange: 0xff8c00, darkorchid: 0x9932cc, darkred: 0x8b0000,
  darksalmon: 0xe9967a, darkseagreen: 0x8fbc8f, darkslateblue: 0x483d8b, darkslategray: 0x2f4f4f,
  darkslategrey: 0x2f4f4f, darkturquoise: 0x00ced1, darkviolet: 0x9400d3, deeppink: 0xff1493,
  deepskyblue: 0x00bfff, dimgray: 0x696969, dimgrey: 0x696969, dodgerblue: 0x1e90ff, firebrick: 0xb22222,
  floralwhite: 0xfffaf0, forestgreen: 0x228b22, fuchsia: 0xff00ff, gainsboro: 0xdcdcdc,
  ghostwhite: 0xf8f8ff, gold: 0xffd700, goldenrod: 0xdaa520, gray: 0x808080, green: 0x008000,
  greenyellow: 0xadff2f, grey: 0x808080, honeydew: 0xf0fff0, hotpink: 0xff69b4, indianred: 0xcd5c5c,
  indigo: 0x4b0082, ivory: 0xfffff0, khaki: 0xf0e68c, lavender: 0xe6e6fa, lavenderblush: 0xfff0f5,
  lawngreen: 0x7cfc00, lemonchiffon: 0xfffacd, lightblue: 0xadd8e6, lightcoral: 0xf08080,
  lightcyan: 0xe0ffff, lightgoldenrodyellow: 0xfafad2, lightgray: 0xd3d3d3, lightgreen: 0x90ee90,
  lightgrey: 0xd3d3d3, lightpink: 0xffb6c1, lightsalmon: 0xffa07a, lightseagreen: 0x20b2aa,
  lightskyblue: 0x87cefa, lightslategray: 0x778899, lightslategrey: 0x778899, lightsteelblue: 0xb0c4de,
  lightyellow: 0xffffe0, lime: 0x00ff00, limegreen: 0x32cd32, linen: 0xfaf0e6, magenta: 0xff00ff,
  maroon: 0x800000, mediumaquamarine: 0x66cdaa, mediumblue: 0x0000cd, mediumorchid: 0xba55d3,
  mediumpurple: 0x9370db, mediumseagreen: 0x3cb371, mediumslateblue: 0x7b68ee,
  mediumspringgreen: 0x00fa9a, mediumturquoise: 0x48d1cc, mediumvioletred: 0xc71585,
  midnightblue: 0x191970, mintcream: 0xf5fffa, mistyrose: 0xffe4e1, moccasin: 0xffe4b5,
  navajowhite: 0xffdead, navy: 0x000080, oldlace: 0xfdf5e6, olive: 0x808000, olivedrab: 0x6b8e23,
  orange: 0xffa500, orangered: 0xff4500, orchid: 0xda70d6, palegoldenrod: 0xeee8aa, palegreen: 0x98fb98,
  paleturquoise: 0xafeeee, palevioletred: 0xdb7093, papayawhip: 0xffefd5, peachpuff: 0xffdab9,
  peru: 0xcd853f, pink: 0xffc0cb, plum: 0xdda0dd, powderblue: 0xb0e0e6, purple: 0x800080,
  rebeccapurple: 0x663399, red: 0xff0000, rosybrown: 0xbc8f8f, royalblue: 0x4169e1,
  saddlebrown: 0x8b4513, salmon: 0xfa8072, sandybrown: 0xf4a460, seagreen: 0x2e8b57, seashell: 0xfff5ee,
  sienna: 0xa0522d, silver: 0xc0c0c0, skyblue: 0x87ceeb, slateblue: 0x6a5acd, slategray: 0x708090,
  slategrey: 0x708090, snow: 0xfffafa, springgreen: 0x00ff7f, steelblue: 0x4682b4, tan: 0xd2b48c,
  teal: 0x008080, thistle: 0xd8bfd8, tomato: 0xff6347, turquoise: 0x40e0d0, violet: 0xee82ee,
  wheat: 0xf5deb3, white: 0xffffff, whitesmoke: 0xf5f5f5, yellow: 0xffff00, yellowgreen: 0x9acd32,
};

/**
 * The names answered: basic colour words an agent (or a user's instruction, "click the green
 * button") would use. Several anchors per name cover light/dark variants.
 */
const PALETTE: Array<[string, number]> = [
  ["black", 0x000000], ["black", 0x1a1a1a],
  ["white", 0xffffff], ["white", 0xf7f7f7],
  ["gray", 0x808080], ["gray", 0xb0b0b0], ["gray", 0x505050], ["gray", 0xdcdcdc],
  ["red", 0xff0000], ["red", 0xdc3545], ["red", 0xb22222], ["red", 0xe53935],
  ["maroon", 0x800000],
  ["orange", 0xffa500], ["orange", 0xff7f00], ["orange", 0xfd7e14],
  ["yellow", 0xffff00], ["yellow", 0xffd700], ["yellow", 0xffc107],
  ["olive", 0x808000],
  ["green", 0x008000], ["green", 0x00c000], ["green", 0x28a745], ["green", 0x4caf50], ["green", 0x00ff00],
  ["teal", 0x008080], ["teal", 0x20b2aa],
  ["cyan", 0x00ffff], ["cyan", 0x17a2b8], ["cyan", 0x80deea],
  ["blue", 0x0000ff], ["blue", 0x007bff], ["blue", 0x1e90ff], ["blue", 0x4169e1], ["blue", 0x1a73e8],
  ["blue", 0x87ceeb],
  ["navy", 0x000080], ["navy", 0x1a2a5a],
  ["purple", 0x800080], ["purple", 0x6f42c1], ["purple", 0x9c27b0],
  ["magenta", 0xff00ff],
  ["pink", 0xffc0cb], ["pink", 0xff69b4], ["pink", 0xe83e8c],
  ["brown", 0xa52a2a], ["brown", 0x8b4513], ["brown", 0x795548],
  ["beige", 0xf5f5dc], ["beige", 0xf5deb3],
];
const PAL_NAME = PALETTE.map((p) => p[0]);
const PAL_R = PALETTE.map((p) => (p[1] >> 16) & 255);
const PAL_G = PALETTE.map((p) => (p[1] >> 8) & 255);
const PAL_B = PALETTE.map((p) => p[1] & 255);

const FUNC = /^(rgba?|hsla?)\(\s*([^)]*)\)$/;
const SEP = /[\s,/]+/;

function channel(tok: string | undefined, scale: number): number | null {
  if (tok === undefined) return null;
  const n = parseFloat(tok);
  if (!Number.isFinite(n)) return null;
  return tok.endsWith("%") ? (n / 100) * scale : n;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const hh = (((h % 360) + 360) % 360) / 360;
  const f = (n: number) => {
    const k = (n + hh * 12) % 12;
    return l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** Parse a CSS colour string; null when unparseable. */
export function parseColor(input: string): Rgba | null {
  const s = input.trim().toLowerCase();
  if (s === "") return null;
  if (s === "transparent") return { r: 0, g: 0, b: 0, a: 0 };
  if (s[0] === "#") {
    const h = s.slice(1);
    if (!/^[0-9a-f]+$/.test(h)) return null;
    if (h.length === 3 || h.length === 4) {
      const v = h.split("").map((c) => parseInt(c + c, 16));
      return { r: v[0], g: v[1], b: v[2], a: h.length === 4 ? v[3] / 255 : 1 };
    }
    if (h.length === 6 || h.length === 8) {
      const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
      return { r: n(0), g: n(2), b: n(4), a: h.length === 8 ? n(6) / 255 : 1 };
    }
    return null;
  }
  const m = FUNC.exec(s);
  if (m) {
    const parts = m[2].split(SEP).filter(Boolean);
    if (parts.length < 3) return null;
    const alpha = parts.length > 3 ? channel(parts[3], 1) : 1;
    if (alpha === null) return null;
    if (m[1].startsWith("rgb")) {
      const r = channel(parts[0], 255), g = channel(parts[1], 255), b = channel(parts[2], 255);
      if (r === null || g === null || b === null) return null;
      return { r, g, b, a: alpha };
    }
    const h = parseFloat(parts[0]), sat = channel(parts[1], 1), l = channel(parts[2], 1);
    if (!Number.isFinite(h) || sat === null || l === null) return null;
    // hsl() saturation/lightness are percentages: "50%" → 0.5 by channel(); bare "50" too.
    const sv = parts[1].endsWith("%") ? sat : sat / 100;
    const lv = parts[2].endsWith("%") ? l : l / 100;
    const [r, g, b] = hslToRgb(h, sv, lv);
    return { r, g, b, a: alpha };
  }
  const named = Object.hasOwn(CSS_NAMED, s) ? CSS_NAMED[s] : undefined;
  if (named !== undefined) return { r: (named >> 16) & 255, g: (named >> 8) & 255, b: named & 255, a: 1 };
  return null;
}

/** Nearest palette name by "redmean" weighted RGB distance (cheap, close to perceptual). */
export function nearestName(r: number, g: number, b: number): string {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < PAL_NAME.length; i++) {
    const rm = (r + PAL_R[i]) / 2;
    const dr = r - PAL_R[i], dg = g - PAL_G[i], db = b - PAL_B[i];
    const d = (2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db;
    if (d < bestD) { bestD = d; best = i; }
  }
  return PAL_NAME[best];
}

export interface ColorInfo {
  /** Nearest basic name; null for transparent/unparseable. */
  name: string | null;
  /** Saturated and mid-light: the look of a call-to-action button. */
  vivid: boolean;
}

const NONE: ColorInfo = { name: null, vivid: false };
const cache = new Map<string, ColorInfo>();

/** Below this alpha a background is treated as transparent. */
const MIN_ALPHA = 0.1;

/** Name and vividness of a CSS background colour string (memoised). */
export function describeColor(value: string | null | undefined): ColorInfo {
  if (!value) return NONE;
  const hit = cache.get(value);
  if (hit) return hit;
  const c = parseColor(value);
  let info = NONE;
  if (c && c.a >= MIN_ALPHA) {
    // Translucent colours are seen over (usually) white: blend before naming.
    const a = Math.min(1, c.a);
    const r = c.r * a + 255 * (1 - a), g = c.g * a + 255 * (1 - a), b = c.b * a + 255 * (1 - a);
    const max = Math.max(r, g, b), min = Math.min(r, g, b);
    const l = (max + min) / 510;
    const sat = max === min ? 0 : (max - min) / (255 - Math.abs(max + min - 255));
    info = { name: nearestName(r, g, b), vivid: sat >= 0.35 && l >= 0.2 && l <= 0.85 };
  }
  if (cache.size > 4096) cache.clear();
  cache.set(value, info);
  return info;
}
