// CAPTCHA / bot-challenge detection from markup, frame sources, URL and page text. Providers:
// reCAPTCHA, hCaptcha, Cloudflare Turnstile / challenge, Arkose (FunCaptcha), AWS WAF, and
// generic challenge-page wording.
import type { Captcha } from "../contract/index.js";
import { splitSelectorList } from "./style-rules.js";
import { flat, shortText } from "./text.js";

interface Probe {
  provider: string;
  selector: string;
}

const SELECTORS: Probe[] = [
  { provider: "recaptcha", selector: ".g-recaptcha, #g-recaptcha, [data-sitekey].g-recaptcha, #recaptcha, .grecaptcha-badge, textarea#g-recaptcha-response" },
  { provider: "hcaptcha", selector: ".h-captcha, [data-hcaptcha-widget-id], textarea[name='h-captcha-response']" },
  { provider: "turnstile", selector: ".cf-turnstile, [name='cf-turnstile-response'], #challenge-form, #challenge-stage, #cf-challenge-running, .cf-browser-verification" },
  { provider: "arkose", selector: "#FunCaptcha, #funcaptcha, [data-pkey], #arkose, #arkoseFrame, [id^='arkose'], input[name='fc-token']" },
  { provider: "awswaf", selector: "#captcha-container, awswaf-captcha, .amzn-captcha-modal, #aws-waf-token" },
  { provider: "generic", selector: "[id*='captcha' i], [class*='captcha' i], [name*='captcha' i]" },
];

/**
 * The gate: some selector above matches exactly when one of these does. Selectors whose id,
 * class or name contains "captcha" are left out (the three case-insensitive substring
 * selectors match every element they match). Queried one by one, not as one list: a single
 * id, class or tag selector takes Chromium's fast paths, and a list makes every element of
 * the page try every selector (10 ms on a 15,800-element page, against 5 ms one by one).
 */
const SUBSUMED = /^(?:[a-z]*(?:[#.][\w-]*captcha[\w-]*|\[name='[\w-]*captcha[\w-]*'\]|\[data-sitekey\]\.g-recaptcha))$/i;

/** Each provider's selectors, queried one by one (see GATE_SELECTORS for why). */
const PROVIDER_SELECTORS: string[][] = SELECTORS.map((p) => splitSelectorList(p.selector).map((s) => s.trim()));
const GATE_SELECTORS = PROVIDER_SELECTORS.flat().filter((s) => !SUBSUMED.test(s));

/**
 * What `doc.querySelector(list)` gives (the first element in tree order matching any of the
 * selectors) from one query per selector: the earliest of their first matches. A list makes
 * Chromium try every selector on every element; on a page whose gate matched, the six
 * provider queries took 5.5 ms as lists and 2.5 ms this way.
 */
function firstMatch(doc: Document, selectors: string[]): Element | null {
  let first: Element | null = null;
  for (const sel of selectors) {
    const el = doc.querySelector(sel);
    // 2: Node.DOCUMENT_POSITION_PRECEDING (el comes before first).
    if (el && (first === null || (first.compareDocumentPosition(el) & 2) !== 0)) first = el;
  }
  return first;
}

const FRAME_SOURCES: Array<[string, RegExp]> = [
  ["recaptcha", /(?:google\.com|recaptcha\.net)\/recaptcha\//i],
  ["hcaptcha", /hcaptcha\.com/i],
  ["turnstile", /challenges\.cloudflare\.com/i],
  ["arkose", /arkoselabs\.com|funcaptcha\.com/i],
  ["awswaf", /captcha\.awswaf\.com|awswaf/i],
  ["generic", /captcha/i],
];

const SCRIPT_SOURCES: Array<[string, RegExp]> = [
  ["recaptcha", /recaptcha\/(?:api|enterprise)\.js/i],
  ["hcaptcha", /hcaptcha\.com\/1\/api\.js/i],
  ["turnstile", /challenges\.cloudflare\.com\/turnstile/i],
  ["arkose", /arkoselabs\.com|funcaptcha\.com/i],
  ["awswaf", /captcha\.awswaf\.com|\/jsapi\.js.*awswaf|awswaf.*\.js/i],
];

const TEXT_PATTERNS: RegExp[] = [
  /verify (?:that )?you(?:'re| are) (?:a )?human/i,
  /are you (?:a )?(?:human|robot)\??/i,
  /i(?:'m| am) not a robot/i,
  /checking (?:if the site connection is secure|your browser)/i,
  /just a moment\.\.\./i,
  /please (?:complete|solve) the (?:security )?(?:check|challenge|captcha)/i,
  /press (?:&|and) hold/i,
  /unusual traffic from your (?:computer|network)/i,
  /enable javascript and cookies to continue/i,
  /attention required! \| cloudflare/i,
  /security check to access/i,
  /(?:complete|solve) the captcha/i,
];

// Strong: only challenge pages use these paths. Weak: a URL merely mentioning "captcha".
const URL_STRONG: RegExp[] = [/\/cdn-cgi\/challenge-platform/i, /__cf_chl_/i, /\/sorry\/index/i];
const URL_WEAK: RegExp[] = [/captcha/i];

/**
 * Detects CAPTCHA markup and challenge pages. Bounded: a few selectors, ~3,000 chars of text.
 * Evidence strings are flat() (they go into the snapshot JSON).
 */
export function detectCaptcha(doc: Document = document): Captcha {
  const providers = new Set<string>();
  const selectorHits: string[] = [];
  const iframeHits: string[] = [];
  const textHits: string[] = [];
  const urlHits: string[] = [];

  // Most pages match none of the selectors: the gate queries first, and the per-provider
  // queries (each a full scan) only when something matched.
  let any = false;
  for (const sel of GATE_SELECTORS) {
    try {
      any = doc.querySelector(sel) !== null;
    } catch {
      any = true;
    }
    if (any) break;
  }
  for (let i = 0; any && i < SELECTORS.length; i++) {
    const p = SELECTORS[i];
    let el: Element | null = null;
    try {
      el = firstMatch(doc, PROVIDER_SELECTORS[i]);
    } catch {
      el = null;
    }
    if (el) {
      // A generic match must look like a real widget, not `.no-captcha-text` copy.
      if (p.provider === "generic" && !/captcha/i.test(`${el.id} ${el.getAttribute("name") ?? ""}`) && el.localName !== "iframe" && el.localName !== "div") continue;
      providers.add(p.provider);
      selectorHits.push(flat(describe(el)));
    }
  }
  for (const frame of Array.from(doc.querySelectorAll("iframe[src]"))) {
    const src = frame.getAttribute("src") ?? "";
    for (const [provider, re] of FRAME_SOURCES) {
      if (re.test(src)) {
        providers.add(provider);
        iframeHits.push(flat(src.slice(0, 200)));
        break;
      }
    }
    if (iframeHits.length >= 5) break;
  }
  for (const script of Array.from(doc.querySelectorAll("script[src]"))) {
    const src = script.getAttribute("src") ?? "";
    for (const [provider, re] of SCRIPT_SOURCES) {
      if (re.test(src)) {
        providers.add(provider);
        selectorHits.push(flat(`script[src*="${src.slice(0, 120)}"]`));
        break;
      }
    }
  }
  // Challenge pages are short: the first 3,000 characters of text are enough (bounded walk,
  // not innerText, which lays out the whole page's text).
  const text = `${doc.title} ${doc.body ? shortText(doc.body, 3000, 3000) : ""}`;
  for (const re of TEXT_PATTERNS) {
    const m = re.exec(text);
    if (m) textHits.push(flat(m[0]));
  }
  const href = doc.location?.href ?? "";
  let strongUrl = false;
  for (const re of URL_STRONG) {
    const m = re.exec(href);
    if (m) {
      urlHits.push(flat(m[0]));
      strongUrl = true;
    }
  }
  for (const re of URL_WEAK) {
    const m = re.exec(href);
    if (m) urlHits.push(flat(m[0]));
  }

  const strongProvider = [...providers].some((p) => p !== "generic");
  let confidence = 0;
  if (strongProvider && (iframeHits.length || selectorHits.length)) confidence = 0.9;
  else if (providers.size) confidence = strongProvider ? 0.7 : 0.4;
  if (textHits.length) confidence = Math.max(confidence, textHits.length > 1 ? 0.8 : 0.6) + (providers.size ? 0.05 : 0);
  if (urlHits.length) confidence = Math.max(confidence, strongUrl ? 0.6 : 0.3) + (providers.size || textHits.length ? 0.05 : 0);
  confidence = Math.min(1, Math.round(confidence * 100) / 100);
  return {
    detected: confidence >= 0.5,
    confidence,
    evidence: { text_hits: textHits, selector_hits: selectorHits, iframe_src_hits: iframeHits, url_hits: urlHits },
    providers: [...providers],
  };
}

function describe(el: Element): string {
  const id = el.id ? `#${el.id}` : "";
  const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 2).join(".")}` : "";
  return `${el.localName}${id}${cls}`.slice(0, 120);
}
