// Link targets as `a.href` gives them (the attribute resolved against the document's base URL),
// without asking the browser for every link: the getter parses and serialises a URL each time
// (µs per link on a link-heavy page). An href made only of characters the URL parser leaves as
// they are, with no dot segments and no scheme, resolves by plain concatenation with the base:
//   "/path"      -> scheme://host + "/path"
//   "#fragment"  -> the base without its fragment + "#fragment"
//   "dir/page"   -> scheme://host + the base's path up to its last "/" + "dir/page"
// Anything else, and every other kind of href, asks the getter, once per distinct attribute
// value per document. Docs and wiki pages are mostly fragment and relative links (a table of
// contents, cross references), each value distinct.

import { HTML_NS } from "./namespaces.js";

/**
 * Characters the URL parser copies unchanged in a path, query and fragment (none of ' " < > `
 * { } ^ | \ space or controls), colon, slash, "?" and "#" apart: each pattern below says where
 * those may stand.
 */
const PLAIN = "A-Za-z0-9\\-._~!$&()*+,;=@%";
/** A root-relative path (not "//host") of those characters. */
const PLAIN_PATH = new RegExp(`^/(?!/)[${PLAIN}:/?#]*$`);
/** A fragment of those characters (none is in the parser's fragment percent-encode set). */
const PLAIN_FRAGMENT = new RegExp(`^#[${PLAIN}:/?#]*$`);
/**
 * A path-relative reference of those characters with no colon (so no scheme), not starting
 * with a dot segment (later ones are caught by DOT_SEGMENT).
 */
const PLAIN_RELATIVE = new RegExp(`^(?![.]|%2e)[${PLAIN}][${PLAIN}/?#]*$`, "i");
/** Dot segments ("/./", "/../", "/.", also percent-encoded) are rewritten by the parser. */
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

export interface HrefResolver {
  resolve(el: HTMLAnchorElement | HTMLAreaElement): string | null;
}

interface PerDoc {
  /** "scheme://host[:port]" of the base URL, when a root-relative path can be appended to it. */
  prefix: string | null;
  /** The base URL without its fragment, when a fragment can be appended to it. */
  page: string | null;
  /** scheme://host + the base's path up to and including its last "/", for relative paths. */
  dir: string | null;
  seen: Map<string, string | null>;
}

/**
 * "scheme://host[:port]" then the path, of an http(s) base URL without credentials. The base is
 * read as the browser serialises it (`baseURI`), not through `URL`: a page may have replaced
 * that class, and in a serialised URL a "#" only ever starts the fragment.
 */
const HTTP_BASE = /^(https?:\/\/[^/?#@]+)(\/[^?#]*)/;

function perDoc(doc: Document): PerDoc {
  const base = doc.baseURI;
  const m = HTTP_BASE.exec(base);
  if (!m) return { prefix: null, page: null, dir: null, seen: new Map() };
  const hash = base.indexOf("#");
  return {
    prefix: m[1],
    page: hash < 0 ? base : base.slice(0, hash),
    dir: m[1] + m[2].slice(0, m[2].lastIndexOf("/") + 1),
    seen: new Map(),
  };
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
        d = perDoc(doc);
        docs.set(doc, d);
      }
      if (d.prefix !== null) {
        // Joined, not concatenated: a flat string (text.ts flat()).
        const c = raw.charCodeAt(0);
        if (c === 47 /* / */) {
          if (PLAIN_PATH.test(raw) && !DOT_SEGMENT.test(raw)) return [d.prefix, raw].join("");
        } else if (c === 35 /* # */) {
          if (PLAIN_FRAGMENT.test(raw)) return [d.page, raw].join("");
        } else if (PLAIN_RELATIVE.test(raw) && !DOT_SEGMENT.test(raw)) return [d.dir, raw].join("");
      }
      let out = d.seen.get(raw);
      if (out === undefined) {
        out = el.href || raw;
        d.seen.set(raw, out);
      }
      return out;
    },
  };
}
