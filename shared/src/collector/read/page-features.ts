// The page-type model's features: what the page declares (schema.org types, Open Graph), its
// address, what the type rules found (page-type.ts), counts of the markup that makes each kind
// of page (code blocks, posts, prices and buy buttons, runs of like items, articles), and how
// its text is spread. One row per page, in PAGE_FEATURES order.
import { BUY, declaredTypes, type PageType } from "./page-type.js";
import { likeKey, linkTextLen, textLen } from "./main-content.js";

const RULE_TYPES: PageType[] = ["article", "forum", "product", "listing", "documentation", "page"];
const DECLARED: Array<[string, RegExp]> = [
  ["product", /^(?:Product|ProductGroup|IndividualProduct|Offer|AggregateOffer|Car|Vehicle|SoftwareApplication|MobileApplication|Book)$/],
  ["forum", /^(?:DiscussionForumPosting|QAPage|Question|SocialMediaPosting|Comment)$/],
  ["listing", /^(?:ItemList|CollectionPage|SearchResultsPage|OfferCatalog|ProductCollection)$/],
  ["documentation", /^(?:TechArticle|APIReference|HowTo)$/],
  ["article", /^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|LiveBlogPosting|OpinionNewsArticle|AnalysisNewsArticle|ReviewNewsArticle|Recipe|Review|MedicalWebPage)$/],
  ["service", /^(?:Service|LocalBusiness|Organization|ProfessionalService|FAQPage|ContactPage|AboutPage|Corporation)$/],
  ["webpage", /^(?:WebPage|WebSite)$/],
  ["breadcrumb", /^BreadcrumbList$/],
];
const URL_WORDS: Array<[string, RegExp]> = [
  ["url_product", /\/(?:p|dp|product|products|item|itm|app|shop\/[^/]+\/[^/]+)(?:\/|$|-)|\/[^/]*-p-\d|\.html?\?.*sku/i],
  ["url_forum", /\/(?:forums?|threads?|t|topics?|questions|discussions?|community|comments|r\/[^/]+\/comments|viewtopic|showthread)(?:\/|$|\.|-)|^(?:forums?|community|discuss|answers)\./i],
  ["url_docs", /\/(?:docs?|documentation|reference|api|guides?|manual|learn|tutorials?|library|handbook|wiki|kb)(?:\/|$|\.)|^(?:docs?|developers?|devcenter|learn|support|help|wiki)\./i],
  ["url_listing", /\/(?:category|categories|c|collections?|tags?|topics|search|browse|archive|list|shop|catalog|department|s)(?:\/|$|\?)|[?&](?:q|page|category)=/i],
  ["url_article", /\/(?:blog|news|articles?|story|stories|posts?|opinion|features?)(?:\/|$)|\/20\d\d\/|\/\d{4}\/\d{2}\//i],
  ["url_service", /\/(?:services?|solutions?|about|contact|pricing|company|careers|industries|what-we-do|our-)(?:\/|$|-)/i],
];
const PRICE = /(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|SEK|NOK|DKK|PLN|CZK|JPY|INR|AUD|CAD)\b)\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|kr|zł|Kč)\b)/g;
const POST_KEY = /(?:^|[\s_-])(?:post|message|reply|comment|topic-?post|postbody|post-?body|forum-?post|answer|thread-?item)(?:$|[\s_-]|s\b)/i;

export const PAGE_FEATURES: readonly string[] = [
  ...RULE_TYPES.map((t) => `rule_${t}`),
  ...DECLARED.map(([n]) => `declared_${n}`),
  "og_article", "og_product", "og_website", "og_other", "og_none",
  ...URL_WORDS.map(([n]) => n), "url_depth", "url_digits", "url_html",
  "log_text", "region_share", "link_share", "p_share", "mean_p", "log_p", "log_pre", "log_code", "log_article",
  "log_h1", "log_h2", "log_h3", "log_li", "log_table", "log_form", "log_input", "log_img", "log_time", "log_a",
  "log_prices", "has_buy", "log_posts", "item_run", "item_run_share", "log_textarea", "log_dl", "log_blockquote",
  "rb_share", "mc_share", "rules_main_content", "title_words", "has_h1",
];

function pageAddress(doc: Document): string {
  const canonical = doc.querySelector('link[rel="canonical" i]')?.getAttribute("href");
  const og = doc.querySelector('meta[property="og:url" i]')?.getAttribute("content");
  for (const a of [canonical, og, doc.location?.href]) {
    if (!a) continue;
    try {
      const u = new URL(a, doc.baseURI);
      if (/^(?:127\.|localhost$|\[)/.test(u.hostname)) continue;
      return u.href;
    } catch {
      /* not an address */
    }
  }
  return "";
}

/** The longest run of like items (same tag and class, each with a link) under one parent, and its share of `scope`'s text. */
function itemRun(scope: Element, total: number): [number, number] {
  let bestN = 0, bestShare = 0;
  for (const parent of [scope, ...Array.from(scope.querySelectorAll("ul, ol, div, section, tbody")).slice(0, 2000)]) {
    if (parent.childElementCount < 4) continue;
    const runs = new Map<string, { n: number; len: number }>();
    for (const c of Array.from(parent.children)) {
      if (c.localName !== "a" && !c.querySelector("a")) continue;
      const len = textLen(c);
      if (len < 20 || len > 1500) continue;
      const key = likeKey(c);
      const run = runs.get(key) ?? { n: 0, len: 0 };
      run.n++;
      run.len += len;
      runs.set(key, run);
    }
    for (const run of runs.values()) {
      if (run.n > bestN) bestN = run.n;
      if (run.n >= 4 && run.len / total > bestShare) bestShare = run.len / total;
    }
  }
  return [bestN, bestShare];
}

/** What the candidates kept, known once both have run (after Readability took the copy apart). */
export interface PageRuleFacts {
  readabilityChars: number;
  mainContentChars: number;
  rulesReadability: boolean;
}
const FACTS_AT = PAGE_FEATURES.indexOf("rb_share");
const TOTAL_AT = PAGE_FEATURES.indexOf("log_text");

/** Fills in the row's last features, from what the candidates kept. */
export function setPageFacts(row: Float32Array, facts: PageRuleFacts): void {
  const total = Math.expm1(row[TOTAL_AT]!) || 1;
  row[FACTS_AT] = facts.readabilityChars / total;
  row[FACTS_AT + 1] = facts.mainContentChars / total;
  row[FACTS_AT + 2] = facts.rulesReadability ? 0 : 1;
}

const log1 = (x: number): number => Math.log1p(Math.max(0, x));

/**
 * The page-type model's feature row for the cleaned copy `clone` of `doc`, before the
 * candidates run (setPageFacts adds what they kept).
 */
export function pageFeatures(doc: Document, clone: Document, region: Element | null, ruleType: PageType): Float32Array {
  const row = new Float32Array(PAGE_FEATURES.length);
  let k = 0;
  for (const t of RULE_TYPES) row[k++] = ruleType === t ? 1 : 0;
  const declared = declaredTypes(clone);
  for (const [, re] of DECLARED) row[k++] = declared.some((t) => re.test(t.replace(/^https?:\/\/schema\.org\//, ""))) ? 1 : 0;
  const og = (doc.querySelector('meta[property="og:type" i]')?.getAttribute("content") ?? "").toLowerCase();
  row[k++] = /article|blog|news/.test(og) ? 1 : 0;
  row[k++] = /product/.test(og) ? 1 : 0;
  row[k++] = og === "website" ? 1 : 0;
  row[k++] = og && !/article|blog|news|product|website/.test(og) ? 1 : 0;
  row[k++] = og ? 0 : 1;
  const address = pageAddress(doc);
  let path = "", host = "";
  try {
    const u = new URL(address);
    path = u.pathname + u.search;
    host = u.hostname.replace(/^www\d*\./, "");
  } catch {
    /* no address */
  }
  for (const [, re] of URL_WORDS) row[k++] = re.test(path) || re.test(host) ? 1 : 0;
  row[k++] = path.split("/").filter(Boolean).length;
  row[k++] = /\d{4,}/.test(path) ? 1 : 0;
  row[k++] = /\.html?$/.test(path) ? 1 : 0;
  const body = clone.body;
  const total = body ? textLen(body) || 1 : 1;
  const scope = region ?? body;
  // Tag counts from the live collections (one scan of the tree each by querySelectorAll otherwise).
  const q = (tag: string): number => (scope ? scope.getElementsByTagName(tag).length : 0);
  row[k++] = log1(total);
  row[k++] = scope ? textLen(scope) / total : 0;
  row[k++] = body ? linkTextLen(body) / total : 0;
  let pChars = 0, pN = 0;
  if (scope) for (const p of Array.from(scope.getElementsByTagName("p"))) {
    const len = textLen(p);
    if (len > 0) { pChars += len; pN++; }
  }
  row[k++] = pChars / total;
  row[k++] = pN ? log1(pChars / pN) : 0;
  row[k++] = log1(pN);
  for (const sel of ["pre", "code", "article", "h1", "h2", "h3", "li", "table", "form", "input", "img", "time", "a"]) row[k++] = log1(q(sel));
  const text = (scope?.textContent ?? "").slice(0, 30000);
  row[k++] = log1((text.match(PRICE) ?? []).length);
  row[k++] = BUY.test(text) ? 1 : 0;
  let posts = 0;
  if (scope) for (const el of Array.from(scope.querySelectorAll("article, li, div, section, table")).slice(0, 3000)) {
    const key = `${el.id} ${typeof el.className === "string" ? el.className : ""}`;
    if (key.length > 2 && POST_KEY.test(key) && (el.textContent ?? "").length > 80 && ++posts >= 50) break;
  }
  row[k++] = log1(posts);
  const [runN, runShare] = scope ? itemRun(scope, total) : [0, 0];
  row[k++] = log1(runN);
  row[k++] = runShare;
  row[k++] = log1(q("textarea"));
  row[k++] = log1(q("dl"));
  row[k++] = log1(q("blockquote"));
  k += 3; // setPageFacts
  row[k++] = log1((doc.title.match(/[\p{L}\p{N}]+/gu) ?? []).length);
  row[k++] = doc.querySelector("h1") ? 1 : 0;
  return row;
}
