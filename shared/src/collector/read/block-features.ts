// The learned read model's features: one row per block (blocks.ts), in BLOCK_FEATURES order,
// from its text, its place in the markup, its box and style in the live page, what the hand
// rules made of it, its neighbours, and the page (its type as the page-type model reads it).
// The names are the model's contract: model files list the features they were trained on.

import { CLASS_WORDS, FURNITURE_KINDS, INSIDE_NAMES, type Block, type Segmentation } from "./blocks.js";

const TEXT = ["log_chars", "log_words", "link_share", "punct_per_word", "sentences_per_word", "ends_terminal", "stopword_share", "digit_share", "upper_share", "titlecase_share", "mean_word_len", "has_date", "has_copyright", "separators", "starts_by", "has_image", "is_hidden"];
const TAGS = ["tag_p", "tag_heading", "heading_level", "tag_li", "tag_cell", "tag_pre", "tag_blockquote", "tag_div", "tag_inline", "tag_a", "tag_dtdd", "tag_figcaption", "tag_section", "tag_button", "tag_label", "tag_other", "depth"];
const LAYOUT = ["x", "y_vh", "w", "h_vh", "y_page", "main_overlap", "main_offset", "font_rel", "font_weight", "italic", "color_diff", "luminance", "fill", "chars_per_line", "no_box", "offscreen", "above_fold"];
const PLACE = ["index_share", "before_share", "chars_since_heading", "prev_heading_level", "next_is_heading", "after_h1", "like_siblings", "like_index", "parent_share", "parent_links", "grand_share", "grand_links", "anc4_share", "anc4_links"];
const RULES = ["in_readability", "rb_parent_score", "rb_grand_score", "rb_rel_score", "in_main_content", "in_rules", "in_region", "rules_readability", "furniture_any"];
const NEIGHBOURS = ["prev_log_chars", "prev_link_share", "prev_in_rules", "next_log_chars", "next_link_share", "next_in_rules", "win_in_rules", "win_link_share", "win_log_chars", "win_in_readability"];
export const PAGE_TYPE_CLASSES = ["article", "forum", "product", "collection", "listing", "documentation", "service"] as const;
const PAGE = ["page_log_chars", "page_log_blocks", "page_rb_share", "page_mc_share", "page_rules_share", ...PAGE_TYPE_CLASSES.map((t) => `type_${t}`)];

export const BLOCK_FEATURES: readonly string[] = [
  ...TEXT, ...TAGS, ...LAYOUT, ...PLACE, ...RULES, ...NEIGHBOURS, ...PAGE,
  ...INSIDE_NAMES.map((n) => `in_${n}`),
  ...FURNITURE_KINDS.map((k) => `furniture_${k}`),
  ...CLASS_WORDS.map((w) => `own_${w}`),
  ...CLASS_WORDS.map((w) => `anc_${w}`),
];
const F = BLOCK_FEATURES.length;
const at = (name: string): number => BLOCK_FEATURES.indexOf(name);

/** Short words of running text in the languages the corpora hold most (en, de, fr, es, it, pt, nl). */
const STOP = new Set(
  ("the a an and or of to in on for with is are was were be been it this that as at by from not but have has had " +
    "you we they he she i his her their our its will would can could which who what there if so do does all more " +
    "der die das und oder ist sind war ein eine nicht mit von zu den im auf für es sich auch dem des als wie " +
    "le la les et ou est sont un une des du de pas avec pour dans que qui sur au il elle ce " +
    "el los las y o es son un una del con por para en que se no lo al como su " +
    "il lo gli e è sono di che per con non una della " +
    "o os as e é são um uma do da dos das com não para em que " +
    "de het een en of is zijn niet met van te op voor dat die").split(" "),
);
const WORD = /[\p{L}\p{N}_]+/gu;
const DATE = /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d+\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\s+ago\b/i;

const log1 = (x: number): number => Math.log1p(Math.max(0, x));

function rgb(color: string): [number, number, number] | null {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Readability's score on an element (it keeps it on the node as `readability.contentScore`). */
function rbScore(el: Element | null): number {
  const r = el ? (el as unknown as { readability?: { contentScore?: number } }).readability : undefined;
  return typeof r?.contentScore === "number" && Number.isFinite(r.contentScore) ? r.contentScore : 0;
}

export interface RuleMarks {
  readability: Set<number>;
  mainContent: Set<number>;
  rules: Set<number>;
  /** Blocks inside the main region (main-content.ts). */
  region: Set<number>;
  /** The rules took Readability's output (not the main-content candidate). */
  rulesReadability: boolean;
  readabilityChars: number;
  mainContentChars: number;
  rulesChars: number;
}

/** Text features of one string (its own text). */
function textFeatures(row: Float32Array, b: Block): void {
  const t = b.text;
  const words = t.match(WORD) ?? [];
  const nw = words.length || 1;
  let stop = 0, title = 0, wl = 0;
  for (const w of words) {
    const low = w.toLowerCase();
    if (STOP.has(low)) stop++;
    if (w[0] !== low[0]) title++;
    wl += w.length;
  }
  let digits = 0, upper = 0, letters = 0, punct = 0, ends = 0, seps = 0;
  for (let i = 0; i < t.length; i++) {
    const code = t.charCodeAt(i);
    // ASCII by code (most text); other characters by their case mappings
    if (code >= 48 && code <= 57) digits++;
    else if (code === 46 || code === 44 || code === 59 || code === 58 || code === 33 || code === 63) {
      punct++;
      if ((code === 46 || code === 33 || code === 63) && (i + 1 === t.length || t.charCodeAt(i + 1) === 32)) ends++;
    } else if (code === 124 || code === 183 || code === 8226 || code === 47) seps++;
    else if (code >= 65 && code <= 90) {
      letters++;
      upper++;
    } else if (code >= 97 && code <= 122) letters++;
    else if (code >= 128) {
      const ch = t[i]!;
      const low = ch.toLowerCase();
      if (low !== ch.toUpperCase()) {
        letters++;
        if (ch !== low) upper++;
      }
    }
  }
  const last = t.trimEnd().slice(-1);
  row[0] = log1(b.chars);
  row[1] = log1(words.length);
  row[2] = b.chars ? b.linkChars / b.chars : 0;
  row[3] = punct / nw;
  row[4] = ends / nw;
  row[5] = /[.!?:;"”)]/.test(last) ? 1 : 0;
  row[6] = stop / nw;
  row[7] = t.length ? digits / t.length : 0;
  row[8] = letters ? upper / letters : 0;
  row[9] = title / nw;
  row[10] = wl / nw;
  row[11] = t.length < 300 && DATE.test(t) ? 1 : 0;
  row[12] = /©|\bcopyright\b|all rights reserved/i.test(t) ? 1 : 0;
  row[13] = seps / nw;
  row[14] = /^by\s/i.test(t) ? 1 : 0;
  row[15] = b.image ? 1 : 0;
  row[16] = b.hidden ? 1 : 0;
}

const TAG_COL: Record<string, string> = {
  p: "tag_p", li: "tag_li", td: "tag_cell", th: "tag_cell", pre: "tag_pre", blockquote: "tag_blockquote", div: "tag_div",
  a: "tag_a", dt: "tag_dtdd", dd: "tag_dtdd", figcaption: "tag_figcaption", section: "tag_section", article: "tag_section",
  button: "tag_button", label: "tag_label", span: "tag_inline", strong: "tag_inline", b: "tag_inline", em: "tag_inline", i: "tag_inline", small: "tag_inline", time: "tag_inline",
};

const TAG_AT = new Map(Object.entries(TAG_COL).map(([t, c]) => [t, at(c)]));
const TAG_HEADING = at("tag_heading"), TAG_OTHER = at("tag_other");

/**
 * The feature rows of every block (row-major, BLOCK_FEATURES order). `typeProbs` are the
 * page-type model's class probabilities (PAGE_TYPE_CLASSES order).
 */
export function blockFeatures(seg: Segmentation, marks: RuleMarks, typeProbs: ArrayLike<number>, view: Window | null): Float32Array {
  const blocks = seg.blocks;
  const n = blocks.length;
  const out = new Float32Array(n * F);
  const vw = view?.innerWidth || 1280;
  const vh = view?.innerHeight || 900;
  const total = seg.totalChars || 1;
  const rects: Array<DOMRect | null> = blocks.map((b) => (b.live ? b.live.getBoundingClientRect() : null));
  const scrollY = view?.scrollY ?? 0;
  const scrollX = view?.scrollX ?? 0;
  // The page's body text: the font size and colour most of its characters are in, and the
  // main column (where the long blocks stand: their char-weighted median edges).
  const sizes = new Map<number, number>();
  const colors = new Map<string, number>();
  const lefts: Array<[number, number]> = [];
  const rights: Array<[number, number]> = [];
  let pageBottom = 1;
  blocks.forEach((b, i) => {
    const r = rects[i];
    if (r && r.height > 0) pageBottom = Math.max(pageBottom, r.bottom + scrollY);
    if (!b.style || !b.chars) return;
    const fs = Math.round(parseFloat(b.style.fontSize) * 2) / 2;
    sizes.set(fs, (sizes.get(fs) ?? 0) + b.chars);
    colors.set(b.style.color, (colors.get(b.style.color) ?? 0) + b.chars);
    if (r && r.width > 0 && b.chars >= 80) {
      lefts.push([r.left + scrollX, b.chars]);
      rights.push([r.right + scrollX, b.chars]);
    }
  });
  const mode = <K>(m: Map<K, number>, dflt: K): K => {
    let best = dflt, bestN = -1;
    for (const [k, v] of m) if (v > bestN) { best = k; bestN = v; }
    return best;
  };
  const weightedMedian = (xs: Array<[number, number]>, dflt: number): number => {
    if (!xs.length) return dflt;
    xs.sort((a, b) => a[0] - b[0]);
    const half = xs.reduce((s, x) => s + x[1], 0) / 2;
    let acc = 0;
    for (const [x, w] of xs) if ((acc += w) >= half) return x;
    return xs[xs.length - 1]![0];
  };
  const bodySize = mode(sizes, 16) || 16;
  const bodyColor = rgb(mode(colors, "rgb(0, 0, 0)")) ?? [0, 0, 0];
  const mainLeft = weightedMedian(lefts, 0);
  const mainRight = Math.max(mainLeft + 1, weightedMedian(rights, vw));
  let maxScore = 1;
  const scores = blocks.map((b) => {
    const p = rbScore(b.parent), g = rbScore(b.grand);
    maxScore = Math.max(maxScore, p, g);
    return [p, g];
  });
  // Heading context and like siblings.
  let sinceHeading = 0, headingLevel = 0, afterH1 = 0;
  const keyOf = (el: Element): string => `${el.localName}.${(el.getAttribute("class") ?? "").trim()}`;
  // Per parent, once: each child's place among the children of its kind (a list of 2,000 items
  // would otherwise be walked for each of its items).
  const places = new Map<Element, Map<Element, [number, number]>>();
  const siblingsOf = (el: Element): [number, number] => {
    const parent = el.parentElement;
    if (!parent) return [1, 0];
    let m = places.get(parent);
    if (!m) {
      m = new Map();
      const byKey = new Map<string, Element[]>();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const k = keyOf(c);
        const list = byKey.get(k);
        if (list) list.push(c);
        else byKey.set(k, [c]);
      }
      for (const list of byKey.values()) list.forEach((c, i) => m!.set(c, [list.length, i]));
      places.set(parent, m);
    }
    return m.get(el) ?? [1, 0];
  };
  const subOf = (el: Element | null): { chars: number; links: number } => (el ? seg.sub.get(el) : undefined) ?? { chars: 0, links: 0 };
  const page = [log1(total), log1(n), marks.readabilityChars / total, marks.mainContentChars / total, marks.rulesChars / total];
  const cTag = TEXT.length, cLayout = cTag + TAGS.length, cPlace = cLayout + LAYOUT.length, cRules = cPlace + PLACE.length;
  const cNeigh = cRules + RULES.length, cPage = cNeigh + NEIGHBOURS.length, cInside = cPage + PAGE.length;
  const cFurn = cInside + INSIDE_NAMES.length, cOwn = cFurn + FURNITURE_KINDS.length, cAnc = cOwn + CLASS_WORDS.length;
  for (let i = 0; i < n; i++) {
    const b = blocks[i]!;
    const row = out.subarray(i * F, (i + 1) * F);
    textFeatures(row, b);
    // tag
    const tag = b.el.localName;
    const h = /^h([1-6])$/.exec(tag);
    row[h ? TAG_HEADING : TAG_AT.get(tag) ?? TAG_OTHER] = 1;
    if (h) row[cTag + 2] = Number(h[1]);
    row[cTag + TAGS.length - 1] = b.depth;
    // layout
    const r = rects[i];
    const st = b.style;
    if (r && st) {
      const hasBox = r.width > 0 && r.height > 0;
      const left = r.left + scrollX, right = r.right + scrollX, top = r.top + scrollY;
      row[cLayout] = left / vw;
      row[cLayout + 1] = top / vh;
      row[cLayout + 2] = r.width / vw;
      row[cLayout + 3] = r.height / vh;
      row[cLayout + 4] = top / pageBottom;
      row[cLayout + 5] = hasBox ? Math.max(0, Math.min(right, mainRight) - Math.max(left, mainLeft)) / r.width : 0;
      row[cLayout + 6] = ((left + right) / 2 - (mainLeft + mainRight) / 2) / vw;
      const fs = parseFloat(st.fontSize) || bodySize;
      row[cLayout + 7] = fs / bodySize;
      row[cLayout + 8] = (parseInt(st.fontWeight, 10) || 400) / 100;
      row[cLayout + 9] = st.fontStyle === "italic" ? 1 : 0;
      const c = rgb(st.color);
      if (c) {
        row[cLayout + 10] = (Math.abs(c[0] - bodyColor[0]) + Math.abs(c[1] - bodyColor[1]) + Math.abs(c[2] - bodyColor[2])) / 765;
        row[cLayout + 11] = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
      }
      const lines = hasBox ? Math.max(1, r.height / (fs * 1.3)) : 1;
      row[cLayout + 12] = hasBox ? Math.min(4, (b.chars * fs * fs * 0.5) / (r.width * r.height)) : 0;
      row[cLayout + 13] = log1(b.chars / lines);
      row[cLayout + 14] = hasBox ? 0 : 1;
      row[cLayout + 15] = hasBox && (right <= 0 || left >= vw) ? 1 : 0;
      row[cLayout + 16] = top < vh ? 1 : 0;
    } else row[cLayout + 14] = 1;
    // place
    row[cPlace] = i / n;
    row[cPlace + 1] = b.before / total;
    row[cPlace + 2] = log1(sinceHeading);
    row[cPlace + 3] = headingLevel;
    row[cPlace + 4] = i + 1 < n && /^h[1-6]$/.test(blocks[i + 1]!.el.localName) ? 1 : 0;
    row[cPlace + 5] = afterH1;
    const [likeN, likeI] = siblingsOf(b.el);
    row[cPlace + 6] = log1(likeN - 1);
    row[cPlace + 7] = likeN > 1 ? likeI / (likeN - 1) : 0;
    const p1 = subOf(b.el.parentElement), p2 = subOf(b.el.parentElement?.parentElement ?? null);
    let a4: Element | null = b.el;
    for (let k = 0; k < 4 && a4; k++) a4 = a4.parentElement;
    const p4 = subOf(a4);
    row[cPlace + 8] = p1.chars / total;
    row[cPlace + 9] = p1.chars ? p1.links / p1.chars : 0;
    row[cPlace + 10] = p2.chars / total;
    row[cPlace + 11] = p2.chars ? p2.links / p2.chars : 0;
    row[cPlace + 12] = p4.chars / total;
    row[cPlace + 13] = p4.chars ? p4.links / p4.chars : 0;
    if (h) {
      sinceHeading = 0;
      headingLevel = Number(h[1]);
      if (h[1] === "1") afterH1 = 1;
    } else sinceHeading += b.chars;
    // rules
    row[cRules] = marks.readability.has(i) ? 1 : 0;
    row[cRules + 1] = scores[i]![0]! / maxScore;
    row[cRules + 2] = scores[i]![1]! / maxScore;
    row[cRules + 3] = Math.max(scores[i]![0]!, scores[i]![1]!) / maxScore;
    row[cRules + 4] = marks.mainContent.has(i) ? 1 : 0;
    row[cRules + 5] = marks.rules.has(i) ? 1 : 0;
    row[cRules + 6] = marks.region.has(i) ? 1 : 0;
    row[cRules + 7] = marks.rulesReadability ? 1 : 0;
    row[cRules + 8] = b.furniture ? 1 : 0;
    // page
    for (let k = 0; k < page.length; k++) row[cPage + k] = page[k]!;
    for (let k = 0; k < PAGE_TYPE_CLASSES.length; k++) row[cPage + page.length + k] = typeProbs[k] ?? 0;
    for (let k = 0; k < INSIDE_NAMES.length; k++) if (b.inside & (1 << k)) row[cInside + k] = 1;
    for (let k = 0; k < FURNITURE_KINDS.length; k++) if (b.furniture & (1 << k)) row[cFurn + k] = 1;
    for (const w of b.ownWords) row[cOwn + w] = 1;
    for (const w of b.ancWords) row[cAnc + w] = 1;
  }
  // neighbours: the blocks before and after, and a window of two on each side
  const get = (i: number, c: number): number => out[i * F + c]!;
  const cLog = 0, cLink = 2, cIn = cRules + 5, cInRb = cRules;
  for (let i = 0; i < n; i++) {
    const row = out.subarray(i * F, (i + 1) * F);
    if (i > 0) {
      row[cNeigh] = get(i - 1, cLog);
      row[cNeigh + 1] = get(i - 1, cLink);
      row[cNeigh + 2] = get(i - 1, cIn);
    }
    if (i + 1 < n) {
      row[cNeigh + 3] = get(i + 1, cLog);
      row[cNeigh + 4] = get(i + 1, cLink);
      row[cNeigh + 5] = get(i + 1, cIn);
    }
    let k = 0, inR = 0, link = 0, lg = 0, inRb = 0;
    for (let j = Math.max(0, i - 2); j <= Math.min(n - 1, i + 2); j++) {
      if (j === i) continue;
      k++;
      inR += get(j, cIn);
      link += get(j, cLink);
      lg += get(j, cLog);
      inRb += get(j, cInRb);
    }
    if (k) {
      row[cNeigh + 6] = inR / k;
      row[cNeigh + 7] = link / k;
      row[cNeigh + 8] = lg / k;
      row[cNeigh + 9] = inRb / k;
    }
  }
  return out;
}
