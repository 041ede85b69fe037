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

/**
 * The page's own title when there is no reading to take one from: og:title when the document
 * title is it followed by more parts ("Topic - Category - Forum" with og:title "Topic", as
 * forum software writes them; Readability itself prefers og:title), else metaTitle.
 */
export function fallbackTitle(doc: Document): string {
  const title = squash(doc.title || "");
  const og = meta(doc, 'meta[property="og:title" i]');
  if (og && title.length > og.length && title.toLowerCase().startsWith(og.toLowerCase()) && SEPARATOR_START.test(title.slice(og.length))) return og;
  return metaTitle(doc);
}

const WORDS = /[\p{L}\p{N}]+/gu;
const words = (s: string): string[] => s.toLowerCase().match(WORDS) ?? [];
/** Separators between a title's parts: the page's name and the site's. */
const SEPARATOR = /\s+[|\-\u2013\u2014\u00b7\u2022/\u00bb>~]\s+|\s*[|\u2013\u2014\u00b7\u2022\u00bb]\s*/;
/** The same, captured, so that a split keeps the separators between the parts. */
const SEPARATOR_KEEP = new RegExp(`(${SEPARATOR.source})`);
/** A separator where a string begins: what follows a title's first part. */
const SEPARATOR_START = new RegExp(`^(?:${SEPARATOR.source})`);

/**
 * A heading's text without the permalink mark that documentation generators put at its end
 * (Sphinx's "¶", "§", a link emoji): "Working with forms¶" names the page "Working with forms". A
 * "#" stays: "Learn C#" ends in one.
 */
export function withoutPermalink(text: string): string {
  const t = text.replace(/\s*(?:[\u00b6\u00a7]|\u{1f517})$/u, "").trim();
  return t || text;
}

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
  const text = withoutPermalink(squash(h.textContent ?? ""));
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

/** Letters and digits only, lower-cased: "Ruggable US" and "ruggable.com" compare as names. */
const bare = (s: string): string => words(s).join("");

/** Second-level labels under a country's domain ("co.uk", "com.au"): the name is the label before. */
const SECOND_LEVEL = new Set(["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go", "gob", "nic"]);

function registrableLabel(labels: string[]): string {
  if (labels.length < 2) return "";
  let i = labels.length - 2;
  if (i > 0 && SECOND_LEVEL.has(labels[i]!) && labels[labels.length - 1]!.length === 2) i--;
  return labels[i]!;
}

/**
 * What the site calls itself: og:site_name, the web-app names, and the host's name without
 * "www." and the top-level domain (from the page's address, its canonical link and og:url; a
 * page read from a loopback or bare-IP address has none of its own).
 */
function siteNames(doc: Document): string[] {
  const names = [
    meta(doc, 'meta[property="og:site_name" i]'),
    meta(doc, 'meta[name="application-name" i]'),
    meta(doc, 'meta[name="apple-mobile-web-app-title" i]'),
  ];
  const addresses = [doc.location?.href ?? "", doc.querySelector('link[rel="canonical" i]')?.getAttribute("href") ?? "", meta(doc, 'meta[property="og:url" i]')];
  for (const a of addresses) {
    try {
      const host = new URL(a, doc.baseURI).hostname;
      if (!host || /^[\d.]+$|^\[|^localhost$/.test(host)) continue;
      const labels = host.replace(/^www\d*\./, "").split(".");
      // "shop.example.co.uk" -> "example": the longest label but the last (the top-level domain).
      const name = labels.slice(0, -1).sort((x, y) => y.length - x.length)[0];
      if (name) names.push(name);
      // and the registrable domain's own label, which a longer subdomain hides
      // ("developers.example.org" -> "example" as well as "developers")
      const own = registrableLabel(labels);
      if (own && own !== name) names.push(own);
    } catch {
      /* not an address */
    }
  }
  return names.map(bare).filter((n) => n.length >= 3);
}

/**
 * A title part that names the site: one of its names, or a piece of one. At the title's end a
 * few words that hold a name count too ("Ruggable US" for ruggable.com); at its start, where
 * titles put a brand before what the page is ("Postman: The API Platform | Sign Up"), they do not.
 */
function namesSite(part: string, sites: string[], atEnd: boolean): boolean {
  const p = bare(part);
  if (p.length < 3) return false;
  const few = words(part).length <= 4;
  return sites.some((s) => p === s || (p.length >= 4 && s.includes(p)) || (atEnd && few && s.length >= 4 && p.includes(s)));
}

/**
 * `title` without the site's name at its end or start ("Catering Tips | Cookshack" with
 * cookshack.com: "Catering Tips"), when the site says what it is called (og:site_name, its
 * host). A part that only looks like a site name stays: "Getting started | Install" keeps both.
 */
export function withoutSiteName(doc: Document, title: string): string {
  const parts = title.split(SEPARATOR_KEEP);
  // parts alternate text and separator: [text, sep, text, sep, text]
  if (parts.length < 3) return title;
  const sites = siteNames(doc);
  if (!sites.length) return title;
  if (namesSite(parts[parts.length - 1]!, sites, true)) parts.splice(-2, 2);
  else if (namesSite(parts[0]!, sites, false)) parts.splice(0, 2);
  else return title;
  const rest = parts.join("").trim();
  return words(rest).length ? rest : title;
}
