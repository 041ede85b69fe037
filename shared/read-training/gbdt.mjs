// A compact trainer of gradient-boosted trees (histogram splits, second-order, depth-wise), for
// the read model: binary logistic loss with soft labels and row weights (the block model), and
// softmax over K classes (the page-type model). Written here because no npm package fits: the
// maintained GBDT libraries are native or WebAssembly builds of XGBoost/LightGBM, and the small
// pure-JS ones (ml-cart, decision-tree) sort rows per split, too slow for 500k blocks. Output:
// the tree arrays shared/src/collector/read/gbdt.ts evaluates.
//
// Features are binned once (quantile edges, at most 63 bins); a node's histogram of gradient
// and hessian sums per bin gives every split's gain in one pass, and a child's histogram is its
// parent's minus its sibling's (only the smaller child is counted).

const BINS = 64; // bin 0 .. 62 for values, edges between them

/** Quantile bin edges per feature from a sample of rows; X is row-major, n × F. */
export function binEdges(X, n, F, maxBins = BINS - 1, sample = 200000) {
  const step = Math.max(1, Math.floor(n / sample));
  const edges = [];
  const vals = new Float64Array(Math.ceil(n / step));
  for (let f = 0; f < F; f++) {
    let m = 0;
    for (let r = 0; r < n; r += step) vals[m++] = X[r * F + f];
    const v = vals.subarray(0, m).sort();
    const e = [];
    for (let b = 1; b < maxBins; b++) {
      const x = v[Math.floor((b * m) / maxBins)];
      if (x !== undefined && (e.length === 0 || x > e[e.length - 1])) e.push(x);
    }
    // Splits test x <= edge: a value equal to the largest edge goes left, anything above right.
    const uniq = e.filter((x, i) => i === 0 || x !== e[i - 1]);
    if (uniq.length && uniq[uniq.length - 1] >= v[m - 1]) uniq.pop();
    edges.push(Float64Array.from(uniq));
  }
  return edges;
}

/** Column-major bin codes (Uint8, n per feature). */
export function binRows(X, n, F, edges) {
  const B = new Uint8Array(n * F);
  for (let f = 0; f < F; f++) {
    const e = edges[f];
    const col = f * n;
    for (let r = 0; r < n; r++) {
      const x = X[r * F + f];
      // the first edge >= x (binary search): bin b holds edges[b-1] < x <= edges[b]
      let lo = 0, hi = e.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (e[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      B[col + r] = lo;
    }
  }
  return B;
}

function histogram(B, n, F, rows, g, h, feats) {
  const H = new Float64Array(F * BINS * 2);
  for (const f of feats) {
    const col = f * n;
    const base = f * BINS * 2;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const b = base + B[col + r] * 2;
      H[b] += g[r];
      H[b + 1] += h[r];
    }
  }
  return H;
}

/**
 * One tree on gradients g and hessians h (per row) over the rows `rows`; returns
 * {f, t, l, r, v} with thresholds as feature values (edges) and leaf values already scaled by
 * the learning rate. `leafOf` (Int32Array, per row) gets each training row's leaf.
 */
function growTree(B, n, F, edges, rows, g, h, p, leafOf) {
  const { maxDepth, lambda, minChildHess, minGain, eta, featureFraction, rand } = p;
  const feats = [];
  for (let f = 0; f < F; f++) if (edges[f].length && (featureFraction >= 1 || rand() < featureFraction)) feats.push(f);
  const tree = { f: [], t: [], l: [], r: [], v: [] };
  const sum = (rs) => {
    let G = 0, Hs = 0;
    for (const r of rs) { G += g[r]; Hs += h[r]; }
    return [G, Hs];
  };
  const leaf = (G, Hs, rs) => {
    const k = tree.v.length;
    tree.v.push(+((-G / (Hs + lambda)) * eta).toPrecision(5));
    for (const r of rs) leafOf[r] = k;
    return ~k;
  };
  // depth-first: returns the node reference (index, or ~leaf)
  const build = (rs, H, G, Hs, depth) => {
    if (depth >= maxDepth || Hs < 2 * minChildHess || rs.length < 2) return leaf(G, Hs, rs);
    let best = null;
    const parentScore = (G * G) / (Hs + lambda);
    for (const f of feats) {
      const base = f * BINS * 2;
      let GL = 0, HL = 0;
      const nb = edges[f].length;
      for (let b = 0; b < nb; b++) {
        GL += H[base + b * 2];
        HL += H[base + b * 2 + 1];
        const GR = G - GL, HR = Hs - HL;
        if (HL < minChildHess || HR < minChildHess) continue;
        const gain = (GL * GL) / (HL + lambda) + (GR * GR) / (HR + lambda) - parentScore;
        if (gain > minGain && (!best || gain > best.gain)) best = { gain, f, b, GL, HL };
      }
    }
    if (!best) return leaf(G, Hs, rs);
    const col = best.f * n;
    const left = [], right = [];
    for (const r of rs) (B[col + r] <= best.b ? left : right).push(r);
    const small = left.length <= right.length ? left : right;
    const Hsmall = histogram(B, n, F, small, g, h, feats);
    const Hbig = new Float64Array(H.length);
    for (let i = 0; i < H.length; i++) Hbig[i] = H[i] - Hsmall[i];
    const [HLh, HRh] = small === left ? [Hsmall, Hbig] : [Hbig, Hsmall];
    const idx = tree.f.length;
    tree.f.push(best.f);
    tree.t.push(+edges[best.f][best.b].toPrecision(6));
    tree.l.push(0);
    tree.r.push(0);
    // A rounded threshold must still split the training rows where the bin did.
    const thr = tree.t[idx];
    if (!(thr >= edges[best.f][best.b] && (best.b + 1 >= edges[best.f].length || thr < edges[best.f][best.b + 1]))) tree.t[idx] = edges[best.f][best.b];
    tree.l[idx] = build(left, HLh, best.GL, best.HL, depth + 1);
    tree.r[idx] = build(right, HRh, G - best.GL, Hs - best.HL, depth + 1);
    return idx;
  };
  const [G, Hs] = sum(rows);
  const H = histogram(B, n, F, rows, g, h, feats);
  const rootRef = build(rows, H, G, Hs, 0);
  if (rootRef < 0) {
    // a single leaf: a stump that sends everything left
    tree.f.push(feats[0] ?? 0);
    tree.t.push(Number.MAX_VALUE);
    tree.l.push(rootRef);
    tree.r.push(rootRef);
  }
  return tree;
}

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

export const DEFAULTS = { trees: 200, maxDepth: 6, eta: 0.1, lambda: 1, minChildHess: 1, minGain: 0, subsample: 0.7, featureFraction: 0.8, seed: 1 };

/** Evaluates a tree on raw row `o` of X (row-major, width F). */
export function treeValue(tree, X, o) {
  let i = 0;
  for (;;) {
    const next = X[o + tree.f[i]] <= tree.t[i] ? tree.l[i] : tree.r[i];
    if (next < 0) return tree.v[~next];
    i = next;
  }
}

/**
 * Trains a K-class (K = 1: binary logistic) ensemble. X: Float32Array row-major n × F; y: soft
 * labels in [0,1] (K = 1) or class indexes (K > 1); w: row weights. `onRound(m, round)` may
 * report validation figures. Returns { classes, base, trees }.
 */
export function train(X, n, F, y, w, K, params = {}) {
  const p = { ...DEFAULTS, ...params };
  const rand = rng(p.seed);
  const edges = p.edges ?? binEdges(X, n, F);
  const B = p.binned ?? binRows(X, n, F, edges);
  const margin = new Float64Array(n * K);
  let base;
  if (K === 1) {
    let sw = 0, sy = 0;
    for (let r = 0; r < n; r++) { sw += w[r]; sy += w[r] * y[r]; }
    const q = Math.min(1 - 1e-6, Math.max(1e-6, sy / sw));
    base = [Math.log(q / (1 - q))];
  } else {
    const c = new Float64Array(K);
    for (let r = 0; r < n; r++) c[y[r]] += w[r];
    const s = c.reduce((a, b) => a + b, 0);
    base = Array.from(c, (x) => Math.log(Math.max(1e-6, x / s)));
  }
  for (let r = 0; r < n; r++) for (let k = 0; k < K; k++) margin[r * K + k] = base[k];
  const g = new Float64Array(n), h = new Float64Array(n);
  const leafOf = new Int32Array(n);
  const trees = [];
  const all = Array.from({ length: n }, (_, i) => i);
  for (let round = 0; round < p.trees; round++) {
    const rows = p.subsample >= 1 ? all : all.filter(() => rand() < p.subsample);
    const probs = K === 1 ? null : new Float64Array(n * K);
    if (K > 1) {
      for (let r = 0; r < n; r++) {
        let mx = -Infinity;
        for (let k = 0; k < K; k++) mx = Math.max(mx, margin[r * K + k]);
        let s = 0;
        for (let k = 0; k < K; k++) s += (probs[r * K + k] = Math.exp(margin[r * K + k] - mx));
        for (let k = 0; k < K; k++) probs[r * K + k] /= s;
      }
    }
    for (let k = 0; k < K; k++) {
      for (let r = 0; r < n; r++) {
        if (K === 1) {
          const q = 1 / (1 + Math.exp(-margin[r]));
          g[r] = w[r] * (q - y[r]);
          h[r] = w[r] * Math.max(q * (1 - q), 1e-6);
        } else {
          const q = probs[r * K + k];
          g[r] = w[r] * (q - (y[r] === k ? 1 : 0));
          h[r] = w[r] * Math.max(2 * q * (1 - q), 1e-6);
        }
      }
      const tree = growTree(B, n, F, edges, rows, g, h, { ...p, rand }, leafOf);
      trees.push(tree);
      // margins of every row (the rows left out of this round's sample too)
      for (let r = 0; r < n; r++) margin[r * K + k] += treeValue(tree, X, r * F);
    }
    p.onRound?.({ classes: K, base, trees }, round);
  }
  return { classes: K, base, trees };
}

/** Margins of rows X (n × F) under an ensemble (features in the same order as X's columns). */
export function predict(model, X, n, F) {
  const K = model.classes;
  const out = new Float64Array(n * K);
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < K; k++) out[r * K + k] = model.base[k];
    for (let j = 0; j < model.trees.length; j++) out[r * K + (j % K)] += treeValue(model.trees[j], X, r * F);
  }
  return out;
}

const LEAF_SCALE = 1 / 8192;
// Packed as shared/src/collector/read/gbdt.ts unpacks it: only the features the trees use,
// renumbered; per feature its sorted thresholds; the trees in preorder, 2 × u16 per node.
export function packEnsemble(m, all) {
  const set = [...new Set(m.trees.flatMap((t) => t.f))].sort((a, b) => a - b);
  const map = new Map(set.map((f, i) => [f, i]));
  const thresholds = set.map(() => new Set());
  for (const t of m.trees) t.f.forEach((f, i) => thresholds[map.get(f)].add(t.t[i]));
  const sorted = thresholds.map((s) => [...s].sort((a, b) => a - b));
  const index = sorted.map((a) => new Map(a.map((x, i) => [x, i])));
  const words = [];
  for (const t of m.trees) {
    const node = (ref) => {
      if (ref < 0) {
        words.push(0, Math.max(-32768, Math.min(32767, Math.round(t.v[~ref] / LEAF_SCALE))) & 0xffff);
        return;
      }
      const f = map.get(t.f[ref]);
      words.push(f + 1, index[f].get(t.t[ref]));
      node(t.l[ref]);
      node(t.r[ref]);
    };
    node(0);
  }
  const bytes = Buffer.alloc(words.length * 2);
  words.forEach((w, i) => bytes.writeUInt16LE(w, i * 2));
  return { features: set.map((f) => all[f]), classes: m.classes, base: m.base.map((x) => +x.toPrecision(6)), thresholds: sorted, leafScale: LEAF_SCALE, trees: m.trees.length, packed: bytes.toString("base64") };
}
