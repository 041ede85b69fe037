// Trains the learned read model (npm run train:read) from collect.mjs's cache and writes
// shared/src/collector/read/read-model.ts: a page-type model (7 WCXB types, softmax trees over
// the page's features) and a block model (main content or not, logistic trees over each
// block's features, the page-type probabilities among them).
//
// Splits by site (split.mjs): settings are chosen on `choose` with models fitted on `train`;
// the shipped model is fitted on train + choose with those settings and measured once on
// `report`, in aggregate only (never page by page), with bootstrap intervals over sites.
// The page-type probabilities a block model is trained with are out-of-fold (five folds by
// site), as the page-type model will be on a page it has not seen.
//
//   node shared/read-training/train.mjs [--cache /tmp/sightline-read] [--trees 300] [--depth 6]
//        [--eta 0.1] [--threshold 0.5] [--grid t:d:eta,...] [--drop feature,prefix*,...]
//        [--final] [--write] [--report-out FILE]
// Without --final: fitted on train, scored on choose (per corpus and page type).
// --final: fitted on train + choose, scored on report; --write writes the model file.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { loadData } from "./data.mjs";
import { packEnsemble, predict, train } from "./gbdt.mjs";
import { startRun } from "../../bench/lib/results.mjs";
import { aebAggregate, aebPage, bootstrap, pairedBootstrap, wordAggregate, wordPage } from "./score.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : i >= 0 ? "true" : dflt;
};
const cache = resolve(opt("cache", join(tmpdir(), "sightline-read")));
const FINAL = opt("final", "false") === "true";
export const TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"];
const params = {
  trees: Number(opt("trees", "300")), maxDepth: Number(opt("depth", "6")), eta: Number(opt("eta", "0.1")),
  lambda: Number(opt("lambda", "1")), minChildHess: Number(opt("min-child", "1")), subsample: Number(opt("subsample", "0.7")),
  featureFraction: Number(opt("feature-fraction", "0.8")),
};
const typeParams = { trees: Number(opt("type-trees", "60")), maxDepth: 4, eta: 0.15, lambda: 1, minChildHess: 0.5, subsample: 0.8, featureFraction: 0.8 };
const threshold = Number(opt("threshold", "0.5"));
const weightPower = Number(opt("weight-power", "1"));

const t0 = Date.now();
const { pages, names, pageNames } = loadData(cache);
const F = names.length, PF = pageNames.length;
console.error(`loaded ${pages.length} pages, ${pages.reduce((s, p) => s + p.r.blocks.length, 0)} blocks in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

// --drop: features the models may not use (set to 0 everywhere: what an ablation of a rule's marks measures)
const dropSpec = (opt("drop", "") || "").split(",").filter(Boolean);
const dropped = names.map((n) => dropSpec.some((d) => (d.endsWith("*") ? n.startsWith(d.slice(0, -1)) : n === d)));
const pageDropped = pageNames.map((n) => dropSpec.some((d) => (d.endsWith("*") ? `page:${n}`.startsWith(d.slice(0, -1)) : `page:${n}` === d)));
const typeCol = TYPES.map((t) => names.indexOf(`type_${t}`));

const fit = FINAL ? pages.filter((p) => p.part !== "report") : pages.filter((p) => p.part === "train");
const test = FINAL ? pages.filter((p) => p.part === "report") : pages.filter((p) => p.part === "choose");

// ------------------------------------------------------------------ page types
const typed = (ps) => ps.filter((p) => TYPES.includes(p.type) && p.corpus !== "readability");
function typeMatrix(ps) {
  const X = new Float32Array(ps.length * PF);
  ps.forEach((p, i) => {
    for (let k = 0; k < PF; k++) X[i * PF + k] = pageDropped[k] ? 0 : p.r.pageRow[k];
  });
  return X;
}
function trainTypes(ps) {
  const X = typeMatrix(ps);
  // pages weighted so that each type counts alike (articles are half the pages)
  const n = new Map();
  for (const p of ps) n.set(p.type, (n.get(p.type) ?? 0) + 1);
  const w = Float64Array.from(ps, (p) => ps.length / (TYPES.length * n.get(p.type)));
  return train(X, ps.length, PF, Int32Array.from(ps, (p) => TYPES.indexOf(p.type)), w, TYPES.length, typeParams);
}
function typeProbs(model, ps) {
  const m = predict(model, typeMatrix(ps), ps.length, PF);
  return ps.map((_, i) => {
    const row = Array.from(m.subarray(i * TYPES.length, (i + 1) * TYPES.length));
    const mx = Math.max(...row);
    const e = row.map((x) => Math.exp(x - mx));
    const s = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / s);
  });
}
const fold = (site) => parseInt(createHash("sha256").update(`fold/${site}`).digest("hex").slice(0, 8), 16) % 5;
const probsOf = new Map();
const typeFigures = [];
const titleFigures = [];
{
  const tp = typed(fit);
  for (let f = 0; f < 5; f++) {
    const m = trainTypes(tp.filter((p) => fold(p.site) !== f));
    const held = fit.filter((p) => fold(p.site) === f);
    typeProbs(m, held).forEach((pr, i) => probsOf.set(held[i], pr));
  }
}
const typeModel = trainTypes(typed(fit));
typeProbs(typeModel, test).forEach((pr, i) => probsOf.set(test[i], pr));
{
  const t = typed(test).filter((p) => p.corpus === "wcxb-dev");
  const arg = (pr) => pr.indexOf(Math.max(...pr));
  const ok = t.filter((p) => TYPES[arg(probsOf.get(p))] === p.type).length;
  const per = TYPES.map((ty) => {
    const ps = t.filter((p) => p.type === ty);
    return `${ty} ${ps.filter((p) => TYPES[arg(probsOf.get(p))] === ty).length}/${ps.length}`;
  });
  typeFigures.push(["all", t.length, ok / t.length], ...TYPES.map((ty) => {
    const ps = t.filter((p) => p.type === ty);
    return [ty, ps.length, ps.length ? ps.filter((p) => TYPES[arg(probsOf.get(p))] === ty).length / ps.length : null];
  }));
  console.log(`page type (${FINAL ? "report" : "choose"}, wcxb-dev): ${ok}/${t.length} = ${(ok / t.length).toFixed(3)}; ${per.join(", ")}`);
}

// ------------------------------------------------------------------ titles
const normTitle = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
const titled = (ps) => ps.filter((p) => p.title && p.r.titles?.texts?.length);
let titleNames = null;
function titleData(ps) {
  let n = 0;
  for (const p of ps) n += p.r.titles.texts.length;
  const TF = titleNames.length;
  const X = new Float32Array(n * TF), y = new Float32Array(n), w = new Float32Array(n);
  let r = 0;
  for (const p of ps) {
    const t = p.r.titles;
    const m = t.texts.length;
    X.set(t.rows, r * TF);
    for (let i = 0; i < m; i++) {
      y[r + i] = normTitle(t.texts[i]) === normTitle(p.title) ? 1 : 0;
      w[r + i] = 1 / m; // each page counts once
    }
    r += m;
  }
  return { X, y, w, n };
}
let titleModel = null;
{
  const tf = titled(fit);
  titleNames = tf[0]?.r.titleFeatures ?? null;
  if (titleNames && tf.length > 20) {
    const d = titleData(tf);
    titleModel = train(d.X, d.n, titleNames.length, d.y, d.w, 1, { trees: 80, maxDepth: 4, eta: 0.15, lambda: 1, minChildHess: 0.05, subsample: 0.8, featureFraction: 0.8 });
    const pick = (p) => {
      const t = p.r.titles;
      const m = predict(titleModel, t.rows, t.texts.length, titleNames.length);
      let b = 0;
      for (let i = 1; i < m.length; i++) if (m[i] > m[b]) b = i;
      return t.texts[b];
    };
    for (const corpus of ["wcxb-dev", "readability"]) {
      const ts = titled(test).filter((p) => p.corpus === corpus);
      const ok = ts.filter((p) => normTitle(pick(p)) === normTitle(p.title)).length;
      const rules = ts.filter((p) => normTitle(p.r.current.title) === normTitle(p.title)).length;
      const any = ts.filter((p) => p.r.titles.texts.some((x) => normTitle(x) === normTitle(p.title))).length;
      titleFigures.push([corpus, ts.length, ok / ts.length, rules / ts.length, any / ts.length]);
      console.log(`titles (${FINAL ? "report" : "choose"}, ${corpus}): chooser ${ok}/${ts.length} = ${(ok / ts.length).toFixed(3)}, rules ${(rules / ts.length).toFixed(3)}, among the candidates ${(any / ts.length).toFixed(3)} (trained on ${tf.length} pages)`);
    }
  }
}

// ------------------------------------------------------------------ blocks
/**
 * Training rows: every labelled block, except that blocks of one or two words (menus are made
 * of them) are sampled at SMALL_KEEP and weighted up to match: they weigh little (by tokens)
 * and are a third of the rows.
 */
const SMALL_KEEP = Number(opt("small-keep", "0.35"));
const sampled = (p, i) => {
  if (p.tokenCounts[i] > 2) return true;
  const h = parseInt(createHash("md5").update(`${p.corpus}/${p.id}/${i}`).digest("hex").slice(0, 8), 16) / 4294967296;
  return h < SMALL_KEEP;
};
function blockMatrix(ps, labelled) {
  const use = (p, i) => !labelled || (p.labels[i] !== null && p.tokenCounts[i] > 0 && sampled(p, i));
  let n = 0;
  for (const p of ps) for (let i = 0; i < p.r.blocks.length; i++) if (use(p, i)) n++;
  const X = new Float32Array(n * F), y = new Float32Array(n), w = new Float32Array(n);
  let r = 0;
  for (const p of ps) {
    const pr = probsOf.get(p) ?? TYPES.map(() => 0);
    const pageTokens = p.tokenCounts.reduce((a, b) => a + b, 0) || 1;
    for (let i = 0; i < p.r.blocks.length; i++) {
      if (!use(p, i)) continue;
      const o = r * F;
      X.set(p.r.rows.subarray(i * F, (i + 1) * F), o);
      for (let k = 0; k < TYPES.length; k++) X[o + typeCol[k]] = pr[k];
      for (let k = 0; k < F; k++) if (dropped[k]) X[o + k] = 0;
      if (labelled) {
        y[r] = p.labels[i];
        w[r] = (p.tokenCounts[i] / Math.pow(pageTokens, weightPower)) * (p.tokenCounts[i] > 2 ? 1 : 1 / SMALL_KEEP);
      }
      r++;
    }
  }
  if (labelled) {
    let s = 0;
    for (let i = 0; i < n; i++) s += w[i];
    for (let i = 0; i < n; i++) w[i] *= n / s;
  }
  return { X, y, w, n };
}

/** The text a page reads as when the blocks with probability >= thr are kept. */
function keptText(p, probs, thr) {
  const parts = [];
  for (let i = 0; i < p.r.blocks.length; i++) if (probs[i] >= thr) parts.push(p.r.blocks[i].text);
  return parts.join("\n");
}
function pageProbs(model, p) {
  const { X, n } = blockMatrix([p], false);
  const m = predict(model, X, n, F);
  return Float64Array.from(m, (x) => 1 / (1 + Math.exp(-x)));
}

const score = (p, text) => (p.corpus === "aeb" ? aebPage(p.truth, text) : wordPage(p.truth, text));
const agg = (corpus) => (corpus === "aeb" ? (ms) => aebAggregate(ms).f1 : (ms) => wordAggregate(ms).f1);
const groupsOf = (ps) => {
  const g = [["AEB", ps.filter((p) => p.corpus === "aeb"), "aeb"], ["wcxb-dev", ps.filter((p) => p.corpus === "wcxb-dev"), "wcxb"]];
  for (const t of TYPES) g.push([`  ${t}`, ps.filter((p) => p.corpus === "wcxb-dev" && p.type === t), "wcxb"]);
  return g;
};

/** Figures of the model against the rules (today's read()) and the labels' ceiling on `ps`. */
/**
 * The model's text, unless it keeps under `guard` of the rules' characters: then the rules'
 * (read.ts's arbitration: a model that drops most of what the rules keep is more often wrong
 * than they are).
 */
const IN_RULES = names.indexOf("in_rules");
function arbitrated(p, probs, thr, guard) {
  // guard < 0: the model only takes blocks out of the rules' content (probability under -guard)
  if (guard < 0) {
    const parts = [];
    for (let i = 0; i < p.r.blocks.length; i++) if (p.r.rows[i * F + IN_RULES] === 1 && probs[i] >= -guard) parts.push(p.r.blocks[i].text);
    return parts.join("\n");
  }
  const text = keptText(p, probs, thr);
  const len = (t) => t.replace(/\s+/g, " ").trim().length;
  return guard > 0 && len(text) < guard * len(p.r.current.text) ? p.r.current.text : text;
}
const GUARD = Number(opt("guard", "0"));
function evaluate(model, ps, thr, { ci = false, guard = GUARD } = {}) {
  const rows = [];
  const scored = ps.filter((p) => p.truth != null).map((p) => {
    const probs = pageProbs(model, p);
    const oracle = Float64Array.from(p.labels, (l) => (l ?? 0) >= 0.5 ? 1 : 0);
    return { p, site: p.site, model: score(p, arbitrated(p, probs, thr, guard)), rules: score(p, p.r.current.text), oracle: score(p, keptText(p, oracle, 0.5)) };
  });
  const out = {};
  for (const [label, group, kind] of groupsOf(ps)) {
    const s = scored.filter((x) => group.includes(x.p));
    if (!s.length) continue;
    const a = kind === "aeb" ? (ms) => aebAggregate(ms).f1 : (ms) => wordAggregate(ms).f1;
    const fig = { n: s.length, model: a(s.map((x) => x.model)), rules: a(s.map((x) => x.rules)), oracle: a(s.map((x) => x.oracle)) };
    if (ci) {
      fig.model_ci = bootstrap(s.map((x) => ({ site: x.site, m: x.model })), a);
      fig.rules_ci = bootstrap(s.map((x) => ({ site: x.site, m: x.rules })), a);
      fig.diff_ci = pairedBootstrap(s.map((x) => ({ site: x.site, a: x.model, b: x.rules })), a);
    }
    out[label.trim()] = fig;
    const c = (v) => (v ? ` [${v[0].toFixed(3)}, ${v[1].toFixed(3)}]` : "");
    rows.push(`${label.padEnd(16)} ${String(s.length).padStart(4)}  model ${fig.model.toFixed(3)}${c(fig.model_ci)}  rules ${fig.rules.toFixed(3)}${c(fig.rules_ci)}  Δ${c(fig.diff_ci)}  labels' ceiling ${fig.oracle.toFixed(3)}`);
  }
  return { rows, figures: out };
}

function fitBlocks(p) {
  const t1 = Date.now();
  const d = blockMatrix(fit.filter((x) => x.labels), true);
  const model = train(d.X, d.n, F, d.y, d.w, 1, p);
  console.error(`block model: ${d.n} rows × ${F}, ${p.trees} trees depth ${p.maxDepth} in ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  return model;
}

if (opt("titles-only", "false") === "true") process.exit(0);
if (opt("grid", null)) {
  for (const g of opt("grid").split(",")) {
    const [trees, depth, eta] = g.split(":").map(Number);
    const model = fitBlocks({ ...params, trees, maxDepth: depth, eta });
    for (const thr of [0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
      const { figures } = evaluate(model, test, thr);
      console.log(`trees ${trees} depth ${depth} eta ${eta} thr ${thr}: AEB ${figures.AEB?.model.toFixed(4)} wcxb ${figures["wcxb-dev"]?.model.toFixed(4)} (rules ${figures.AEB?.rules.toFixed(4)} / ${figures["wcxb-dev"]?.rules.toFixed(4)})`);
    }
  }
  process.exit(0);
}

const model = fitBlocks(params);
// --eval-trees 100,200: the same model cut at fewer trees, and --thresholds, scored on the test part
if (opt("eval-trees", null) || opt("thresholds", null)) {
  for (const nt of (opt("eval-trees", null) ?? String(params.trees)).split(",").map(Number)) {
    const cut = { ...model, trees: model.trees.slice(0, nt) };
    for (const thr of (opt("thresholds", null) ?? String(threshold)).split(",").map(Number)) for (const guard of (opt("guards", null) ?? String(GUARD)).split(",").map(Number)) {
      const { figures: f } = evaluate(cut, test, thr, { guard });
      console.log(`trees ${nt} thr ${thr} guard ${guard}: AEB ${f.AEB?.model.toFixed(4)} (rules ${f.AEB?.rules.toFixed(4)}) wcxb ${f["wcxb-dev"]?.model.toFixed(4)} (rules ${f["wcxb-dev"]?.rules.toFixed(4)}) ${TYPES.map((t) => `${t} ${f[t]?.model.toFixed(3)}/${f[t]?.rules.toFixed(3)}`).join(" ")}`);
    }
  }
}
const ev = evaluate(model, test, threshold, { ci: FINAL });
console.log(`${FINAL ? "report (fitted on train + choose)" : "choose (fitted on train)"}, threshold ${threshold}${dropSpec.length ? `, without ${dropSpec.join(",")}` : ""}:`);
for (const r of ev.rows) console.log(r);
// --results: the report part's figures as a bench results file (bench/results/read-model.json,
// into docs/quality.md by bench/report.mjs): the model alone and with each --result-guards
// arbitration, beside the rules (today's read()) on the same pages.
if (opt("results", "false") === "true") {
  const run = startRun("read-model", { title: "Learned read model on held-out sites (offline, from the render cache)", quick: false });
  const fmtCi = (v, ci) => `${v.toFixed(3)} [${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]`;
  const sign = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
  for (const guard of (opt("result-guards", null) ?? String(GUARD)).split(",").map(Number)) {
    const e = evaluate(model, test, threshold, { ci: true, guard });
    const rows = Object.entries(e.figures).map(([k, f]) => [k, f.n, fmtCi(f.model, f.model_ci), fmtCi(f.rules, f.rules_ci), `[${sign(f.diff_ci[0])}, ${sign(f.diff_ci[1])}]`, f.oracle]);
    const how = guard === 0 ? "the model alone" : guard < 0 ? `the model only taking blocks out of the rules' content (probability under ${-guard})` : `the model unless it keeps under ${guard} of the rules' characters`;
    run.table({
      id: `model-${String(guard).replace(/[^0-9a-z]/gi, "_")}`,
      title: `${FINAL ? "Report" : "Choose"} part: ${how}`,
      columns: ["pages of", { label: "pages", format: "int" }, "model F1 [95%]", "rules (today's read()) F1 [95%]", "model − rules [95%]", { label: "labels' ceiling", format: "fixed3" }],
      rows,
      note: "Offline: each block's verdict applied to its text in the render cache (collect.mjs), scored as read-eval does (AEB 4-gram shingles, wcxb-dev words, per page). Intervals: 1,000 bootstrap rounds over sites. Labels' ceiling: the blocks the labels call main content, the best a block choice can score.",
    });
  }
  run.table({ id: "titles", title: "Titles: exact match of the learned chooser and of the rules (today's read())", columns: ["corpus", { label: "pages", format: "int" }, { label: "chooser", format: "percent" }, { label: "rules", format: "percent" }, { label: "among the candidates", format: "percent" }], rows: titleFigures });
  run.table({ id: "page-types", title: "Page-type model: agreement with wcxb-dev's types", columns: ["type", { label: "pages", format: "int" }, { label: "agrees", format: "percent" }], rows: typeFigures });
  run.note(`Fitted on ${fit.length} pages (${FINAL ? "train + choose" : "train"}); ${test.length} pages of held-out sites scored; ${params.trees} trees of depth ${params.maxDepth}, threshold ${threshold}.`);
  run.write();
}
if (opt("report-out", null)) writeFileSync(resolve(opt("report-out")), JSON.stringify({ part: FINAL ? "report" : "choose", params, threshold, dropped: dropSpec, figures: ev.figures }, null, 1));

// feature use (total gain is not kept: split counts)
if (opt("importance", "false") === "true") {
  const c = new Map();
  for (const t of model.trees) for (const f of t.f) c.set(names[f], (c.get(names[f]) ?? 0) + 1);
  console.log([...c.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${k} ${v}`).join(", "));
}

if (opt("write", "false") === "true") {
  if (!FINAL) console.error("warning: writing a model fitted on the train part only (no --final)");
  const used = packEnsemble;
  const file = {
    format: "sightline-read-gbdt/1",
    types: used(typeModel, pageNames),
    blocks: used(model, names),
    threshold,
    ...(titleModel ? { titles: used(titleModel, titleNames) } : {}),
    trained: { by: "shared/read-training/train.mjs", pages: fit.length, parts: FINAL ? "train+choose" : "train", params, type_params: typeParams, weight_power: weightPower, dropped: dropSpec },
  };
  const json = JSON.stringify(file);
  const out = join(here, "..", "src", "collector", "read", "read-model.ts");
  writeFileSync(out, `// Generated by shared/read-training/train.mjs (npm run train:read): the learned read model\n// (learned.ts). Do not edit by hand.\nexport const READ_MODEL = ${JSON.stringify(json)};\n`);
  console.log(`wrote ${out} (${(json.length / 1024).toFixed(0)} KB)`);
}
