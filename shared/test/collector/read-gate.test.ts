// The learned read model's gate (learned.ts modelReads): the block model reads a page only when
// the page-type model's probability of an article is under the model file's gate, and the
// page-type model it decides from may not read what the candidates kept (it runs before them).
import { describe, expect, it } from "vitest";
import { keptBlocks, loadReadModel, modelReads } from "../../src/collector/read/learned.js";
import type { Segmentation } from "../../src/collector/read/blocks.js";
import { PAGE_TYPE_CLASSES } from "../../src/collector/read/block-features.js";
import { LATE_PAGE_FEATURES } from "../../src/collector/read/page-features.js";

const stump = (features: string[], classes: number) => ({
  features,
  classes,
  base: Array.from({ length: classes }, () => 0),
  trees: [{ f: [0], t: [0.5], l: [-1], r: [-2], v: [0.1, -0.1] }],
});
const file = (extra: Record<string, unknown> = {}) => ({
  format: "sightline-read-gbdt/1",
  types: stump(["log_text"], PAGE_TYPE_CLASSES.length),
  blocks: stump(["log_chars"], 1),
  threshold: 0.5,
  ...extra,
});
/** Type probabilities with `article` at p and the rest spread evenly. */
const probs = (p: number) => PAGE_TYPE_CLASSES.map((t) => (t === "article" ? p : (1 - p) / (PAGE_TYPE_CLASSES.length - 1)));

describe("the learned read model's gate", () => {
  it("reads a page only when its article probability is under the gate", () => {
    const m = loadReadModel(file({ gate: 0.7 }));
    expect(modelReads(m, probs(0.95))).toBe(false);
    expect(modelReads(m, probs(0.7))).toBe(false);
    expect(modelReads(m, probs(0.69))).toBe(true);
    expect(modelReads(m, probs(0.05))).toBe(true);
  });

  it("reads every page without a gate, and none with a gate of 0", () => {
    const all = loadReadModel(file());
    expect(modelReads(all, probs(0.99))).toBe(true);
    expect(modelReads(loadReadModel(file({ gate: 1 })), probs(0.99))).toBe(true);
    const none = loadReadModel(file({ gate: 0 }));
    expect(modelReads(none, probs(0))).toBe(false);
  });

  it("refuses a gate that is not a probability", () => {
    expect(() => loadReadModel(file({ gate: 1.5 }))).toThrow(/gate must be a probability/);
    expect(() => loadReadModel(file({ gate: "0.5" }))).toThrow(/gate must be a probability/);
  });

  it("with gateTypes, reads only pages whose most probable type is one of them", () => {
    const m = loadReadModel(file({ gate: 0.7, gateTypes: ["collection", "listing", "service"] }));
    const peak = (type: string, p = 0.6) => PAGE_TYPE_CLASSES.map((t) => (t === type ? p : (1 - p) / (PAGE_TYPE_CLASSES.length - 1)));
    expect(modelReads(m, peak("listing"))).toBe(true);
    expect(modelReads(m, peak("service"))).toBe(true);
    expect(modelReads(m, peak("product"))).toBe(false);
    expect(modelReads(m, peak("forum"))).toBe(false);
    expect(modelReads(m, peak("article"))).toBe(false);
    // the gate still holds: a listing-looking page that is as likely an article
    expect(modelReads(m, [0.45, 0, 0, 0, 0.55, 0, 0])).toBe(true);
    expect(modelReads(m, [0.75, 0, 0, 0, 0.25, 0, 0])).toBe(false);
    expect(() => loadReadModel(file({ gateTypes: ["blog"] }))).toThrow(/gateTypes must name page types/);
  });

  it("keeps a block the rules kept down to keepIn, any other from the threshold", () => {
    const seg = { blocks: [10, 10, 10, 10].map((chars) => ({ chars })), totalChars: 40, sub: new Map() } as unknown as Segmentation;
    const probs = [0.3, 0.3, 0.6, 0.1];
    const rules = new Set([0, 3]);
    expect(Array.from(keptBlocks(seg, probs, 0.5, false))).toEqual([0, 0, 1, 0]);
    expect(Array.from(keptBlocks(seg, probs, 0.5, false, rules, 0.2))).toEqual([1, 0, 1, 0]);
    expect(() => loadReadModel(file({ keepIn: -0.1 }))).toThrow(/keepIn must be a probability/);
  });

  it("refuses a page-type model that reads what the candidates kept", () => {
    for (const late of LATE_PAGE_FEATURES) {
      expect(() => loadReadModel(file({ types: stump(["log_text", late], PAGE_TYPE_CLASSES.length) }))).toThrow(new RegExp(`reads ${late}`));
    }
  });
});
