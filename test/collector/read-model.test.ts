// The learned read model's inference (shared/src/collector/read/gbdt.ts, learned.ts): what the
// trainer (shared/read-training/gbdt.mjs) writes is what the page evaluates, a malformed model
// file is refused with a reason (read mode then keeps its rules), and the shipped model names
// only features the page computes. Plain functions, no DOM: run in Node.
import { describe, expect, it } from "vitest";
import { checkEnsemble, columns, margins, sigmoid, softmax } from "../../shared/src/collector/read/gbdt.js";
import { blockProbs, loadReadModel, pageTypeProbs } from "../../shared/src/collector/read/learned.js";
import { BLOCK_FEATURES } from "../../shared/src/collector/read/block-features.js";
import { PAGE_FEATURES } from "../../shared/src/collector/read/page-features.js";
import { TITLE_FEATURES } from "../../shared/src/collector/read/title-choice.js";
import { READ_MODEL } from "../../shared/src/collector/read/read-model.js";
import { packEnsemble, predict, train } from "../../shared/read-training/gbdt.mjs";

/** A small problem with an interaction no single split solves: y = (a > 0.5) xor (b > 0.3). */
function xorData(n: number) {
  const F = 3;
  const X = new Float32Array(n * F);
  const y = new Float32Array(n);
  let s = 7;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < n; i++) {
    const a = rand(), b = rand(), noise = rand();
    X.set([a, b, noise], i * F);
    y[i] = a > 0.5 !== b > 0.3 ? 1 : 0;
  }
  return { X, y, F, w: new Float32Array(n).fill(1) };
}

describe("read model inference", () => {
  it("evaluates the trainer's trees as the trainer does, and learns an interaction", () => {
    const { X, y, F, w } = xorData(2000);
    const model = train(X, 2000, F, y, w, 1, { trees: 30, maxDepth: 3, eta: 0.3, subsample: 1, featureFraction: 1 });
    const ens = checkEnsemble({ features: ["a", "b", "noise"], ...model });
    const cols = columns(ens, ["noise", "a", "b"]); // the page's rows may order features differently
    const { X: T } = xorData(500);
    const reordered = new Float32Array(T.length);
    for (let i = 0; i < 500; i++) reordered.set([T[i * F + 2]!, T[i * F]!, T[i * F + 1]!], i * F);
    const mine = margins(ens, reordered, 500, F, cols);
    const theirs = predict(model, T, 500, F);
    for (let i = 0; i < 500; i++) expect(mine[i]).toBeCloseTo(theirs[i]!, 9);
    let right = 0;
    for (let i = 0; i < 500; i++) if ((sigmoid(mine[i]!) >= 0.5) === (T[i * F]! > 0.5 !== T[i * F + 1]! > 0.3)) right++;
    expect(right / 500).toBeGreaterThan(0.95);
  });

  it("reads a packed model file (the shipped form) as the trees it was packed from", () => {
    const { X, y, F, w } = xorData(1000);
    const model = train(X, 1000, F, y, w, 1, { trees: 20, maxDepth: 4, eta: 0.3, subsample: 1, featureFraction: 1 });
    const packed = JSON.parse(JSON.stringify(packEnsemble(model, ["a", "b", "noise"])));
    expect(typeof packed.packed).toBe("string");
    const ens = checkEnsemble(packed);
    const mine = margins(ens, X, 1000, F, columns(ens, ["a", "b", "noise"]));
    const theirs = predict(model, X, 1000, F);
    // leaves are stored to 1/8192: at most half of that off per tree
    for (let i = 0; i < 1000; i++) expect(Math.abs(mine[i]! - theirs[i]!)).toBeLessThan((20 * 0.5) / 8192 + 1e-9);
    expect(() => checkEnsemble({ ...packed, packed: packed.packed.slice(0, 8) })).toThrow(/cut short/);
  });

  it("adds a K-class ensemble's trees round-robin into class margins", () => {
    const leaf = (v: number) => ({ f: [0], t: [0.5], l: [-1], r: [-2], v: [v, -v] });
    const ens = checkEnsemble({ features: ["x"], classes: 3, base: [0, 0, 0], trees: [leaf(1), leaf(2), leaf(3), leaf(10)] });
    const m = margins(ens, Float32Array.from([0.2, 0.9]), 2, 1, columns(ens, ["x"]));
    expect(Array.from(m)).toEqual([11, 2, 3, -11, -2, -3]);
    const p = softmax(m.subarray(0, 3));
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[0]).toBeGreaterThan(p[2]!);
  });

  it("refuses malformed model files with a reason", () => {
    expect(() => checkEnsemble({ features: ["x"], base: [0], trees: [{ f: [1], t: [0], l: [-1], r: [-2], v: [0, 0] }] })).toThrow(/malformed tree/);
    expect(() => checkEnsemble({ features: ["x"], base: [0], trees: [{ f: [0], t: [0], l: [0], r: [-2], v: [0, 0] }] })).toThrow(/malformed tree/); // a cycle
    expect(() => checkEnsemble({ features: ["x"], classes: 2, base: [0], trees: [] })).toThrow(/one value per class/);
    expect(() => columns(checkEnsemble({ features: ["nope"], base: [0], trees: [] }), ["x"])).toThrow(/unknown feature nope/);
    expect(() => loadReadModel({ format: "other" })).toThrow(/unknown format/);
  });

  it("a model file as train.mjs writes it loads against the features the page computes; the shipped file is one or empty", () => {
    const stump = (names: readonly string[], k: number) => {
      const F = names.length;
      const X = new Float32Array(40 * F);
      for (let i = 0; i < 40; i++) X[i * F] = i;
      const y = Float32Array.from({ length: 40 }, (_, i) => (k > 1 ? i % k : i < 20 ? 0 : 1));
      return packEnsemble(train(X, 40, F, y, new Float32Array(40).fill(1), k, { trees: k * 2, maxDepth: 2, subsample: 1, featureFraction: 1, minChildHess: 0.01 }), [...names]);
    };
    const file = { format: "sightline-read-gbdt/1", types: stump(PAGE_FEATURES, 7), blocks: stump(BLOCK_FEATURES, 1), titles: stump(TITLE_FEATURES, 1), threshold: 0.5, guard: 0.7 };
    const m = loadReadModel(JSON.parse(JSON.stringify(file)));
    expect(m.model.types.classes).toBe(7);
    expect(m.titleCols).not.toBeNull();
    // the packed trees are what the page evaluates: a row on either side of the split differs
    const rows = new Float32Array(2 * BLOCK_FEATURES.length);
    rows[0] = 0; // first feature, as in stump()
    rows[BLOCK_FEATURES.length] = 39;
    const p = blockProbs(m, rows, 2);
    expect(p[0]!).toBeLessThan(0.5);
    expect(p[1]!).toBeGreaterThan(0.5);
    const t0 = pageTypeProbs(m, Float32Array.from(PAGE_FEATURES, (_, i) => (i === 0 ? 0 : 0)));
    const t1 = pageTypeProbs(m, Float32Array.from(PAGE_FEATURES, (_, i) => (i === 0 ? 39 : 0)));
    expect(t0).not.toEqual(t1);
    expect(() => loadReadModel({ ...file, blocks: { ...file.blocks, features: ["not_a_feature"] } })).toThrow(/unknown feature not_a_feature/);
    // read-model.ts holds either no model (read() is the rules) or one that loads
    if (READ_MODEL) expect(() => loadReadModel(JSON.parse(READ_MODEL))).not.toThrow();
    else expect(READ_MODEL).toBe("");
  });
});
