#!/usr/bin/env node
// Leave-one-family-out cross-validation of the goal reranker on our own generated set
// (targets-gen.mjs, 19 task families none of which is in ../shared/corpora/rank): for each family,
// a model is trained on everything else (the synthetic cases, every other generated family, and
// the ranking corpora's captures when given) and scored on that family alone, beside the
// heuristic. The committed model (trained without any generated family) is scored too: for it
// every family is unseen.
//
//   node bench/quality/rank-targets.mjs --jsonl /tmp/sightline-rank/generated.jsonl   (captures the set)
//   node shared/rank-training/collect.mjs --corpus ../shared/corpora/rank/miniwob-dev  (optional: the corpora too)
//   node bench/quality/rank-lofo.mjs --data /tmp/sightline-rank/generated.jsonl[,more.jsonl]
//
// The source held out family by family is the first data file (its name without .jsonl).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { values: opt } = parseArgs({ options: { data: { type: "string" } } });
if (!opt.data) {
  console.error("usage: node bench/quality/rank-lofo.mjs --data generated.jsonl[,corpus.jsonl…]");
  process.exit(2);
}
const files = opt.data.split(",").filter(Boolean);
const heldSource = basename(files[0], ".jsonl");
const run = startRun("rank-lofo", { title: "Goal reranker, leave-one-family-out on the generated set" });
const { evaluate, loadCases, pool, train } = await import(`${root}shared/rank-training/model.mjs`);
const { createLinearReranker } = await import(`${root}shared/dist/rank/index.js`);
// The committed model as the server loads it (its named features laid on today's list).
const committed = createLinearReranker(JSON.parse(readFileSync(`${root}shared/src/rank/model.json`, "utf8")));

const started = Date.now();
const { cases, coverage } = loadCases(files);
console.error(`featurized ${cases.length} cases in ${Date.now() - started} ms; ${JSON.stringify(coverage)}`);
const held = cases.filter((c) => c.source === heldSource);
const families = [...new Set(held.map((c) => c.task))];
// Which families the ranking code was developed against (targets-gen.mjs's split), for the table.
const { generate } = await import("./targets-gen.mjs");
const splitOf = new Map(generate(1, 1).map((c) => [`${heldSource}/${c.family}`, c.split]));

const rows = [];
const per = { dev: [], "held-out": [] };
const perCommitted = { dev: [], "held-out": [] };
for (const fam of families) {
  const t0 = Date.now();
  const test = held.filter((c) => c.task === fam);
  const lofo = evaluate(train(cases.filter((c) => c.task !== fam)), test);
  const com = evaluate(committed, test);
  const split = splitOf.get(fam) ?? "?";
  per[split]?.push(lofo);
  perCommitted[split]?.push(com);
  rows.push([fam.slice(heldSource.length + 1), split, lofo.n, lofo.heuristic_hit1, com.model_hit1, lofo.model_hit1, lofo.model_mrr]);
  console.error(`${fam}: ${JSON.stringify(lofo)} (${Date.now() - t0} ms)`);
}
for (const split of ["dev", "held-out"]) {
  const l = pool(per[split]);
  const c = pool(perCommitted[split]);
  rows.push([`**all ${split}**`, split, l.n, l.heuristic_hit1, c.model_hit1, l.model_hit1, l.model_mrr]);
  run.figure(`lofo_hit1_${split.replace("-", "_")}`, l.model_hit1);
  run.figure(`heuristic_hit1_${split.replace("-", "_")}`, l.heuristic_hit1);
  run.figure(`committed_hit1_${split.replace("-", "_")}`, c.model_hit1);
}
const all = pool([...per.dev, ...per["held-out"]]);
rows.push(["**all families**", "", all.n, all.heuristic_hit1, pool([...perCommitted.dev, ...perCommitted["held-out"]]).model_hit1, all.model_hit1, all.model_mrr]);
run.figure("lofo_hit1_all", all.model_hit1);
run.table({
  id: "lofo",
  title: "Hit@1 per family: the heuristic, the committed model (never trained on this set), and a model trained with every other family (leave-one-family-out)",
  columns: ["family", "split", "cases", { label: "heuristic", format: "percent" }, { label: "committed model", format: "percent" }, { label: "LOFO model", format: "percent" }, { label: "LOFO MRR", format: "auto" }],
  rows,
});
run.note(`Cases whose gold element is among the candidates (records capture): ${held.length} of ${coverage[heldSource].cases}. Training data besides the held-out family: ${Object.keys(coverage).join(", ")} and the synthetic families.`);
run.write();
