// Main-content fallback for pages Readability rejects or shrinks (products, listings, forums):
// pick the main region (main / [role=main] / the largest content container, else <body>) and
// copy it without boilerplate (navigation, banners, footers, asides, hidden nodes, controls).
const DROP_TAGS = new Set([
  "script", "style", "noscript", "template", "svg", "iframe", "button", "select", "input", "textarea", "nav",
  "aside", "dialog", "canvas", "video", "audio", "object", "embed", "link", "meta",
]);
const DROP_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar", "toolbar", "tablist"]);
const BOILERPLATE = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|footer|site-?header|masthead|sidebar|cookies?|consent|gdpr|social|share|sharing|newsletter|subscribe|popup|modal|advert|ads|advertisement|promo|skip-?link|related|recommended)(?:$|[\s_-])/i;
const MAIN_SELECTORS = 'main, [role="main"], #main, #content, #main-content, .main-content, #primary, .post, .thread, article';

/** Text length with whitespace runs counted as one. */
export function textLen(el: Element): number {
  return (el.textContent ?? "").replace(/\s+/g, " ").length;
}

/** What makes blocks alike (a run of cards, rows or sections): the tag and the sorted class names. */
export function likeKey(el: Element): string {
  return `${el.localName}.${(el.getAttribute("class") ?? "").trim().split(/\s+/).sort().join(" ")}`;
}

/** The part of textLen that sits in links. */
export function linkTextLen(el: Element): number {
  let n = 0;
  el.querySelectorAll("a").forEach((a) => (n += (a.textContent ?? "").replace(/\s+/g, " ").length));
  return n;
}

/** The region holding the page's main content. */
export function mainRegion(doc: Document): Element | null {
  const body = doc.body;
  if (!body) return null;
  const total = textLen(body) || 1;
  let best: Element | null = null;
  let bestLen = 0;
  doc.querySelectorAll(MAIN_SELECTORS).forEach((el) => {
    const len = textLen(el);
    // `main` and role=main are trusted when they hold a fair share of the page; other
    // containers must hold most of it.
    const isMain = el.localName === "main" || el.getAttribute("role") === "main";
    if (len >= total * (isMain ? 0.2 : 0.4) && len > bestLen * (isMain ? 0.8 : 1.2)) {
      best = el;
      bestLen = len;
    }
  });
  return best ?? body;
}

/** Comment and newsletter forms: a form with a text area or an e-mail field. */
function isInputForm(el: Element): boolean {
  return el.localName === "form" && el.querySelector('textarea, input[type="email" i]') !== null;
}

/**
 * A block that is mostly links and says little besides: a menu, a tag cloud, a "related"
 * list, pagination. Listings keep theirs (their items are links).
 */
function isLinkList(el: Element, len = textLen(el)): boolean {
  const tag = el.localName;
  if (tag !== "ul" && tag !== "ol" && tag !== "div" && tag !== "section" && tag !== "table" && tag !== "p" && tag !== "nav") return false;
  if (len === 0 || len > 3000) return false;
  const links = el.getElementsByTagName("a").length;
  if (links < 3) return false;
  return linkTextLen(el) / len > 0.7;
}

/** Link lists up to this share of the content each are boilerplate candidates… */
const LINK_LIST_MAX_SHARE = 0.15;
/** …and they go only when together they hold at most this share of it. */
const LINK_LISTS_MAX_TOTAL = 0.33;

/**
 * The link lists inside `root` that are boilerplate: the outermost blocks that are mostly links
 * (isLinkList), each under 15% of the text. When together they hold more than a third of the
 * text, the links are the content (an undeclared listing, a link directory, a category page's
 * columns): none is returned. All or none: taking them in document order up to a cap took the
 * first third of a listing's items.
 */
export function boilerplateLinkLists(root: Element): Element[] {
  const total = textLen(root);
  if (!total) return [];
  const [first, last] = proseBounds(root);
  const out: Element[] = [];
  let sum = 0;
  for (const el of Array.from(root.querySelectorAll("ul, ol, div, section, p, table, nav"))) {
    if (out.length && out[out.length - 1]!.contains(el)) continue;
    const len = textLen(el);
    if (len > total * LINK_LIST_MAX_SHARE || !isLinkList(el, len)) continue;
    // Between the first and the last paragraph of prose, a list of links is part of the text
    // (a documentation page's list of types, a tabbed install command's package managers);
    // menus, breadcrumbs, tag clouds and "related" lists stand before or after it.
    if (first && last && follows(el, first) && follows(last, el)) continue;
    out.push(el);
    sum += len;
  }
  return sum > total * LINK_LISTS_MAX_TOTAL ? [] : out;
}

/** The length of a block of running text (some length, not mostly links), else 0. */
export function proseLength(el: Element): number {
  const len = textLen(el);
  return len >= 80 && linkTextLen(el) < len * 0.5 ? len : 0;
}

/** The first and the last prose block inside `root`. */
function proseBounds(root: Element): [Element | null, Element | null] {
  let first: Element | null = null;
  let last: Element | null = null;
  for (const el of Array.from(root.querySelectorAll("p, pre, blockquote"))) {
    // A paragraph, quote or code block of running text.
    if (!proseLength(el)) continue;
    first ??= el;
    last = el;
  }
  return [first, last];
}

/** `b` comes after `a` in the document and is not inside it (nor `a` inside `b`). */
function follows(b: Element, a: Element): boolean {
  const pos = a.compareDocumentPosition(b);
  return (pos & 4) !== 0 && (pos & (8 | 16)) === 0;
}

function isBoilerplate(el: Element, inArticle: boolean): boolean {
  const tag = el.localName;
  if (DROP_TAGS.has(tag)) return true;
  if (isInputForm(el)) return true;
  if ((tag === "header" || tag === "footer") && !inArticle) return true;
  if (el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true") return true;
  const role = el.getAttribute("role");
  if (role && DROP_ROLES.has(role)) return true;
  const key = `${el.id} ${typeof el.className === "string" ? el.className : ""}`;
  if (key.length > 1 && BOILERPLATE.test(key)) {
    // Only drop link-heavy blocks: a "related-content" wrapper around the article text stays.
    const len = textLen(el);
    if (len < 40 || linkTextLen(el) / len > 0.4) return true;
  }
  return false;
}

/**
 * A detached copy of the main region without boilerplate or hidden nodes. `dropLinkLists`
 * also leaves out link-dense blocks (not on listings, whose items are links). On a document
 * without a window (a cleaned clone) computed styles are not read: the cleaning did that.
 */
export function mainContent(doc: Document, dropLinkLists = false, region: Element | null = mainRegion(doc)): Element | null {
  if (!region) return null;
  const linkLists = new Set(dropLinkLists ? boilerplateLinkLists(region) : []);
  const view = doc.defaultView;
  const copy = (src: Element, inArticle: boolean): Element => {
    const out = src.cloneNode(false) as Element;
    for (let c = src.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out.appendChild(c.cloneNode(false));
      else if (c.nodeType === 1) {
        const el = c as Element;
        if (linkLists.has(el) || isBoilerplate(el, inArticle)) continue;
        if (view) {
          const cs = view.getComputedStyle(el);
          if (cs.display === "none" || cs.visibility === "hidden") continue;
        }
        out.appendChild(copy(el, inArticle || el.localName === "article" || el.localName === "main"));
      }
    }
    return out;
  };
  return copy(region, region.localName === "article" || region.localName === "main");
}
