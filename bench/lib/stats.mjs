// The few statistics every bench uses, in one place. Plain JavaScript so that both the .mjs
// benches (run by node) and the .ts ones (run by tsx) import it.

/** Sorted copy, ascending. */
const sorted = (xs) => [...xs].sort((a, b) => a - b);

/**
 * The median of `xs` (mean of the two middle values for an even count); NaN when empty.
 * @param {number[]} xs
 * @returns {number}
 */
export function median(xs) {
  if (!xs.length) return NaN;
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The q-quantile of `xs` (0 ≤ q ≤ 1), linear between the two nearest ranks (q = 0.5 is the
 * median, 0.25 the first quartile, 0.95 the 95th percentile); NaN when empty.
 * @param {number[]} xs
 * @param {number} q
 * @returns {number}
 */
export function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = sorted(xs);
  const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  return lo + 1 < s.length ? s[lo] + (s[lo + 1] - s[lo]) * (pos - lo) : s[lo];
}

/**
 * @param {number[]} xs
 * @returns {number}
 */
export function mean(xs) {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/**
 * Median, quartiles, extremes and count of a series of timings.
 * @param {number[]} xs
 * @returns {{ n: number, min: number, q1: number, median: number, q3: number, max: number, mean: number }}
 */
export function summary(xs) {
  return { n: xs.length, min: quantile(xs, 0), q1: quantile(xs, 0.25), median: median(xs), q3: quantile(xs, 0.75), max: quantile(xs, 1), mean: mean(xs) };
}

/**
 * `a / b`, or NaN when b is 0 or either side is not a number: a ratio measured side by side is
 * the figure a bench reports on a shared machine, never an absolute time alone.
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
export function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN;
}

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same numbers in
 * [0, 1), so generated sets and samples are the same on every run.
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
