// Furniture: what sits around an article's text (or a product) without being part of it. Photo
// captions and credits, bylines and datelines, promos for other stories, the author's box; on
// a thread, each post's counts and buttons; on a product page, other products and the reviews;
// on any page, the site's menus. A reader skips them,
// trafilatura drops them by default, and the hand-marked main content of the read benchmarks
// leaves them out (AEB and wcxb-dev keep about one figure caption in ten). Captions and bylines
// are found by name on the cleaned copy, where class names still exist (Readability's output has
// none), and marked there; the marks travel with the nodes into either candidate, and the chosen
// content drops what is marked. Marking rather than removing keeps Readability's scoring as it
// was. Promos are found by their words on the chosen content.
import { BUY, type PageType } from "./page-type.js";
import { squash } from "../text.js";
import { linkTextLen, textLen } from "./main-content.js";

const MARK = "data-sl-furniture";
/** Caption and credit blocks, by class or id (a whole word). */
const CAPTION_NAME = /(?:^|[\s_-])(?:caption|wp-caption-text|credits?|image-credit|photo-credit)(?:$|[\s_-])/i;
/** Byline and dateline blocks, by class or id. */
const BYLINE_NAME =
  /(?:^|[\s_-])(?:byline|by-?line|dateline|timestamp|published-?date|post-?date|posted-?on|entry-meta|post-meta|article-meta|article-info)(?:$|[\s_-])/i;
/** Furniture is short: a long block named "caption" is somebody's content. */
const MAX_CHARS = 300;
/** The author's box under an article ("About the author", a photo and a paragraph of bio), by class or id. */
const AUTHOR_BOX_NAME =
  /(?:^|[\s_-])(?:author-?(?:bio|box|info|card|about|description|details|profile|block|wrap(?:per)?)|about-?(?:the-?)?author|bio-?box|writer-?bio|contributor-?bio)(?:$|[\s_-])/i;
/** The same box found by its heading. */
const AUTHOR_BOX_HEADING = /^(?:about (?:the )?(?:author|writer|contributor)s?|über (?:den|die) autor(?:in)?|à propos de l'auteur|sobre (?:el|o) autor|sull'autore)\W*$/i;
/** A bio is a few paragraphs: a longer block with that name holds more than the author. */
const AUTHOR_BOX_MAX_CHARS = 1500;

/** Class and id, camelCase split into words ("newsCaption" is a caption). */
function nameOf(el: Element): string {
  return `${el.id} ${typeof el.className === "string" ? el.className : ""}`.replace(/([a-z])([A-Z])/g, "$1-$2");
}

/**
 * A dateline or byline said in words, whatever the block is called: "PUBLISHED: 10:48, Tue,
 * Nov 19 | UPDATED: …", "Updated at 1:23 p.m.", "By Justine Coleman - 11/18/19". A sentence
 * that begins with "By 2030" is not one (a byline's next word is a name).
 */
const DATELINE = /^(?:published|updated|posted|last (?:updated|modified)|publicado|atualizado|actualizado|publié|mis à jour|veröffentlicht|aktualisiert|pubblicato|aggiornato)\b[^.!?]{0,80}\d/i;
const BYLINE = /^by\s+\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|and|&|de|van|von|da))*\s*(?:$|[,|·•–—-]\s*[^.!?]{0,60}$)/u;
const WORDED_MAX_CHARS = 100;

/**
 * Marks `el`, every element inside it and its text: Readability rebuilds some blocks (a <div>
 * of phrasing content becomes a new <p>, without the div's attributes), and the text moved
 * into the new block must still say what it is.
 */
function mark(el: Element, kind: string): void {
  for (const e of [el, ...Array.from(el.querySelectorAll("*"))]) {
    e.setAttribute(MARK, kind);
    for (const t of Array.from(e.childNodes)) {
      if (t.nodeType !== 3 || !(t.nodeValue ?? "").trim()) continue;
      const span = e.ownerDocument.createElement("span");
      span.setAttribute(MARK, kind);
      t.replaceWith(span);
      span.appendChild(t);
    }
  }
}

/**
 * A thread's per-post chrome, in a block of its own: counts and post numbers ("5,421", "#3",
 * "Posts: 9179", "8,415 posts · Joined 2008"), the software's buttons and labels ("Reply 2",
 * "Quote", "Code: Select all", "Click to expand...") and edit notes ("wrote on last edited by").
 * The posts and who wrote them stay.
 */
const POST_CHROME = new RegExp(
  [
    String.raw`^[#№]?\d[\d.,\s]*[kKmM]?\+?$`,
    String.raw`^#\d+\b.{0,40}$`,
    String.raw`^(?:posts|messages|joined|reputation|reactions?(?: score)?|likes?(?: received)?|points|karma|solutions?|registered|member since|threads)\s*:?\s*[\d.,]+[kKmM]?$`,
    String.raw`^[\d.,]+[kKmM]?\s+(?:posts|messages|reactions|likes)\b.{0,40}$`,
    String.raw`^(?:reply|quote|report|share|like|permalink|multi-?quote|code:\s*select all|select all|click to (?:expand|shrink)\W*|scroll to see replies)\s*\d*$`,
    String.raw`^wrote on\b.{0,60}$|^last edited by\b.{0,60}$`,
  ].join("|"),
  "i",
);
const POST_CHROME_MAX_CHARS = 60;

/** On a thread: marks the per-post chrome (POST_CHROME), leaf blocks only. */
function markPostChrome(root: Element): void {
  for (const el of Array.from(root.querySelectorAll("p, div, span, li, dd, dt, a, button, small, time"))) {
    if (el.hasAttribute(MARK) || el.querySelector("p, div, li, pre, blockquote, table")) continue;
    const text = squash(el.textContent ?? "");
    if (!text || text.length > POST_CHROME_MAX_CHARS || !POST_CHROME.test(text)) continue;
    // On a line of its own, outside tables: "20" in "I waited 20 minutes" or in a post's table is the post's.
    if (el.closest("table")) continue;
    if (el.parentElement && Array.from(el.parentElement.childNodes).some((n) => n.nodeType === 3 && (n.nodeValue ?? "").trim())) continue;
    mark(el, "post-chrome");
  }
}

/** Navigation landmarks: the main-content candidate leaves them out, Readability keeps them. */
const NAVIGATION = 'nav, [role="navigation"], [role="menubar"]';
/** A navigation landmark is a menu when this share of its text or more is links. */
const MENU_LINK_SHARE = 0.5;

/**
 * The site's menus: a link-heavy <nav> or navigation landmark, whatever its size. Readability
 * keeps a menu when it takes a container around it (a page whose style sheets did not load
 * shows its mega-menu open) and renames it to a <div> on the way, so it is marked here.
 */
function markMenus(root: Element): void {
  for (const nav of Array.from(root.querySelectorAll(NAVIGATION))) {
    if (nav.hasAttribute(MARK)) continue;
    const len = textLen(nav);
    if (len && linkTextLen(nav) >= len * MENU_LINK_SHARE) mark(nav, "menu");
  }
}

/** Page types whose captions are furniture: elsewhere a caption is a team member, a slide, a card. */
const CAPTIONED_TEXT: ReadonlySet<PageType> = new Set(["article", "documentation"]);

/**
 * On the cleaned copy, before the candidates: marks what the chosen content will drop. Site
 * menus on every page; nothing else on listings. Captions and credits on articles and
 * documentation only (on a landing page, a product or a listing a caption names a person, a
 * slide or an item), unless the caller keeps them; the author's box on articles; bylines and
 * datelines except on threads (who wrote each post, and when, is part of a thread), where the
 * per-post chrome goes instead; other products and the reviews on product pages.
 */
export function markFurniture(root: Element, pageType: PageType, keepCaptions: boolean): void {
  markMenus(root);
  if (pageType === "listing") return;
  const captions = !keepCaptions && CAPTIONED_TEXT.has(pageType);
  const bylines = pageType !== "forum";
  const authorBox = pageType === "article" ? authorBoxTest(root) : null;
  if (captions) root.querySelectorAll("figcaption").forEach((c) => mark(c, "caption"));
  markByName(root, captions, bylines, authorBox);
  if (authorBox) markAuthorHeadings(root, authorBox);
  if (pageType === "forum") markPostChrome(root);
  if (pageType === "product") markProductExtras(root);
  if (bylines) markWordedBylines(root);
}

/**
 * A product page's extras: other products ("You may also like", "Customers also bought",
 * "Recently viewed") and other people's reviews. The product's name, price, rating,
 * description and specifications are the page's content; a carousel of other products is an
 * advertisement, and the reviews are a thread of their own under it (the read benchmarks'
 * marked content leaves both out; the rating summary stays).
 */
const OTHER_PRODUCTS_HEADING = new RegExp(
  "^(?:" +
    [
      String.raw`you (?:may|might|will|could) also (?:like|love|enjoy|be interested in)`,
      String.raw`(?:customers|people|shoppers|others)(?: who (?:bought|viewed|purchased) this(?: item| product)?)? also (?:bought|viewed|liked|purchased|like)`,
      String.raw`(?:this is )?what (?:other )?customers who (?:viewed|bought) this (?:item|product) (?:bought|viewed)`,
      String.raw`frequently bought together|bought together|often bought with`,
      String.raw`(?:related|similar|recommended|featured|complementary) (?:products|items)`,
      String.raw`products related to this item|recently viewed(?: products| items)?|more like this|more from this (?:brand|seller|collection)`,
      String.raw`complete the look|shop the look|pairs well with|recommended for you|you may also need|customers also considered`,
      String.raw`das könnte (?:dich|dir|ihnen) auch gefallen|ähnliche (?:produkte|artikel)|kunden kauften auch|zuletzt angesehen`,
      String.raw`vous aimerez (?:peut-être )?aussi|produits (?:similaires|associés|recommandés)|récemment consultés`,
      String.raw`(?:también )?te (?:puede|podría) interesar|productos (?:relacionados|similares)|vistos recientemente`,
      String.raw`potrebbe (?:interessarti|piacerti) anche|prodotti (?:correlati|simili)|visti di recente`,
      String.raw`(?:você )?também pode gostar|produtos (?:relacionados|semelhantes)|gerelateerde producten|vergelijkbare producten`,
    ].join("|") +
    String.raw`)\W*$`,
  "i",
);
/** The same blocks by class or id. */
const OTHER_PRODUCTS_NAME =
  /(?:^|[\s_-])(?:related-?products?|upsells?|up-?sells?|cross-?sells?|product-?recommendations?|recommendations|recently-?viewed|also-?(?:bought|viewed|like)|similar-?(?:products|items)|you-?may-?also-?like)(?:$|[\s_-])/i;
/** The reviews, by their heading: "Customer reviews", "Ratings & reviews (212)", "Bewertungen". */
const REVIEWS_HEADING = new RegExp(
  "^(?:" +
    [
      // Plural, or ratings said to be the customers': "Rating 4.5" and "Review" are labels (a
      // product's score, an editorial review's own heading), not the reviews.
      String.raw`(?:(?:customer|user|product|guest|verified|buyer|client)s?'? )?reviews(?: (?:&|and) ratings)?(?: for .{1,60})?`,
      String.raw`(?:customer|user|guest|verified|buyer|client)s?'? ratings(?: (?:&|and) reviews)?|ratings (?:&|and) reviews`,
      String.raw`what (?:our )?customers (?:are )?say(?:ing)?|write a review|top reviews(?: from .{1,40})?`,
      String.raw`(?:kunden)?bewertungen|rezensionen|avis(?: clients| des clients| vérifiés)|opiniones(?: de (?:los )?clientes)?|reseñas|valoraciones|recensioni(?: dei clienti)?|beoordelingen|reviews van klanten|avaliações(?: de clientes)?|opinie(?: klientów)?|recenze|カスタマーレビュー|用户评价|商品评价`,
    ].join("|") +
    String.raw`)\W*(?:\(\d[\d.,]*\))?\W*$`,
  "i",
);
/** The same blocks by class or id, and the review widgets shops embed. */
const REVIEWS_NAME =
  /(?:^|[\s_-])(?:reviews|product-?reviews|customer-?reviews|user-?reviews|reviews-?(?:list|section|container|widget|wrapper|block|area)|review-?list|yotpo|jdgm|judgeme|okendo|stamped|trustpilot|bazaarvoice|bv-?reviews|ratings-?(?:and-?)?reviews|reviews-?(?:and-?)?ratings)(?:$|[\s_-])/i;
/** A review marked up with schema.org microdata. */
const REVIEW_ITEM = '[itemprop~="review" i], [itemtype$="/Review" i]';
/** A shorter block named for reviews is the product's rating ("4.6 out of 5, 212 reviews"): it stays. */
const REVIEWS_MIN_CHARS = 300;

/** The product's offer: the block holding it (or a buy button) is the product's buy box, not its reviews. */
const OFFER = '[itemprop="price"], [itemprop="offers"]';
/** A buy button says little more than its words ("Add to cart", not a review's sentence that mentions buying). */
const BUY_BUTTON_MAX_CHARS = 40;
type Extra = "reviews" | "other-products";

/**
 * On a product page: marks other products (with links) and reviews (long enough), by name and
 * by heading. Neither may hold the page's frame or its `<h1>` (that block is the product); the
 * reviews may not hold the offer or a buy button either (a rating label in the buy box).
 */
function markProductExtras(root: Element): void {
  const h1s = Array.from(root.querySelectorAll("h1"));
  const beside = (el: Element): boolean => el.localName !== "main" && el.localName !== "body" && !h1s.some((h) => el.contains(h));
  const notBuyBox = (el: Element): boolean =>
    !el.querySelector(OFFER) &&
    !Array.from(el.querySelectorAll("button, a, input")).some((b) => {
      const words = squash(b.textContent || (b.getAttribute("value") ?? ""));
      return words.length <= BUY_BUTTON_MAX_CHARS && BUY.test(words);
    });
  const fits = (block: Element[], kind: Extra): boolean =>
    kind === "reviews"
      ? block.reduce((n, e) => n + textLen(e), 0) >= REVIEWS_MIN_CHARS && block.every(notBuyBox)
      : block.some((e) => e.querySelector("a"));
  for (const el of Array.from(root.querySelectorAll(`${REVIEW_ITEM}, [class], [id]`))) {
    if (el.hasAttribute(MARK) || !beside(el)) continue;
    const name = nameOf(el);
    if (OTHER_PRODUCTS_NAME.test(name) && fits([el], "other-products")) mark(el, "other-products");
    else if ((el.matches(REVIEW_ITEM) && notBuyBox(el)) || (REVIEWS_NAME.test(name) && fits([el], "reviews"))) mark(el, "reviews");
  }
  for (const [h, text] of headingLines(root, 80, /^(?:strong|b|span|a)$/)) {
    const kind: Extra | null = REVIEWS_HEADING.test(text) ? "reviews" : OTHER_PRODUCTS_HEADING.test(text) ? "other-products" : null;
    if (!kind) continue;
    const block = headedBlock(h, text, root, beside);
    if (block.length && fits(block, kind)) for (const e of block) mark(e, kind);
  }
}

/**
 * What a heading leads: the largest ancestor whose text it begins (beside the product); or, for
 * an <h2>–<h6> on its own among its siblings, it and the siblings up to the next heading as high
 * as it. A line that is not a heading element leads only an ancestor it begins. Empty when
 * nothing follows the heading.
 */
function headedBlock(h: Element, text: string, root: Element, beside: (el: Element) => boolean): Element[] {
  let box: Element = h;
  for (let p = h.parentElement; p && p !== root && beside(p) && leads(p, text); p = p.parentElement) box = p;
  if (box !== h) return [box];
  if (!/^h[2-6]$/.test(h.localName)) return [];
  const level = Number(h.localName[1]);
  const run: Element[] = [h];
  for (let n = h.nextElementSibling; n; n = n.nextElementSibling) {
    if ((/^h[1-6]$/.test(n.localName) && Number(n.localName[1]) <= level) || n.querySelector("h1")) break;
    run.push(n);
  }
  return run.length > 1 ? run : [];
}

/** Is `el` short enough to be an author's box: a few paragraphs, a small part of the page, no <h1>? */
function authorBoxTest(root: Element): (el: Element) => boolean {
  let total = -1; // the page's text, measured once and only when a candidate turns up
  return (el) => {
    const len = textLen(el);
    if (len > AUTHOR_BOX_MAX_CHARS || el.querySelector("h1")) return false;
    if (total < 0) total = textLen(root);
    return len < total * 0.3;
  };
}

/** One pass over the named blocks: captions and credits, bylines and datelines, the author's box. */
function markByName(root: Element, captions: boolean, bylines: boolean, authorBox: ((el: Element) => boolean) | null): void {
  if (!captions && !bylines && !authorBox) return;
  for (const el of Array.from(root.querySelectorAll("[class], [id]"))) {
    const tag = el.localName;
    if (tag === "body" || tag === "main" || tag === "article" || el.hasAttribute(MARK)) continue;
    const name = nameOf(el);
    if (name.length < 3) continue;
    if (authorBox && AUTHOR_BOX_NAME.test(name) && authorBox(el)) {
      mark(el, "author");
      continue;
    }
    const kind = captions && CAPTION_NAME.test(name) ? "caption" : bylines && BYLINE_NAME.test(name) ? "byline" : null;
    if (!kind) continue;
    const len = textLen(el);
    if (len > MAX_CHARS || el.querySelector("h1, h2, h3, pre, table")) continue;
    // A card's caption that is its link (a product or an article in a grid) is the item's name.
    if (kind === "caption" && len && linkTextLen(el) / len > 0.5) continue;
    mark(el, kind);
  }
}

/** Bylines and datelines said in words, in blocks of their own: "by Example Ltd" inside a sentence is part of it. */
function markWordedBylines(root: Element): void {
  for (const el of Array.from(root.querySelectorAll("p, div"))) {
    if (el.hasAttribute(MARK) || el.querySelector("p, div, li, h1, h2, h3, h4, h5, h6")) continue;
    const text = squash(el.textContent ?? "");
    if (text.length && text.length <= WORDED_MAX_CHARS && (DATELINE.test(text) || BYLINE.test(text))) mark(el, "byline");
  }
}

/**
 * The author's box found by its "About the author" heading (markByName finds it by its name).
 * Who wrote the article is furniture to its text like the byline; trafilatura and the
 * benchmarks' marked content leave it out.
 */
function markAuthorHeadings(root: Element, authorBox: (el: Element) => boolean): void {
  for (const [h, text] of headingLines(root, 40, /^(?:strong|b|span)$/)) {
    if (!AUTHOR_BOX_HEADING.test(text)) continue;
    // The heading's box when the heading leads it, else the heading and the block after it.
    let box: Element = h;
    while (box.parentElement && box.parentElement !== root && leads(box.parentElement, text) && authorBox(box.parentElement)) box = box.parentElement;
    if (box !== h) mark(box, "author");
    else {
      const next = h.nextElementSibling;
      mark(h, "author");
      if (next && authorBox(next)) mark(next, "author");
    }
  }
}

/**
 * Lines that may head a block (h2–h6, or a p/strong/b/span/div whose words are at most wrapped
 * once in one of `wrappers`: not a wrapper's whole text), unmarked, with their squashed text of
 * 1 to `maxChars` characters. Lazy, so that a block marked while its heading is handled is
 * skipped after it.
 */
function* headingLines(root: Element, maxChars: number, wrappers: RegExp): Generator<[Element, string]> {
  for (const h of Array.from(root.querySelectorAll("h2, h3, h4, h5, h6, p, strong, b, span, div"))) {
    const only = h.firstElementChild;
    if (h.hasAttribute(MARK) || h.childElementCount > 1 || (only && !wrappers.test(only.localName))) continue;
    const text = squash(h.textContent ?? "");
    if (text && text.length <= maxChars) yield [h, text];
  }
}

/** Does `el`'s text begin with `text`? Only its start is squashed, not a wrapper's whole text. */
function leads(el: Element, text: string): boolean {
  return squash((el.textContent ?? "").slice(0, text.length * 4 + 200)).startsWith(text);
}

/** On the chosen content: drops what markFurniture marked, and the promos. */
export function dropFurniture(root: Element): void {
  root.querySelectorAll(`[${MARK}]`).forEach((el) => el.remove());
  dropPromos(root);
}

/** A promo is a short paragraph… */
const PROMO_MAX_CHARS = 160;
/** …holding a link, led by words that send the reader elsewhere and a colon: "READ MORE: …". */
const PROMO_LEAD = /^\s*(?:(?:read|see|watch|listen|also|more|related|recommended|don'?t miss|must read|trending|explore|check out)\b[^:]{0,30}):/i;
/** A promo's own heading: the words that send the reader to other stories. */
const PROMO_HEADING = /^(?:don'?t miss|read more|read next|related(?: (?:stories|articles|posts|content|coverage|reading))?|see also|more on this(?: story)?|must read|recommended(?: for you)?|you (?:may|might) also like|trending(?: now)?|most read|popular)\W*$/i;
/** …or shouting, all of it a link: "GET THE APP BY CLICKING HERE". */
const SHOUT = /^[^a-z]*$/;

/**
 * Promos between an article's paragraphs: "READ MORE: <headline>", "SEE ALSO: <headline>", a
 * paragraph in capitals that is all link. A paragraph that is a bare address stays (a source).
 */
function dropPromos(root: Element): void {
  // A promo's heading on a line of its own ("DON'T MISS", "You may also like") and the block of
  // links under it.
  for (const h of Array.from(root.querySelectorAll("p, h2, h3, h4, h5, h6"))) {
    const text = squash(h.textContent ?? "");
    if (!text || text.length > 40 || h.querySelector("a") || !PROMO_HEADING.test(text)) continue;
    const next = h.nextElementSibling;
    if (!next || !/^(?:p|ul|ol|div)$/.test(next.localName)) continue;
    const len = textLen(next);
    if (len && next.querySelectorAll("a").length >= 2 && linkTextLen(next) / len >= 0.6) {
      next.remove();
      h.remove();
    }
  }
  for (const p of Array.from(root.querySelectorAll("p"))) {
    const text = squash(p.textContent ?? "");
    if (!text || text.length > PROMO_MAX_CHARS || !p.querySelector("a")) continue;
    if (PROMO_LEAD.test(text) || (SHOUT.test(text) && /[A-Z]{3}/.test(text) && linkTextLen(p) / textLen(p) > 0.9)) p.remove();
  }
}
