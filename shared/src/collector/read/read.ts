// read(): the page's main content as Markdown (default) or text. Readability runs on a clone
// of the document; when it fails or keeps too little of the main region (product, listing and
// forum pages), the main-content fallback is used instead.
import { Readability } from "@mozilla/readability";
import type { ReadOptions, ReadResult } from "../types.js";
import { squash } from "../text.js";
import { cleanCopy } from "./live-clean.js";
import { mainContent, mainRegion } from "./main-content.js";
import { detectPageType, type PageType } from "./page-type.js";
import { languageOf, toMarkdown } from "./markdown.js";
import { fallbackTitle, headline, metaDescription, metaTitle, withoutSiteName } from "./metadata.js";
import { dropFurniture, markFurniture } from "./furniture.js";
import { prune } from "./prune.js";
import { completeArticle } from "./complete.js";
import { toText } from "./to-text.js";
import { markHiddenRuns } from "./hidden-marks.js";
import { VisibilityJudge } from "../visibility/judge.js";
import { markHiddenRuns as marksFromRuns } from "../../agent/session/provenance.js";
import { secretValuesIn } from "../privacy.js";
import { SecretValues } from "../../agent/core/secrets.js";
import { blockIds, pairUp, segment, type Segmentation } from "./blocks.js";
import { BLOCK_FEATURES, blockFeatures, PAGE_TYPE_CLASSES, type RuleMarks } from "./block-features.js";
import { PAGE_FEATURES, pageFeatures, setPageFacts } from "./page-features.js";
import { blockProbs, contractType, keepOnly, keptBlocks, modelReads, pageTypeProbs, pickTitle, shippedModel } from "./learned.js";
import { TITLE_FEATURES, titleCandidates, type TitleSources } from "./title-choice.js";

/** Readability's output is kept when it holds at least this share of the fallback's text… */
const MIN_SHARE = 0.35;
/** …and at least this many characters. */
const MIN_CHARS = 250;
/**
 * Pages whose content is spread over many blocks ask more of Readability's share. On a thread it
 * tends to keep the opening post or the longest one, on a listing a few of the items: the
 * main-content candidate (every post, every item) is kept unless Readability holds most of its
 * text. On a product page it keeps the description and leaves the price, options and
 * specifications.
 */
const SPREAD_MIN_SHARE: Partial<Record<PageType, number>> = { forum: 0.7, product: 0.55, listing: 0.7 };

/** The page says it is an article (Open Graph type, schema.org type, or an <article>). */
function articleLike(doc: Document): boolean {
  const og = doc.querySelector('meta[property="og:type" i]')?.getAttribute("content") ?? "";
  if (/article|blog|news/i.test(og)) return true;
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).slice(0, 5)) {
    if (/"@type"\s*:\s*"(?:News|Blog|Scholarly|Tech)?Article"|"@type"\s*:\s*"(?:BlogPosting|Report)"/.test(s.textContent ?? "")) return true;
  }
  return doc.getElementsByTagName("article").length === 1;
}

interface Extracted {
  node: Element | null;
  title: string;
  excerpt: string;
}

/** With markHidden: the copy's hidden runs get their sentinels, before anything else reads it. */
function marked(doc: Document, clone: Document, judge: VisibilityJudge | null): void {
  if (judge && doc.body && clone.body) markHiddenRuns(doc.body, clone.body, judge);
}

function readability(doc: Document, strip: boolean, judge: VisibilityJudge | null): Extracted | null {
  try {
    const clone = doc.cloneNode(true) as Document;
    marked(doc, clone, judge);
    if (strip && doc.body && clone.body && doc.defaultView) cleanCopy(doc.body, clone.body, doc.defaultView, false);
    return readabilityOn(clone);
  } catch {
    return null;
  }
}

/** Readability on a copy it may take apart. */
function readabilityOn(clone: Document): Extracted | null {
  try {
    const article = new Readability<Element>(clone, { serializer: (n) => n as Element }).parse();
    if (!article || !article.content) return null;
    return { node: article.content, title: squash(article.title ?? ""), excerpt: squash(article.excerpt ?? "") };
  } catch {
    return null;
  }
}

function plainLength(node: Element | null): number {
  return node ? (node.textContent ?? "").replace(/\s+/g, " ").trim().length : 0;
}

export async function read(options: ReadOptions = {}): Promise<ReadResult> {
  return readSync(options);
}

/** The chosen content node and how it was chosen. */
interface Choice {
  node: Element | null;
  extractor: ReadResult["extractor"];
  r: Extracted | null;
  rLen: number;
  fLen: number;
  pageType?: PageType;
}

/** What the learned model saw of a page (readBlocks(): the training data, and a look inside). */
export interface BlockTrace {
  seg: Segmentation;
  rows: Float32Array;
  pageRow: Float32Array;
  typeProbs: number[];
  probs: Float64Array | null;
  marks: RuleMarks;
  rulesNode: Element | null;
}

/** Readability alone (`fallback: false`): the baseline the other candidates are measured against. */
function readabilityAlone(doc: Document, strip: boolean, judge: VisibilityJudge | null): Choice {
  const r = readability(doc, strip, judge);
  const node = r?.node ?? null;
  return { node, extractor: node ? "readability" : "none", r, rLen: plainLength(node), fLen: 0 };
}

/**
 * Candidate comparison: Readability and the main-content extractor both run on a copy cleaned
 * with the live layout (live-clean.ts); the page type and the two lengths decide which is kept.
 */
function compareCandidates(doc: Document, strip: boolean, keepCaptions: boolean, judge: VisibilityJudge | null, trace?: { out?: BlockTrace }): Choice {
  const view = doc.defaultView;
  let clone: Document;
  const model = shippedModel();
  const learning = Boolean((model || trace) && strip && view);
  let liveOf: Map<Element, Element> | null = null;
  const styles = learning ? new Map<Element, CSSStyleDeclaration>() : undefined;
  try {
    clone = doc.cloneNode(true) as Document;
    // The learned model reads the live box of each block of the copy: pair them before cleaning.
    if (learning && doc.body && clone.body) liveOf = pairUp(doc.body, clone.body);
    marked(doc, clone, judge);
    if (strip && doc.body && clone.body && view) cleanCopy(doc.body, clone.body, view, true, styles);
  } catch {
    return readabilityAlone(doc, strip, judge);
  }
  let region: Element | null = null;
  let pageType: PageType = "page";
  let fallback: Element | null = null;
  try {
    region = mainRegion(clone);
    pageType = detectPageType(clone, region);
    // Before either candidate is taken: the marks travel into both (furniture.ts).
    if (clone.body) markFurniture(clone.body, pageType, keepCaptions);
  } catch {
    /* no furniture marks */
  }
  // The learned model's blocks, marked on the copy before either candidate takes it apart.
  let seg: Segmentation | null = null;
  let pageCopy: Element | null = null;
  let pageRow: Float32Array | null = null;
  let regionIds: Set<number> | null = null;
  let typeProbs: number[] = PAGE_TYPE_CLASSES.map(() => 0);
  if (liveOf && clone.body) {
    try {
      // The page type first: a page the gate leaves to the rules costs no blocks.
      pageRow = pageFeatures(doc, clone, region, pageType);
      if (model) typeProbs = pageTypeProbs(model, pageRow);
      if (trace || (model && modelReads(model, typeProbs))) {
        seg = segment(clone.body, liveOf, view, styles);
        regionIds = blockIds(region);
        pageCopy = clone.body.cloneNode(true) as Element;
      }
    } catch {
      seg = null;
    }
  }
  try {
    fallback = mainContent(clone, pageType !== "listing", region);
  } catch {
    fallback = null;
  }
  // Readability drops class names: the code blocks' languages go into data-lang first.
  for (const pre of Array.from(clone.getElementsByTagName("pre"))) {
    const lang = languageOf(pre);
    if (lang) pre.setAttribute("data-lang", lang);
  }
  const r = readabilityOn(clone);
  const rIds = seg ? blockIds(r?.node ?? null) : null;
  let node: Element | null = r?.node ?? null;
  const rLen = plainLength(node);
  const fLen = plainLength(fallback);
  let extractor: ReadResult["extractor"] = node ? "readability" : "none";
  const article = pageType === "article" || pageType === "documentation" || articleLike(doc);
  const share = SPREAD_MIN_SHARE[pageType] ?? MIN_SHARE;
  if (!node || rLen < MIN_CHARS || (rLen < fLen * share && !article)) {
    if (fallback && fLen > rLen) {
      node = fallback;
      extractor = "main-content";
    }
  }
  if (node && extractor === "readability" && fallback) {
    try {
      const whole = completeArticle(node, fallback, rLen, fLen);
      if (whole) node = whole;
    } catch {
      /* Readability's content stands */
    }
  }
  if (node) node = cleaned(node, pageType);
  // Readability took a block the cleaning empties (a page's header and menus, on a landing page
  // that says it is an article): the main-content candidate, if it keeps more once cleaned.
  if (node && extractor === "readability" && fallback && fLen >= MIN_CHARS && plainLength(node) < MIN_CHARS) {
    const other = cleaned(fallback, pageType);
    if (plainLength(other) > plainLength(node)) {
      node = other;
      extractor = "main-content";
    }
  }
  if (seg && pageRow && pageCopy && rIds && regionIds) {
    try {
      const learned = learnedChoice(seg, pageRow, typeProbs, pageCopy, { readability: rIds, region: regionIds, fallback, node, extractor, rLen, fLen }, keepCaptions, model, view, trace);
      // The rules' last passes stay after the model (link lists, furniture and promos out:
      // each measured on the held-out part, docs/read-mode.md), and so does the page type
      // the rules read from what the page declares.
      if (learned) return { node: cleaned(learned.node, pageType), extractor: "model", r, rLen, fLen, pageType };
    } catch {
      /* the rules' content stands */
    }
  }
  return { node, extractor, r, rLen, fLen, pageType };
}

interface RulesChoice {
  readability: Set<number>;
  region: Set<number>;
  fallback: Element | null;
  node: Element | null;
  extractor: ReadResult["extractor"];
  rLen: number;
  fLen: number;
}

/**
 * The learned model's reading of the page: each block's verdict from its features, what the
 * rules chose and the page type (`typeProbs`, the page-type model's, read before the
 * candidates); the content is the cleaned page with only the kept blocks' text. Null when there
 * is no model (`trace` still gets the features), the gate leaves the page to the rules, or the
 * model keeps nothing.
 */
function learnedChoice(
  seg: Segmentation,
  pageRow: Float32Array,
  typeProbs: number[],
  pageCopy: Element,
  rules: RulesChoice,
  keepCaptions: boolean,
  model: ReturnType<typeof shippedModel>,
  view: Window | null,
  trace?: { out?: BlockTrace },
): { node: Element; pageType: PageType } | null {
  const marks: RuleMarks = {
    readability: rules.readability,
    mainContent: blockIds(rules.fallback),
    rules: blockIds(rules.node),
    region: rules.region,
    rulesReadability: rules.extractor === "readability",
    readabilityChars: rules.rLen,
    mainContentChars: rules.fLen,
    rulesChars: plainLength(rules.node),
  };
  // What the candidates kept: in the page's row for training (the page-type model never reads it).
  setPageFacts(pageRow, marks);
  const reads = model !== null && modelReads(model, typeProbs);
  const rows = blockFeatures(seg, marks, typeProbs, view);
  const probs = model && (reads || trace) ? blockProbs(model, rows, seg.blocks.length) : null;
  if (trace) trace.out = { seg, rows, pageRow, typeProbs, probs, marks, rulesNode: rules.node };
  if (!model || !probs || !reads) return null;
  const keep = keptBlocks(seg, probs, model.model.threshold, keepCaptions, marks.rules, model.model.keepIn);
  if (!keep.some((k) => k === 1)) return null;
  const node = keepOnly(pageCopy, keep);
  // A model that drops most of what the rules keep is more often wrong than they are.
  if (plainLength(node) < (model.model.guard ?? 0) * marks.rulesChars) return null;
  return { node, pageType: contractType(typeProbs) };
}

/**
 * The learned model's view of the page, for training it (shared/read-training/collect.mjs) and
 * for looking at a reading: every block's text and feature row, the page's feature row, the
 * rules' content as text, and the model's probabilities when a model is shipped.
 */
export function readBlocks(options: ReadOptions = {}): {
  blockFeatures: readonly string[];
  pageFeatures: readonly string[];
  blocks: Array<{ text: string; tag: string }>;
  rows: number[];
  pageRow: number[];
  typeProbs: number[];
  probs: number[] | null;
  rulesText: string;
  title: string;
  readabilityTitle: string;
  titleFeatures: readonly string[];
  titles: { texts: string[]; rows: number[] };
  pageType: PageType | undefined;
} | null {
  const trace: { out?: BlockTrace } = {};
  const c = compareCandidates(document, true, options.captions === true, null, trace);
  const t = trace.out;
  if (!t) return null;
  return {
    blockFeatures: BLOCK_FEATURES,
    pageFeatures: PAGE_FEATURES,
    blocks: t.seg.blocks.map((b) => ({ text: b.text, tag: b.el.localName })),
    rows: Array.from(t.rows),
    pageRow: Array.from(t.pageRow),
    typeProbs: t.typeProbs,
    probs: t.probs ? Array.from(t.probs) : null,
    rulesText: t.rulesNode ? toText(t.rulesNode) : "",
    title: rulesTitle(document, c),
    readabilityTitle: c.r?.title ?? "",
    titleFeatures: TITLE_FEATURES,
    titles: (() => {
      const t = titleCandidates(document, titleSources(document, c));
      return { texts: t.texts, rows: Array.from(t.rows) };
    })(),
    pageType: c.pageType,
  };
}

/** The last pass over the chosen content: link lists and furniture out (prune.ts, furniture.ts). */
function cleaned(node: Element, pageType: PageType): Element {
  try {
    prune(node, pageType === "listing");
    dropFurniture(node);
  } catch {
    /* the unpruned node stands */
  }
  return node;
}

/**
 * Readability alone keeps its own title; the full read prefers the page's headline, then the
 * document's title without the site's name.
 */
function rulesTitle(doc: Document, c: Choice): string {
  return headline(doc, () => mainRegion(doc)) || withoutSiteName(doc, c.r?.title || fallbackTitle(doc));
}

/** What the title chooser compares: the rules' pick, Readability's title and the rendered <h1>s. */
function titleSources(doc: Document, c: Choice): TitleSources {
  const h1s = Array.from(doc.getElementsByTagName("h1")).filter((h) => h.getClientRects().length > 0);
  const region = h1s.length > 1 ? mainRegion(doc) : null;
  const inRegion = region ? h1s.find((h) => region.contains(h)) : h1s[0];
  const text = (h: Element | undefined): string => (h ? squash(h.textContent ?? "") : "");
  return { rules: rulesTitle(doc, c), readability: c.r?.title ?? "", h1Region: text(inRegion), h1s: h1s.slice(0, 3).map(text) };
}

/**
 * Readability alone keeps its own title; the full read asks the learned title chooser when a
 * model is shipped, else prefers the page's headline, then the document's title without the
 * site's name.
 */
function titleOf(doc: Document, c: Choice, full: boolean): string {
  if (!full) return c.r?.title || metaTitle(doc);
  const model = shippedModel();
  if (model?.model.titles) {
    try {
      const picked = pickTitle(model, titleCandidates(doc, titleSources(doc, c)));
      if (picked) return picked;
    } catch {
      /* the rules' title */
    }
  }
  return rulesTitle(doc, c);
}

export function readSync(options: ReadOptions = {}): ReadResult {
  const doc = document;
  const format = options.format === "text" ? "text" : "markdown";
  const strip = options.stripHidden !== false;
  const judge = options.markHidden === true ? new VisibilityJudge(doc) : null;
  const c = options.fallback === false ? readabilityAlone(doc, strip, judge) : compareCandidates(doc, strip, options.captions === true, judge);
  let content = c.node ? (format === "markdown" ? toMarkdown(c.node, options.links !== false) : toText(c.node)) : "";
  if (options.contentLimit !== undefined && options.contentLimit >= 0 && content.length > options.contentLimit) {
    content = content.slice(0, options.contentLimit);
  }
  let title = titleOf(doc, c, options.fallback !== false);
  let description = c.r?.excerpt || metaDescription(doc);
  let hidden: number | undefined;
  if (judge) {
    // The sentinels become marks (one home for what they mean: agent/session/provenance.ts).
    const m = marksFromRuns(content);
    content = m.text;
    hidden = m.passages.length;
    title = marksFromRuns(title).text;
    description = marksFromRuns(description).text;
  }
  // What the page's secret fields hold (pre-filled, autofilled, typed) is masked wherever the
  // page shows it again (secrets.ts).
  const secrets = new SecretValues();
  for (const v of secretValuesIn(doc)) secrets.add(v);
  return {
    title: secrets.scrub(title),
    description: secrets.scrub(description),
    content: secrets.scrub(content),
    extractor: c.extractor,
    ...(c.pageType ? { page_type: c.pageType } : {}),
    stats: { readability_chars: c.rLen, main_content_chars: c.fLen },
    ...(hidden !== undefined ? { hidden_passages: hidden } : {}),
  };
}
