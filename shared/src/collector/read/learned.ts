// The learned read model in the page: the page-type model (7 WCXB page types) and the block
// model (main content or not, per block of the cleaned copy), both gradient-boosted trees
// trained by shared/read-training/train.mjs and shipped in read-model.ts. The block model sees
// what the hand rules chose as features and decides; the content is the cleaned page with the
// text of the blocks it leaves out removed, so the markup (headings, lists, tables, code) of
// what it keeps stays as the page wrote it.
import { BLOCK_ATTR, SKIP, type Segmentation } from "./blocks.js";
import { BLOCK_FEATURES, PAGE_TYPE_CLASSES } from "./block-features.js";
import { checkEnsemble, columns, margins, sigmoid, softmax, type Ensemble } from "./gbdt.js";
import { PAGE_FEATURES } from "./page-features.js";
import { TITLE_FEATURES } from "./title-choice.js";
import { READ_MODEL } from "./read-model.js";
import type { PageType } from "./page-type.js";

export interface ReadModel {
  format: "sightline-read-gbdt/1";
  types: Ensemble;
  blocks: Ensemble;
  /** A block is main content when the model's probability is at least this. */
  threshold: number;
  /**
   * The arbitration: the model's content is used unless it keeps under this share of the
   * rules' characters (then the rules' content stands). Chosen on the choose part.
   */
  guard?: number;
  /** The title chooser (title-choice.ts's candidates), when trained. */
  titles?: Ensemble;
}

interface Loaded {
  model: ReadModel;
  typeCols: Int32Array;
  blockCols: Int32Array;
  titleCols: Int32Array | null;
}

let loaded: Loaded | null | undefined;

/** Validates a parsed model; throws with a reason when it is unusable. */
export function loadReadModel(m: unknown): Loaded {
  const r = m as Partial<ReadModel> | null;
  if (!r || r.format !== "sightline-read-gbdt/1") throw new Error("read model: unknown format");
  const types = checkEnsemble(r.types);
  const blocks = checkEnsemble(r.blocks);
  if (types.classes !== PAGE_TYPE_CLASSES.length || blocks.classes !== 1) throw new Error("read model: wrong class counts");
  if (typeof r.threshold !== "number") throw new Error("read model: threshold missing");
  const titles = r.titles ? checkEnsemble(r.titles) : null;
  // The ensembles as arrays (a shipped file packs them): what margins() evaluates.
  const model: ReadModel = { ...(r as ReadModel), types, blocks, ...(titles ? { titles } : {}) };
  return { model, typeCols: columns(types, PAGE_FEATURES), blockCols: columns(blocks, BLOCK_FEATURES), titleCols: titles ? columns(titles, TITLE_FEATURES) : null };
}

/** The shipped model, or null (then read mode is the hand rules alone). */
export function shippedModel(): Loaded | null {
  if (loaded === undefined) {
    try {
      loaded = READ_MODEL ? loadReadModel(JSON.parse(READ_MODEL)) : null;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** The page-type model's probabilities (PAGE_TYPE_CLASSES order). */
export function pageTypeProbs(m: Loaded, row: Float32Array): number[] {
  return softmax(margins(m.model.types, row, 1, PAGE_FEATURES.length, m.typeCols));
}

/** The candidate the title chooser scores highest, or "" without one. */
export function pickTitle(m: Loaded, c: { texts: string[]; rows: Float32Array }): string {
  if (!m.model.titles || !m.titleCols || !c.texts.length) return "";
  const s = margins(m.model.titles, c.rows, c.texts.length, TITLE_FEATURES.length, m.titleCols);
  let best = 0;
  for (let i = 1; i < c.texts.length; i++) if (s[i]! > s[best]!) best = i;
  return c.texts[best]!;
}

/** WCXB's page types as read mode's page_type: collections are listings, service pages are pages. */
export function contractType(probs: ArrayLike<number>): PageType {
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[best]!) best = i;
  const t = PAGE_TYPE_CLASSES[best]!;
  return t === "collection" ? "listing" : t === "service" ? "page" : t;
}

/** The block model's probability of each block being main content. */
export function blockProbs(m: Loaded, rows: Float32Array, n: number): Float64Array {
  const out = margins(m.model.blocks, rows, n, BLOCK_FEATURES.length, m.blockCols);
  for (let i = 0; i < n; i++) out[i] = sigmoid(out[i]!);
  return out;
}

/**
 * Which blocks to keep: the model's verdict; a block with an image and no text goes with the
 * blocks around it (kept when both neighbours with text are), and with `captions` a caption
 * stays when a block next to it is kept.
 */
export function keptBlocks(seg: Segmentation, probs: ArrayLike<number>, threshold: number, captions: boolean): Uint8Array {
  const n = seg.blocks.length;
  const keep = new Uint8Array(n);
  for (let i = 0; i < n; i++) keep[i] = probs[i]! >= threshold ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const b = seg.blocks[i]!;
    if (b.chars === 0) {
      let p = i - 1, q = i + 1;
      while (p >= 0 && seg.blocks[p]!.chars === 0) p--;
      while (q < n && seg.blocks[q]!.chars === 0) q++;
      keep[i] = p >= 0 && q < n && keep[p] && keep[q] ? 1 : 0;
    } else if (captions && !keep[i] && (b.el.localName === "figcaption" || b.el.closest("figure"))) {
      keep[i] = (i > 0 && keep[i - 1]) || (i + 1 < n && keep[i + 1]) ? 1 : 0;
    }
  }
  return keep;
}

/**
 * `copy` (a copy of the segmented page, its blocks marked with BLOCK_ATTR) without the text of
 * the blocks not kept, and without the elements left with nothing kept in them.
 */
export function keepOnly(copy: Element, keep: Uint8Array): Element {
  const VOID = /^(?:img|br|hr|picture|source|wbr)$/;
  const walk = (el: Element, kept: boolean): boolean => {
    let has = false;
    for (let c = el.firstChild; c; ) {
      const next = c.nextSibling;
      if (c.nodeType === 3) {
        if (!kept) el.removeChild(c);
        else if (/\S/.test(c.nodeValue ?? "")) has = true;
      } else if (c.nodeType === 1) {
        const e = c as Element;
        // What the segmentation never read as text (scripts, JSON-LD, controls' options, SVG) is no content.
        if (SKIP.has(e.localName)) {
          el.removeChild(e);
          c = next;
          continue;
        }
        const id = e.getAttribute(BLOCK_ATTR);
        const k = id !== null && id !== "" ? keep[Number(id)] === 1 : kept;
        if (id !== null) e.removeAttribute(BLOCK_ATTR);
        if (walk(e, k)) has = true;
        else if (!(k && VOID.test(e.localName))) el.removeChild(e);
        else has = has || e.localName === "img";
      } else el.removeChild(c);
      c = next;
    }
    return has;
  };
  walk(copy, copy.getAttribute(BLOCK_ATTR) ? keep[Number(copy.getAttribute(BLOCK_ATTR))] === 1 : false);
  copy.removeAttribute(BLOCK_ATTR);
  return copy;
}
