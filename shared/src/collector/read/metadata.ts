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
