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
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "@sightline/server";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tool = join(root, "../shared/tools/eval-map.mjs");
const corpus = join(root, "../shared/corpora/map/wpt");
if (!existsSync(tool) || !existsSync(join(corpus, "manifest.json"))) {
  console.error("wpt-service: the WPT corpus and tools beside the repository are missing (see docs/development.md); nothing measured");
  process.exit(2);
}
const run = startRun("wpt-service", { title: "Roles and accessible names on the WPT pages, through the service and in Chromium" });

interface Totals {
  role_acc_pct: number | null;
  name_acc_pct: number | null;
  generic_acc_pct: number | null;
  overall_acc_pct: number | null;
  checks: number;
}
interface Report {
  totals: Totals;
  groups: Record<string, Totals>;
}

function evalMap(args: string[], out: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tool, ...args, "--corpus", corpus, "--out", out], { cwd: join(root, "test"), stdio: ["ignore", "inherit", "inherit"] });
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`eval-map exited ${code}`));
      resolve(JSON.parse(readFileSync(out, "utf8")) as Report);
    });
  });
}

const work = mkdtempSync(join(tmpdir(), "sightline-wpt-"));
const reports: Record<string, Report> = {};
try {
  reports["Chromium's accessibility tree"] = await evalMap(["--reference", "chromium"], join(work, "chromium.json"));
  const dir = mkdtempSync(join(tmpdir(), "sightline-wpt-data-"));
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: dir, logLevel: "silent", rateLimitPerMinute: 0 }, {});
  try {
    const { key } = await server.ledger.createAccount({ credits: 1_000_000 });
    reports["Sightline (POST /v1/snapshot)"] = await evalMap(
      ["--base-url", server.origin, "--api-key", key, "--collector", join(root, "shared/dist/collector.js")],
      join(work, "service.json"),
    );
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const pct = (x: number | null | undefined) => (typeof x === "number" ? x / 100 : null);
const rows: unknown[][] = [];
for (const [who, r] of Object.entries(reports)) {
  for (const [g, t] of Object.entries(r.groups).sort()) rows.push([who, g, pct(t.role_acc_pct), pct(t.name_acc_pct), pct(t.generic_acc_pct), pct(t.overall_acc_pct)]);
  rows.push([who, "**all**", pct(r.totals.role_acc_pct), pct(r.totals.name_acc_pct), pct(r.totals.generic_acc_pct), pct(r.totals.overall_acc_pct)]);
}
run.figure("service_overall", pct(reports["Sightline (POST /v1/snapshot)"].totals.overall_acc_pct));
run.figure("chromium_overall", pct(reports["Chromium's accessibility tree"].totals.overall_acc_pct));
run.table({
  id: "wpt",
  title: "WPT checks passed, per group: Sightline through the service beside Chromium's own accessibility tree",
  columns: ["who", "group", { label: "role", format: "percent" }, { label: "name", format: "percent" }, { label: "generic", format: "percent" }, { label: "all", format: "percent" }],
  rows,
});
run.write();
