// Read mode through the service: POST /v1/observe (mode "read", text) on the read corpora beside
// the repository, scored by the corpora's own tool (../shared/tools/eval-read.mjs), the path a
// user's request takes (URL in, headless Chromium, collector, server). bench/quality/read-eval.mjs
// measures the collector in the page, side by side with Readability.js and Defuddle; this one
// checks that the service gives the same figures. wcxb-dev is scored in its two parts: the
// tuning part and the held-out part (bench/quality/read-holdout.txt), never looked at page by
// page: only the aggregate goes into the results.
//
//   pnpm --dir bench exec tsx quality/read-service.ts [--sample N]
//
// --sample N: a deterministic N pages of each corpus part (a quick run, said in the results).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startRun } from "../lib/results.mjs";
import { besides, requireBesides, root, runTool, withServer } from "./corpus-tools.js";

const corpora = besides("corpora/read");
requireBesides("read-service", besides("tools/eval-read.mjs"), join(corpora, "aeb"), join(corpora, "wcxb-dev"));
const holdout = join(root, "bench/quality/read-holdout.txt");
const sample = Number(parseArgs({ options: { sample: { type: "string" } } }).values.sample ?? 0);
const run = startRun("read-service", {
  title: "Read mode through the service (POST /v1/observe), scored by eval-read.mjs",
  ...(sample ? { quick: true } : {}),
});

interface Summary {
  n: number;
  f1?: number;
  precision?: number;
  recall?: number;
  title_exact?: number;
  description_exact?: number;
}
interface Report {
  summary: Summary;
  failures?: unknown[];
}

/** [figure id, row label, corpus folder, eval-read arguments] */
const parts: [string, string, string, string[]][] = [
  ["aeb", "AEB", "aeb", []],
  ["wcxb_dev_tuning_part", "wcxb-dev, tuning part", "wcxb-dev", ["--exclude-ids", holdout]],
  ["wcxb_dev_held_out", "wcxb-dev, held out", "wcxb-dev", ["--ids", holdout]],
  ["readability_test_pages", "Readability test pages", "readability", []],
];
const rows: unknown[][] = [];
// The corpus pages are served on loopback, which the service refuses by default (SSRF policy).
await withServer({ SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1" }, async (origin, key) => {
  for (const [id, label, dir, extra] of parts) {
    const args = ["--base-url", origin, "--api-key", key, "--corpus", join(corpora, dir), "--format", "text", "--quiet", ...extra];
    if (sample) args.push("--sample", String(sample));
    const r = await runTool<Report>("eval-read.mjs", args);
    const s = r.summary;
    rows.push([label, s.n, s.f1 ?? null, s.precision ?? null, s.recall ?? null, s.title_exact ?? null, s.description_exact ?? null, r.failures?.length ?? 0]);
    if (s.f1 !== undefined) run.figure(`${id}_f1`, Number(s.f1.toFixed(3)));
    if (s.title_exact !== undefined) run.figure(`${id}_title_exact`, Number(s.title_exact.toFixed(3)));
  }
});
run.table({
  id: "read-service",
  title: "Read mode through POST /v1/observe (text format), scored by the corpora's own eval-read.mjs",
  columns: [
    "corpus",
    { label: "pages", format: "int" },
    { label: "F1", format: "fixed3" },
    { label: "P", format: "fixed3" },
    { label: "R", format: "fixed3" },
    { label: "title exact", format: "percent" },
    { label: "description exact", format: "percent" },
    { label: "failed", format: "int" },
  ],
  rows,
});
run.note("AEB: 4-gram shingles; wcxb-dev: words, averaged over pages; the Readability test pages: title and description exact match. The held-out part of wcxb-dev is scored in aggregate only.");
run.write();
