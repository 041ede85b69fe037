// The read benchmarks' scores (as bench/quality/read-eval.mjs and the corpora's eval-read.mjs
// count them), and bootstrap confidence intervals over sites.
import { tokens } from "./data.mjs";

const counts = (list) => {
  const m = new Map();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** wcxb-dev: lower-cased word multisets; P, R, F1 of one page. */
export function wordPage(truth, pred) {
  const r = tokens(truth), p = tokens(pred);
  if (!r.length) return p.length ? { precision: 0, recall: 0, f1: 0 } : { precision: 1, recall: 1, f1: 1 };
  if (!p.length) return { precision: 0, recall: 0, f1: 0 };
  const rc = counts(r);
  let overlap = 0;
  for (const [k, v] of counts(p)) overlap += Math.min(v, rc.get(k) ?? 0);
  const precision = overlap / p.length, recall = overlap / r.length;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** AEB: per-page 4-gram shingle TP/FP/FN, normalised by their sum (case kept, as AEB does). */
export function aebPage(truth, pred) {
  const sh = (text) => {
    const t = text ? String(text).match(/[\p{L}\p{N}_]+/gu) ?? [] : [];
    const out = [];
    for (let i = 0; i < Math.max(1, t.length - 3); i++) if (t.length) out.push(t.slice(i, i + 4).join("\u0001"));
    return counts(out);
  };
  const a = sh(truth), b = sh(pred);
  let tp = 0, fp = 0, fn = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? 0, y = b.get(k) ?? 0;
    tp += Math.min(x, y);
    fp += Math.max(0, y - x);
    fn += Math.max(0, x - y);
  }
  const s = tp + fp + fn || 1;
  return { tp: tp / s, fp: fp / s, fn: fn / s };
}

/** AEB's corpus figure: P and R averaged over pages, F1 of the two. */
export function aebAggregate(list) {
  const p = mean(list.filter((m) => m.tp + m.fp > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fp))));
  const r = mean(list.filter((m) => m.tp + m.fn > 0).map((m) => (m.fp === 0 && m.fn === 0 ? 1 : m.tp / (m.tp + m.fn))));
  return { f1: (2 * p * r) / (p + r), precision: p, recall: r };
}
export const wordAggregate = (list) => ({ f1: mean(list.map((m) => m.f1)), precision: mean(list.map((m) => m.precision)), recall: mean(list.map((m) => m.recall)) });

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

/**
 * 95% bootstrap interval of an aggregate over pages, resampling sites (pages of one site move
 * together: they share templates). `items`: [{ site, m }], `agg(ms) → number`.
 */
export function bootstrap(items, agg, rounds = 1000, seed = 7) {
  const bySite = new Map();
  for (const it of items) {
    if (!bySite.has(it.site)) bySite.set(it.site, []);
    bySite.get(it.site).push(it.m);
  }
  const sites = [...bySite.values()];
  const rand = rng(seed);
  const vals = [];
  for (let b = 0; b < rounds; b++) {
    const ms = [];
    for (let i = 0; i < sites.length; i++) ms.push(...sites[Math.floor(rand() * sites.length)]);
    vals.push(agg(ms));
  }
  vals.sort((a, b) => a - b);
  return [vals[Math.floor(rounds * 0.025)], vals[Math.floor(rounds * 0.975)]];
}

/**
 * Paired bootstrap of a difference between two readings of the same pages (A − B), sites
 * resampled together for both: its 95% interval.
 */
export function pairedBootstrap(items, agg, rounds = 1000, seed = 7) {
  const bySite = new Map();
  for (const it of items) {
    if (!bySite.has(it.site)) bySite.set(it.site, []);
    bySite.get(it.site).push(it);
  }
  const sites = [...bySite.values()];
  const rand = rng(seed);
  const vals = [];
  for (let b = 0; b < rounds; b++) {
    const a = [], c = [];
    for (let i = 0; i < sites.length; i++) for (const it of sites[Math.floor(rand() * sites.length)]) { a.push(it.a); c.push(it.b); }
    vals.push(agg(a) - agg(c));
  }
  vals.sort((x, y) => x - y);
  return [vals[Math.floor(rounds * 0.025)], vals[Math.floor(rounds * 0.975)]];
}
