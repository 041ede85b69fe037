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
  const og = meta(doc, 'meta[property="og:title" i]').toLowerCase();
  return squash(doc.title).toLowerCase().includes(low) || og.includes(low) ? text : "";
}
