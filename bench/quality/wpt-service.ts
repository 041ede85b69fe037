// Roles and accessible names through the service: the WPT pages beside the repository
// (../shared/corpora/map/wpt) scored by the corpus's own tool (../shared/tools/eval-map.mjs),
// Sightline's POST /v1/snapshot beside Chromium's own accessibility tree (the tool's
// --reference chromium), in one run on the same pages. bench/quality/wpt-score.mjs scores the
// collector alone.
//
//   pnpm --dir bench exec tsx quality/wpt-service.ts
//
// Needs the built collector bundle (npm run build) and playwright-core in test/ (the tool
// resolves it from its working directory).
import { startRun } from "../lib/results.mjs";
import { besides, COLLECTOR, requireBesides, runTool, withServer } from "./corpus-tools.js";

const corpus = besides("corpora/map/wpt");
requireBesides("wpt-service", besides("tools/eval-map.mjs"), `${corpus}/manifest.json`);
const run = startRun("wpt-service", { title: "Roles and accessible names on the WPT pages, through the service and in Chromium" });

interface Totals {
  role_acc_pct: number | null;
  name_acc_pct: number | null;
  generic_acc_pct: number | null;
  overall_acc_pct: number | null;
}
interface Report {
  totals: Totals;
  groups: Record<string, Totals>;
}

const CHROMIUM = "Chromium's accessibility tree";
const SERVICE = "Sightline (POST /v1/snapshot)";
const reports: Record<string, Report> = {
  [CHROMIUM]: await runTool<Report>("eval-map.mjs", ["--reference", "chromium", "--corpus", corpus]),
  [SERVICE]: await withServer({}, (origin, key) => runTool<Report>("eval-map.mjs", ["--base-url", origin, "--api-key", key, "--collector", COLLECTOR, "--corpus", corpus])),
};
const pct = (x: number | null | undefined) => (typeof x === "number" ? x / 100 : null);
const cells = (t: Totals) => [pct(t.role_acc_pct), pct(t.name_acc_pct), pct(t.generic_acc_pct), pct(t.overall_acc_pct)];
const rows: unknown[][] = [];
for (const [who, r] of Object.entries(reports)) {
  for (const [g, t] of Object.entries(r.groups).sort()) rows.push([who, g, ...cells(t)]);
  rows.push([who, "**all**", ...cells(r.totals)]);
}
run.figure("service_overall", pct(reports[SERVICE].totals.overall_acc_pct));
run.figure("chromium_overall", pct(reports[CHROMIUM].totals.overall_acc_pct));
run.table({
  id: "wpt",
  title: "WPT checks passed, per group: Sightline through the service beside Chromium's own accessibility tree",
  columns: ["who", "group", { label: "role", format: "percent" }, { label: "name", format: "percent" }, { label: "generic", format: "percent" }, { label: "all", format: "percent" }],
  rows,
});
run.write();
