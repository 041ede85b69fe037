// Scores a written model file (train.mjs --write --model-out FILE) on one part of the render
// cache, offline, with the page's own inference (shared/dist/collector/read/gbdt.js) and the
// arbitration settings tried side by side: the gate (learned.ts modelReads) and the two
// thresholds (keptBlocks: a block the rules kept stays unless its probability is under
// `keep-in`; a block they left out comes in only at `keep-out` or more).
//
//   node shared/read-training/score-model.mjs --model FILE [--part choose] [--cache DIR]
//        [--gates 0.7] [--keep-in 0.5,0.3,0.2] [--keep-out 0.5,0.7,0.9]
//   node shared/read-training/score-model.mjs --model FILE --set "gate=0.7;keepIn=0.2;trees=40;gateTypes=listing+service" --out FILE
//
// Build first (pnpm --filter @sightline/shared run build: the inference is the page's). The
// report part is refused: it is scored once, in the page, by bench/quality/read-eval.mjs.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { loadData } from "./data.mjs";
import { packEnsemble } from "./gbdt.mjs";
import { aebAggregate, aebPage, wordAggregate, wordPage } from "./score.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { checkEnsemble, columns, margins, sigmoid, softmax } = await import(join(root, "shared/dist/collector/read/gbdt.js"));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : dflt;
};
const part = opt("part", "choose");
if (part === "report") {
  console.error("the report part is scored once, in the page (bench/quality/read-eval.mjs --split report)");
  process.exit(2);
}
const src = readFileSync(resolve(opt("model")), "utf8");
const file = JSON.parse(JSON.parse(/READ_MODEL = (".*");/s.exec(src)[1]));
// --set "gate=0.7;keepIn=0.2" --out FILE: the model file with the arbitration chosen here (the
// trees untouched), without fitting it again.
if (opt("set", null)) {
  // ";" between settings: gateTypes=collection+listing+service; trees=N keeps the block model's first N trees
  for (const kv of opt("set").split(";")) {
    const [k, v] = kv.split("=");
    if (k === "gateTypes") file.gateTypes = v.split("+");
    else if (k === "titles" && v === "off") delete file.titles;
    else if (k === "trees") file.blocks = packEnsemble(cutTrees(checkEnsemble(file.blocks), Number(v)), checkEnsemble(file.blocks).features);
    else if (["gate", "keepIn", "threshold", "guard"].includes(k)) file[k] = Number(v);
    else throw new Error(`--set: not an arbitration setting: ${k}`);
  }
  file.trained = { ...file.trained, arbitration: `set by score-model.mjs --set ${opt("set")} (chosen on the choose part)` };
  const head = src.slice(0, src.indexOf("export const READ_MODEL"));
  writeFileSync(resolve(opt("out")), `${head}export const READ_MODEL = ${JSON.stringify(JSON.stringify(file))};\n`);
  console.log(`wrote ${opt("out")}`);
  process.exit(0);
}
/** The first n trees of an unpacked ensemble, as the trainer's arrays (packEnsemble's input). */
function cutTrees(e, n) {
  // unpack() gives a lone leaf as a stump at +Infinity, which JSON cannot hold: the largest float instead
  return { classes: e.classes, base: e.base, trees: e.trees.slice(0, n).map((t) => ({ ...t, t: t.t.map((x) => (x === Infinity ? 3.4e38 : x)) })) };
}
const types = checkEnsemble(file.types), blocks = checkEnsemble(file.blocks);
const list = (name, dflt) => opt(name, dflt).split(",").map(Number);
const TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"];

const { pages, names, pageNames } = loadData(resolve(opt("cache", join(tmpdir(), "sightline-read"))));
const F = names.length, PF = pageNames.length;
const typeCols = columns(types, pageNames), blockCols = columns(blocks, names);
const typeAt = TYPES.map((t) => names.indexOf(`type_${t}`));
const IN_RULES = names.indexOf("in_rules");
const test = pages.filter((p) => p.part === part && p.truth != null);

// Per page once: type probabilities, block probabilities.
const pre = test.map((p) => {
  const tp = softmax(margins(types, p.r.pageRow, 1, PF, typeCols));
  const n = p.r.blocks.length;
  const rows = Float32Array.from(p.r.rows);
  for (let i = 0; i < n; i++) for (let k = 0; k < TYPES.length; k++) rows[i * F + typeAt[k]] = tp[k];
  const m = margins(blocks, rows, n, F, blockCols);
  return { p, tp, probs: Float64Array.from(m, sigmoid) };
});
const score = (p, text) => (p.corpus === "aeb" ? aebPage(p.truth, text) : wordPage(p.truth, text));
const groups = [["AEB", (p) => p.corpus === "aeb", "aeb"], ["wcxb-dev", (p) => p.corpus === "wcxb-dev", "w"], ...TYPES.map((t) => [t, (p) => p.corpus === "wcxb-dev" && p.type === t, "w"])];
// --types collection,listing,service|all;...: the model reads only pages whose most probable type is one of these
const typeSets = opt("types", "all").split(";").map((t) => (t === "all" ? null : t.split(",")));
const argmax = (xs) => xs.indexOf(Math.max(...xs));
// --results: the settings tried, as a bench results file (bench/results/read-model-choose.json)
const results = opt("results", null) ? [] : null;
for (const ts of typeSets) for (const gate of list("gates", String(file.gate ?? 1))) for (const kin of list("keep-in", String(file.threshold))) for (const kout of list("keep-out", String(file.threshold))) {
  const rows = pre.map(({ p, tp, probs }) => {
    const on = (gate >= 1 || tp[0] < gate) && (!ts || ts.includes(TYPES[argmax(tp)]));
    let text = p.r.current.text;
    if (on) {
      const parts = [];
      for (let i = 0; i < p.r.blocks.length; i++) if (probs[i] >= (p.r.rows[i * F + IN_RULES] === 1 ? kin : kout)) parts.push(p.r.blocks[i].text);
      text = parts.join("\n");
    }
    return { p, on, m: score(p, text), r: score(p, p.r.current.text) };
  });
  const figs = groups.map(([label, f, kind]) => {
    const s = rows.filter((x) => f(x.p));
    if (!s.length) return [label, null, null, 0];
    const a = kind === "aeb" ? (ms) => aebAggregate(ms).f1 : (ms) => wordAggregate(ms).f1;
    return [label, a(s.map((x) => x.m)), a(s.map((x) => x.r)), s.length];
  });
  const cells = figs.map(([label, m, r]) => (m === null ? `${label} -` : `${label} ${m.toFixed(3)}/${r.toFixed(3)}`));
  results?.push([ts ? ts.join(", ") : "all", gate, kin, kout, rows.filter((x) => x.on).length, ...figs.flatMap(([, m]) => [m])]);
  if (results && results.length === 1) results.rules = figs.map(([, , r]) => r);
  console.log(`types ${ts ? ts.join(",") : "all"} gate ${gate} keep-in ${kin} keep-out ${kout} (model on ${rows.filter((x) => x.on).length}/${rows.length}): ${cells.join("  ")}`);
}

if (results) {
  const { startRun } = await import(join(root, "bench/lib/results.mjs"));
  const run = startRun(opt("results"), { title: `Learned read model: arbitration settings on the ${part} part (offline, from the render cache)`, quick: false });
  const labels = groups.map(([l]) => l);
  run.table({
    id: "settings",
    title: `${part[0].toUpperCase()}${part.slice(1)} part: F1 with each arbitration (model fitted on the train part), and the rules (today's read()) on the same pages`,
    columns: ["model reads types", { label: "gate", format: "fixed2" }, { label: "keep-in", format: "fixed2" }, { label: "threshold", format: "fixed2" }, { label: "pages read by the model", format: "int" }, ...labels.map((l) => ({ label: l, format: "fixed3" }))],
    rows: [...results, ["rules (today's read())", null, null, null, 0, ...results.rules]],
    note: `${test.length} pages with ground truth (${labels.map((l, i) => `${l} ${groups[i] ? pre.filter(({ p }) => groups[i][1](p)).length : 0}`).join(", ")}). Gate: the model reads a page only when the page-type model's probability of an article is under it (and, with types, its most probable type is one of them); keep-in: the probability under which a block the rules kept is taken out; threshold: the probability from which any other block is kept. AEB: 4-gram shingles, wcxb-dev: words, per page.`,
  });
  run.note(`Model file: ${opt("model")} (${file.trained?.parts ?? "?"}, ${file.trained?.pages ?? "?"} pages).`);
  run.write();
}
