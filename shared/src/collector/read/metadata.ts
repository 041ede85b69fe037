// Page title and description from the live document (meta description, og:description fallback).
import { squash } from "../text.js";

function meta(doc: Document, selector: string): string {
  const el = doc.querySelector(selector);
  return el ? squash(el.getAttribute("content") ?? "") : "";
}

export function metaDescription(doc: Document): string {
  return (
    meta(doc, 'meta[name="description" i]') ||
    meta(doc, 'meta[property="og:description" i]') ||
    meta(doc, 'meta[name="og:description" i]') ||
    meta(doc, 'meta[name="twitter:description" i]') ||
    meta(doc, 'meta[property="twitter:description" i]')
  );
}

export function metaTitle(doc: Document): string {
  return squash(doc.title || "") || meta(doc, 'meta[property="og:title" i]') || meta(doc, 'meta[name="twitter:title" i]');
}

const WORDS = /[\p{L}\p{N}]+/gu;
const words = (s: string): string[] => s.toLowerCase().match(WORDS) ?? [];
/** Separators between a title's parts: the page's name and the site's. */
const SEPARATOR = /\s+[|\-\u2013\u2014\u00b7\u2022/\u00bb>~]\s+|\s*[|\u2013\u2014\u00b7\u2022\u00bb]\s*/;

/**
 * The page's headline: its rendered <h1> (the first one inside `region` when there are several),
 * when the document title or og:title agree with it (most of its words are in them). A headline
 * is what a reader calls the page; a document title often adds the site's name or SEO words.
 * Empty when there is no such heading.
 */
export function headline(doc: Document, regionOf: () => Element | null): string {
  const rendered = Array.from(doc.getElementsByTagName("h1")).filter((h) => h.getClientRects().length > 0);
  if (!rendered.length) return "";
  const region = rendered.length > 1 ? regionOf() : null;
  const inRegion = region ? rendered.filter((h) => region.contains(h)) : [];
  const h = inRegion[0] ?? (rendered.length === 1 ? rendered[0] : null);
  if (!h) return "";
  const text = squash(h.textContent ?? "");
  if (text.length < 3 || text.length > 300) return "";
  if (!words(text).length) return "";
  // Strict agreement: the document title or og:title holds the headline whole (the headline
  // plus the site's name), or og:title is the headline. A looser match (most words shared)
  // traded the Readability test pages' titles for WCXB's (bench/results/read-quality.json).
  const low = text.toLowerCase();
  const titles = [squash(doc.title).toLowerCase(), meta(doc, 'meta[property="og:title" i]').toLowerCase()];
  if (!titles.some((t) => t.includes(low))) return "";
  // An <h1> that is, or begins, the title's last part after a separator, shorter than what
  // comes before it, is the site's name in a banner ("A brief intro to git • Jane Doe" with
  // <h1>Jane Doe</h1>; "… - Example.com" or "… / Example Forums" with <h1>Example</h1>).
  for (const t of titles) {
    const parts = t.split(SEPARATOR).map((p) => p.trim()).filter(Boolean);
    const site = parts[parts.length - 1]!;
    if (parts.length > 1 && (site === low || site.startsWith(`${low}.`) || site.startsWith(`${low} `)) && parts.slice(0, -1).join(" ").length > low.length) return "";
  }
  return text;
}
