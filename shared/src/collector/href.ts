// Link targets as `a.href` gives them (the attribute resolved against the document's base URL),
// without asking the browser for every link: the getter parses and serialises a URL each time
// (µs per link on a link-heavy page). A root-relative path made only of characters the URL
// parser leaves as they are, with no dot segments, resolves to the base's scheme and host
// followed by the path verbatim; anything else, and every other kind of href, asks the getter,
// once per distinct attribute value per document.

import { HTML_NS } from "./namespaces.js";

/** Path, query and fragment characters the URL parser copies unchanged (no ' " < > ` { } ^ | \ space). */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@%/?#]*$/;
/** Dot segments ("/./", "/../", "/.", also percent-encoded) are rewritten by the parser. */
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

export interface HrefResolver {
  resolve(el: HTMLAnchorElement | HTMLAreaElement): string | null;
}

interface PerDoc {
  /** "scheme://host[:port]" of the base URL, when a root-relative path can be appended to it. */
  prefix: string | null;
  seen: Map<string, string | null>;
}

function prefixOf(doc: Document): string | null {
  try {
    const base = new URL(doc.baseURI);
    if ((base.protocol !== "http:" && base.protocol !== "https:") || base.username || base.password || !base.host) return null;
    return `${base.protocol}//${base.host}`;
  } catch {
    return null;
  }
}

/** One resolver per collect(): documents (frames) and their base URLs do not change during it. */
export function hrefResolver(): HrefResolver {
  const docs = new Map<Document, PerDoc>();
  return {
    resolve(el) {
      const raw = el.getAttribute("href");
      if (raw === null) return null;
      // An SVG <a> has no string href property (SVGAnimatedString): its attribute as written.
      if (el.namespaceURI !== HTML_NS) return raw;
      const doc = el.ownerDocument;
      let d = docs.get(doc);
      if (!d) {
        d = { prefix: prefixOf(doc), seen: new Map() };
        docs.set(doc, d);
      }
      if (d.prefix !== null && PLAIN_PATH.test(raw) && !DOT_SEGMENT.test(raw)) return [d.prefix, raw].join(""); // a flat string (text.ts flat())
      let out = d.seen.get(raw);
      if (out === undefined) {
        out = el.href || raw;
        d.seen.set(raw, out);
      }
      return out;
    },
  };
}
