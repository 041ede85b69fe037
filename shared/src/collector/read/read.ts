// read(): the page's main content as Markdown (default) or text. Readability runs on a clone
// of the document; when it fails or keeps too little of the main region (product, listing and
// forum pages), the main-content fallback is used instead.
import { Readability } from "@mozilla/readability";
import type { ReadOptions, ReadResult } from "../types.js";
import { squash } from "../text.js";
import { mainContent } from "./main-content.js";
import { toMarkdown } from "./markdown.js";
import { metaDescription, metaTitle } from "./metadata.js";
import { toText } from "./to-text.js";

/** Readability's output is kept when it holds at least this share of the fallback's text… */
const MIN_SHARE = 0.35;
/** …and at least this many characters. */
const MIN_CHARS = 250;

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

/**
 * Removes from the clone what the live page does not render (display:none from style sheets:
 * collapsed menus, modals, templates of widgets). Readability only sees inline styles; the
 * live document knows better. Both trees have the same shape, so they are walked in lockstep.
 */
function stripUnrendered(live: Element, copy: Element, view: Window): void {
  let c = copy.firstElementChild;
  for (let l = live.firstElementChild; l && c; l = l.nextElementSibling) {
    const next = c.nextElementSibling;
    const tag = l.localName;
    if (tag !== "script" && tag !== "style" && tag !== "noscript" && tag !== "template" && tag !== "head") {
      if (view.getComputedStyle(l).display === "none") copy.removeChild(c);
      else stripUnrendered(l, c, view);
    }
    c = next;
  }
}

function readability(doc: Document, strip: boolean): Extracted | null {
  try {
    const clone = doc.cloneNode(true) as Document;
    if (strip && doc.body && clone.body && doc.defaultView) stripUnrendered(doc.body, clone.body, doc.defaultView);
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

export function readSync(options: ReadOptions = {}): ReadResult {
  const doc = document;
  const format = options.format === "text" ? "text" : "markdown";
  const r = readability(doc, options.stripHidden !== false);
  let node: Element | null = r?.node ?? null;
  const rLen = plainLength(node);
  let fallback: Element | null = null;
  try {
    fallback = mainContent(doc);
  } catch {
    fallback = null;
  }
  const fLen = plainLength(fallback);
  let extractor: ReadResult["extractor"] = node ? "readability" : "none";
  // Readability is kept unless it failed, kept almost nothing, or (on pages that do not
  // present themselves as articles: products, listings, forums) kept a small part of the
  // main region.
  if (options.fallback !== false && (!node || rLen < MIN_CHARS || (rLen < fLen * MIN_SHARE && !articleLike(doc)))) {
    if (fallback && fLen > rLen) {
      node = fallback;
      extractor = "main-content";
    }
  }
  let content = node ? (format === "markdown" ? toMarkdown(node) : toText(node)) : "";
  if (options.contentLimit !== undefined && options.contentLimit >= 0 && content.length > options.contentLimit) {
    content = content.slice(0, options.contentLimit);
  }
  return {
    title: r?.title || metaTitle(doc),
    description: r?.excerpt || metaDescription(doc),
    content,
    extractor,
    stats: { readability_chars: rLen, main_content_chars: fLen },
  };
}
