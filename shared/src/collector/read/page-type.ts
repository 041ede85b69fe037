// What kind of page this is, from what the page declares (schema.org JSON-LD and microdata,
// Open Graph) and, failing that, from its structure (repeated posts, code blocks, a price next
// to a buy button, many similar cards). The extractor keeps different things per type: one
// article's text, every post of a thread, a product's name, price, description and
// specifications, the items of a listing, documentation with its code verbatim.
import type { PageType } from "../../contract/index.js";
import { likeKey, linkTextLen, textLen } from "./main-content.js";
export type { PageType };

const LD_TYPES: Array<[RegExp, PageType]> = [
  [/^(?:Product|ProductGroup|IndividualProduct|Offer|AggregateOffer|Car|Vehicle|SoftwareApplication|MobileApplication|Book)$/, "product"],
  [/^(?:DiscussionForumPosting|QAPage|Question|SocialMediaPosting|Comment)$/, "forum"],
  [/^(?:ItemList|CollectionPage|SearchResultsPage|OfferCatalog|ProductCollection)$/, "listing"],
  [/^(?:TechArticle|APIReference|HowTo)$/, "documentation"],
  [/^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|LiveBlogPosting|OpinionNewsArticle|AnalysisNewsArticle|ReviewNewsArticle|Recipe|Review|MedicalWebPage)$/, "article"],
];

function typeOf(name: string): PageType | null {
  const n = name.replace(/^https?:\/\/schema\.org\//, "");
  for (const [re, t] of LD_TYPES) if (re.test(n)) return t;
  return null;
}

/** A microdata item without the main heading must hold this share of the page's text to type it. */
const MICRODATA_MIN_SHARE = 0.3;

/** The schema.org types the page declares at top level (JSON-LD @type, @graph entries, microdata itemtype). */
export function declaredTypes(doc: Document): string[] {
  const out: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (!v || typeof v !== "object" || depth > 2) return;
    if (Array.isArray(v)) {
      for (const x of v.slice(0, 20)) visit(x, depth);
      return;
    }
    const o = v as Record<string, unknown>;
    const t = o["@type"];
    if (typeof t === "string") out.push(t);
    else if (Array.isArray(t)) for (const x of t) if (typeof x === "string") out.push(x);
    if (o["@graph"]) visit(o["@graph"], depth + 1);
    // A WebPage's mainEntity says what the page is about (a QAPage's Question, a Product).
    if (o.mainEntity) visit(o.mainEntity, depth + 1);
  };
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).slice(0, 8)) {
    try {
      visit(JSON.parse(s.textContent ?? ""), 0);
    } catch {
      /* a broken JSON-LD block says nothing */
    }
  }
  let bodyText = -1; // measured once, and only for an item without the main heading
  for (const el of Array.from(doc.querySelectorAll("[itemscope][itemtype]")).slice(0, 20)) {
    // Only items not nested in another item: a review inside a product is not the page.
    if (el.parentElement?.closest("[itemscope]")) continue;
    // Nor a block that is not the page's subject (a testimonial marked up as a Review): the
    // item holds the main heading or a good part of the text.
    if (!el.querySelector("h1")) {
      if (bodyText < 0) bodyText = doc.body ? textLen(doc.body) : 0;
      if (textLen(el) < bodyText * MICRODATA_MIN_SHARE) continue;
    }
    for (const t of (el.getAttribute("itemtype") ?? "").split(/\s+/)) if (t) out.push(t.replace(/^https?:\/\/schema\.org\//, ""));
  }
  // An FAQ's questions are the site's own answers, not a discussion: SEO plugins add an FAQPage
  // to articles, product and service pages, whose questions (in its mainEntity or beside it in
  // a @graph) do not make them threads. A page that also declares a thread (QAPage, a forum
  // posting) is one.
  const faq = out.some((t) => /(?:^|\/)FAQPage$/.test(t)) && !out.some((t) => /(?:^|\/)(?:QAPage|DiscussionForumPosting)$/.test(t));
  return faq ? out.filter((t) => !/(?:^|\/)Question$/.test(t)) : out;
}

const PRICE = /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|SEK|NOK|DKK|PLN|CZK|JPY|INR|AUD|CAD)\b)\s?\d[\d.,\s]*\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|kr|zł|Kč)\b)/;
/** A buy button's words (also read by furniture.ts: a block holding one is the product's buy box). */
export const BUY = /add to (?:cart|bag|basket)|buy now|in den warenkorb|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen|do koszyka|カートに入れる|加入购物车/i;
const POST_KEY = /(?:^|[\s_-])(?:post|message|reply|comment|topic-?post|postbody|post-?body|forum-?post|answer|thread-?item)(?:$|[\s_-]|s\b)/i;

/** A run of this many like items (same tag and class, each with a link)… */
const LISTING_MIN_ITEMS = 6;
/** …holding this share of the main region's text is an undeclared listing. */
const LISTING_MIN_SHARE = 0.4;
/** An item is a card or a row: a title and a line or two, not a menu entry nor an article. */
const ITEM_MIN_CHARS = 20;
const ITEM_MAX_CHARS = 800;
/** …whose links (the item's title) hold this share of its text or more. */
const ITEM_MIN_LINK_SHARE = 0.1;

/** Does `scope` hold a run of like items with links (a listing's cards or rows) making up much of its text? */
function holdsItemRun(scope: Element): boolean {
  const total = textLen(scope);
  if (!total) return false;
  for (const parent of [scope, ...Array.from(scope.querySelectorAll("ul, ol, div, section, tbody")).slice(0, 3000)]) {
    if (parent.childElementCount < LISTING_MIN_ITEMS) continue;
    const runs = new Map<string, { n: number; len: number }>();
    for (const c of Array.from(parent.children)) {
      if (c.localName !== "a" && !c.querySelector("a")) continue;
      const len = textLen(c);
      if (len < ITEM_MIN_CHARS || len > ITEM_MAX_CHARS) continue;
      // A card's link is its title: a review or a comment whose only link is "Report" is not an item.
      if ((c.localName === "a" ? len : linkTextLen(c)) < len * ITEM_MIN_LINK_SHARE) continue;
      const key = likeKey(c);
      const run = runs.get(key) ?? { n: 0, len: 0 };
      run.n++;
      run.len += len;
      runs.set(key, run);
    }
    for (const run of runs.values()) if (run.n >= LISTING_MIN_ITEMS && run.len >= total * LISTING_MIN_SHARE) return true;
  }
  return false;
}

/**
 * The page's type: declared types first (a Product or a forum posting declared anywhere wins over
 * an Article, which CMSs declare on every page), then the structure of the live page.
 */
export function detectPageType(doc: Document, region: Element | null): PageType {
  const declared = declaredTypes(doc).map(typeOf).filter((t): t is PageType => t !== null);
  for (const t of ["forum", "product", "documentation", "listing", "article"] as const) if (declared.includes(t)) return t;
  const og = (doc.querySelector('meta[property="og:type" i]')?.getAttribute("content") ?? "").toLowerCase();
  if (/product/.test(og)) return "product";
  const scope = region ?? doc.body;
  if (!scope) return "page";
  // A page that calls itself an article is one (tech blogs have code too).
  if (og === "article") return "article";
  // Documentation: code blocks in the main region.
  const pres = scope.querySelectorAll("pre").length;
  if (pres >= 2 || (pres === 1 && scope.querySelectorAll("code").length >= 5)) return "documentation";
  // Forum: many blocks that call themselves posts or replies, each with some text.
  let posts = 0;
  for (const el of Array.from(scope.querySelectorAll("article, li, div, section, table")).slice(0, 3000)) {
    const key = `${el.id} ${typeof el.className === "string" ? el.className : ""}`;
    if (key.length > 2 && POST_KEY.test(key) && !/comment-?(?:form|respond|reply-?link)|share/i.test(key) && (el.textContent ?? "").length > 80) {
      posts++;
      if (posts >= 4) break;
    }
  }
  // One <article> is a story: its comments are not a thread, and a grid of cards under it is
  // "more stories", not a listing.
  const oneArticle = doc.getElementsByTagName("article").length === 1;
  if (posts >= 4 && !oneArticle) return "forum";
  // Listing: a run of like items (cards, rows), each with a link, holding much of the region.
  // Before the product test: a category page's cards have prices and buy buttons too.
  if (!oneArticle && holdsItemRun(scope)) return "listing";
  // Product: a price and a buy button within the first screens.
  const text = (scope.textContent ?? "").slice(0, 20000);
  if (PRICE.test(text) && BUY.test(text) && (doc.querySelector('[itemprop="price"], [class*="price" i]') || /product/.test(og))) return "product";
  if (oneArticle) return "article";
  return "page";
}
