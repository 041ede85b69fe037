// Inference of the gradient-boosted trees shipped with read mode (trained by
// shared/read-training/train.mjs): no DOM, no dependencies, a few array reads per tree.
//
// A model file holds ensembles of binary trees, each as parallel arrays: node i splits on
// feature f[i] at threshold t[i] (x <= t goes left); l[i] / r[i] are child node indexes, or
// ~k (negative) for leaf k with value v[k]. A K-class ensemble lists its trees round-robin
// (tree j adds to class j % K). The margin of a class is base + the sum of its trees' leaves.
//
// Shipped files pack the trees (unpack()): per feature, the sorted thresholds its splits use;
// then every tree in preorder, two little-endian 16-bit words a node: an internal node is
// (feature + 1, index of its threshold), a leaf (0, value / leafScale as a signed integer),
// in base64. About 4 bytes a node instead of 20 characters of JSON.

export interface Tree {
  f: number[];
  t: number[];
  l: number[];
  r: number[];
  v: number[];
}

export interface Ensemble {
  /** Feature names, in the order the trees' feature indexes refer to. */
  features: string[];
  /** Classes (1: a binary model whose margin is the log-odds). */
  classes: number;
  base: number[];
  trees: Tree[];
}

function validTree(t: Tree, nf: number): boolean {
  const n = t.f.length;
  if (t.t.length !== n || t.l.length !== n || t.r.length !== n || !t.v.length) return false;
  for (let i = 0; i < n; i++) {
    if (!(t.f[i]! >= 0 && t.f[i]! < nf) || Number.isNaN(t.t[i]!)) return false;
    for (const c of [t.l[i]!, t.r[i]!]) if (c >= 0 ? c <= i || c >= n : ~c >= t.v.length) return false;
  }
  return t.v.every(Number.isFinite);
}

export interface PackedEnsemble {
  features: string[];
  classes: number;
  base: number[];
  thresholds: number[][];
  leafScale: number;
  trees: number;
  packed: string;
}

/** The trees of a packed ensemble as arrays; throws when the packing is broken. */
export function unpack(p: PackedEnsemble): Ensemble {
  const bin = atob(p.packed);
  const words = new Uint16Array(bin.length >> 1);
  for (let i = 0; i < words.length; i++) words[i] = bin.charCodeAt(2 * i) | (bin.charCodeAt(2 * i + 1) << 8);
  let at = 0;
  const trees: Tree[] = [];
  for (let k = 0; k < p.trees; k++) {
    const t: Tree = { f: [], t: [], l: [], r: [], v: [] };
    const node = (): number => {
      if (at + 1 >= words.length) throw new Error("read model: packed trees cut short");
      const a = words[at++]!, b = words[at++]!;
      if (a === 0) {
        t.v.push(((b << 16) >> 16) * p.leafScale);
        return ~(t.v.length - 1);
      }
      const i = t.f.length;
      const thr = p.thresholds[a - 1]?.[b];
      if (thr === undefined) throw new Error("read model: packed threshold missing");
      t.f.push(a - 1);
      t.t.push(thr);
      t.l.push(0);
      t.r.push(0);
      t.l[i] = node();
      t.r[i] = node();
      return i;
    };
    const root = node();
    if (root < 0) {
      // a lone leaf: a stump that sends everything left
      t.f.push(0); t.t.push(Infinity); t.l.push(root); t.r.push(root);
    }
    trees.push(t);
  }
  return { features: p.features, classes: p.classes, base: p.base, trees };
}

/** Throws with a reason when `e` is not a usable ensemble (a malformed model file). */
export function checkEnsemble(e: unknown): Ensemble {
  if (e && typeof (e as Partial<PackedEnsemble>).packed === "string") e = unpack(e as PackedEnsemble);
  const m = e as Partial<Ensemble> | null;
  if (!m || !Array.isArray(m.features) || !Array.isArray(m.trees) || !Array.isArray(m.base)) throw new Error("read model: ensemble missing");
  const k = m.classes ?? 1;
  if (!(k >= 1) || m.base.length !== k) throw new Error("read model: base must have one value per class");
  for (const t of m.trees) if (!validTree(t, m.features.length)) throw new Error("read model: malformed tree");
  return m as Ensemble;
}

/**
 * Column of each of the ensemble's features in rows laid out by `names`; throws when the rows
 * lack a feature the model needs.
 */
export function columns(e: Ensemble, names: readonly string[]): Int32Array {
  const index = new Map(names.map((n, i) => [n, i]));
  return Int32Array.from(e.features, (f) => {
    const i = index.get(f);
    if (i === undefined) throw new Error(`read model: unknown feature ${f}`);
    return i;
  });
}

/**
 * Margins of `n` rows of `width` values (row-major), `cols` from columns(): one per row and
 * class (row-major too).
 */
export function margins(e: Ensemble, rows: ArrayLike<number>, n: number, width: number, cols: Int32Array): Float64Array {
  const k = e.classes;
  const out = new Float64Array(n * k);
  for (let r = 0; r < n; r++) {
    const o = r * width;
    for (let c = 0; c < k; c++) out[r * k + c] = e.base[c]!;
    for (let j = 0; j < e.trees.length; j++) {
      const t = e.trees[j]!;
      let i = 0;
      for (;;) {
        const next: number = rows[o + cols[t.f[i]!]!]! <= t.t[i]! ? t.l[i]! : t.r[i]!;
        if (next < 0) {
          out[r * k + (j % k)] += t.v[~next]!;
          break;
        }
        i = next;
      }
    }
  }
  return out;
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Class probabilities from one row's K margins. */
export function softmax(m: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < m.length; i++) max = Math.max(max, m[i]!);
  const e = Array.from(m, (x) => Math.exp(x - max));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
