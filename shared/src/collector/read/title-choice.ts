// Title candidates for the learned title chooser: the page's titles from every source (the
// rules' pick, Readability's, the document title, Open Graph, Twitter, the rendered <h1>s,
// JSON-LD headline and name), each also without the site's name and cut at its separators,
// described by where they came from and how the sources agree. The model (learned.ts) scores
// each and the best one is the title; without a model the rules' pick stands.
import { squash } from "../text.js";
import { withoutSiteName } from "./metadata.js";

const SOURCES = ["rules", "readability", "doc", "og", "twitter", "h1_region", "h1_first", "ld_headline", "ld_name"] as const;
const SEPARATOR = /\s+[|\-\u2013\u2014\u00b7\u2022/\u00bb>~:]\s+|\s*[|\u2013\u2014\u00b7\u2022\u00bb]\s*/;

export const TITLE_FEATURES: readonly string[] = [
  ...SOURCES.map((s) => `from_${s}`),
  ...SOURCES.map((s) => `is_${s}`),
  "whole", "no_site", "first_part", "but_last_part", "sources", "variants",
  "log_chars", "words", "has_separator", "prefix_of_doc", "in_doc", "in_og", "equals_h1", "in_h1", "equals_site",
  "page_has_h1", "page_h1s", "doc_parts", "og_is_doc", "h1_in_doc", "readability_is_og", "rules_is_h1", "og_present",
];

export interface TitleSources {
  rules: string;
  readability: string;
  h1Region: string;
  h1s: string[];
}

function ld(doc: Document): { headline: string; name: string } {
  const out = { headline: "", name: "" };
  for (const s of Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).slice(0, 8)) {
    try {
      const visit = (v: unknown, d: number): void => {
        if (!v || typeof v !== "object" || d > 3) return;
        if (Array.isArray(v)) return v.slice(0, 20).forEach((x) => visit(x, d));
        const o = v as Record<string, unknown>;
        if (!out.headline && typeof o.headline === "string") out.headline = squash(o.headline);
        if (!out.name && typeof o.name === "string" && /Article|Posting|Product|WebPage|Recipe|Question|Event|Course|Book|Movie/.test(String(o["@type"] ?? ""))) out.name = squash(o.name);
        if (o["@graph"]) visit(o["@graph"], d + 1);
        if (o.mainEntity) visit(o.mainEntity, d + 1);
      };
      visit(JSON.parse(s.textContent ?? ""), 0);
    } catch {
      /* broken JSON-LD */
    }
  }
  return out;
}

const meta = (doc: Document, sel: string): string => squash(doc.querySelector(sel)?.getAttribute("content") ?? "");

/** The candidates (unique strings) and their feature rows (TITLE_FEATURES order, row-major). */
export function titleCandidates(doc: Document, src: TitleSources): { texts: string[]; rows: Float32Array } {
  const docTitle = squash(doc.title || "");
  const og = meta(doc, 'meta[property="og:title" i]');
  const l = ld(doc);
  const strings = [src.rules, src.readability, docTitle, og, meta(doc, 'meta[name="twitter:title" i]'), src.h1Region, src.h1s[0] ?? "", l.headline, l.name].map((s) => squash(s ?? ""));
  const cands = new Map<string, { from: number; is: number; kinds: number; variants: number }>();
  const add = (text: string, source: number, kind: number): void => {
    const t = squash(text);
    if (t.length < 2 || t.length > 400) return;
    const c = cands.get(t) ?? { from: 0, is: 0, kinds: 0, variants: 0 };
    c.from |= 1 << source;
    if (kind === 0) c.is |= 1 << source;
    c.kinds |= 1 << kind;
    c.variants++;
    cands.set(t, c);
  };
  strings.forEach((s, i) => {
    if (!s) return;
    add(s, i, 0);
    add(withoutSiteName(doc, s), i, 1);
    const parts = s.split(SEPARATOR).map((p) => p.trim()).filter(Boolean);
    if (parts.length > 1) {
      add(parts[0]!, i, 2);
      add(s.slice(0, s.lastIndexOf(parts[parts.length - 1]!)).replace(/[\s|\-\u2013\u2014\u00b7\u2022/\u00bb>~:]+$/, ""), i, 3);
    }
  });
  const low = (s: string): string => s.toLowerCase();
  const h1 = src.h1s[0] ?? "";
  const site = low(meta(doc, 'meta[property="og:site_name" i]'));
  const page = [
    src.h1s.length ? 1 : 0, src.h1s.length, docTitle.split(SEPARATOR).filter(Boolean).length, og && og === docTitle ? 1 : 0,
    h1 && low(docTitle).includes(low(h1)) ? 1 : 0, src.readability && src.readability === og ? 1 : 0, src.rules && src.rules === h1 ? 1 : 0, og ? 1 : 0,
  ];
  const texts = [...cands.keys()];
  const F = TITLE_FEATURES.length;
  const rows = new Float32Array(texts.length * F);
  texts.forEach((t, r) => {
    const c = cands.get(t)!;
    const row = rows.subarray(r * F, (r + 1) * F);
    let k = 0;
    for (let i = 0; i < SOURCES.length; i++) row[k++] = c.from & (1 << i) ? 1 : 0;
    for (let i = 0; i < SOURCES.length; i++) row[k++] = c.is & (1 << i) ? 1 : 0;
    for (let i = 0; i < 4; i++) row[k++] = c.kinds & (1 << i) ? 1 : 0;
    let n = 0;
    for (let i = 0; i < SOURCES.length; i++) if (c.is & (1 << i)) n++;
    row[k++] = n;
    row[k++] = c.variants;
    const lt = low(t);
    row[k++] = Math.log1p(t.length);
    row[k++] = (t.match(/[\p{L}\p{N}]+/gu) ?? []).length;
    row[k++] = SEPARATOR.test(t) ? 1 : 0;
    row[k++] = low(docTitle).startsWith(lt) ? 1 : 0;
    row[k++] = low(docTitle).includes(lt) ? 1 : 0;
    row[k++] = og && low(og).includes(lt) ? 1 : 0;
    row[k++] = h1 && low(h1) === lt ? 1 : 0;
    row[k++] = h1 && low(h1).includes(lt) ? 1 : 0;
    row[k++] = site && site === lt ? 1 : 0;
    for (const v of page) row[k++] = v;
  });
  return { texts, rows };
}
