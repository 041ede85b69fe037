#!/usr/bin/env node
// Role and accessible-name conformance of the collector itself (no server) on the WPT pages of
// shared/corpora/map/wpt, scored like shared/tools/eval-map.mjs: the raw element of each check
// element is found by identity (the collector's id map), not by geometry, so this isolates
// the collector from the refinement engine. Role = attributes.role, name =
// attributes.accessible_name. Boxless check elements count as failures unless "generic".
//
//   node bench/quality/wpt-score.mjs [--corpus DIR] [--files a,b] [--failures N] [--out FILE]
//
// Build the bundle first: pnpm --filter @sightline/shared run build
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveDir } from "../collector/serve.mjs";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) if (argv[i].startsWith("--")) opt[argv[i].slice(2)] = argv[i + 1]?.startsWith("--") ? "true" : argv[++i];
const corpus = opt.corpus ?? join(root, "../shared/corpora/map/wpt");
if (!existsSync(join(corpus, "manifest.json"))) {
  console.error(`no manifest.json in ${corpus} (use --corpus)`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(corpus, "manifest.json"), "utf8"));
const filters = opt.files ? opt.files.split(",") : null;
const files = manifest.files.filter((f) => !filters || filters.some((s) => f.file.includes(s)));
const bundle = readFileSync(join(root, "shared/dist/collector.js"), "utf8");
// --files picks a few pages while debugging: such a run writes no results file.
if (filters) process.env.BENCH_RESULTS = "0";
const run = startRun("wpt", { title: "Roles and accessible names on the WPT pages, collector alone" });
const LOG_ONLY = new Set(["indeterminate", "SPEC_AMBIGUOUS_LOG_VALUE"]);

const server = await serveDir(corpus);
const origin = server.origin;

const normRole = (r) => (r === "img" ? "image" : (r ?? ""));
const normName = (n) => (n ?? "").replace(/[\t\n\f\r ]+/g, " ").trim();
const browser = await launchChromium();
const totals = {};
const failures = [];
const add = (group, kind, pass) => {
  for (const g of [group, "TOTAL"]) {
    totals[g] ??= { role: [0, 0], label: [0, 0], generic: [0, 0], all: [0, 0] };
    totals[g][kind][0] += pass ? 1 : 0;
    totals[g][kind][1]++;
    totals[g].all[0] += pass ? 1 : 0;
    totals[g].all[1]++;
  }
};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (const f of files) {
    await page.goto(`${origin}/${f.file}`, { waitUntil: "load" });
    await page.addScriptTag({ content: bundle });
    const found = await page.evaluate(
      async ({ specs }) => {
        const body = JSON.parse(await globalThis.sightline.collectJSON());
        const byId = new Map();
        const flat = (list) => {
          for (const e of list) {
            byId.set(e.id, e);
            if (e.iframe_content) flat(e.iframe_content);
          }
        };
        flat(body.raw_elements);
        const ids = globalThis.__sightlineCollectorState__.ids;
        const out = [];
        specs.forEach((spec) => {
          document.querySelectorAll(spec.selector).forEach((el) => {
            const raw = byId.get(ids.get(el));
            out.push({
              kind: spec.kind,
              tag: el.localName,
              testname: el.getAttribute("data-testname"),
              expectedRole: el.getAttribute("data-expectedrole"),
              expectedLabel: el.hasAttribute("data-expectedlabel") ? el.getAttribute("data-expectedlabel") : el.getAttribute("data-expectedname"),
              present: !!raw,
              role: raw?.attributes?.role ?? null,
              name: raw ? (raw.attributes?.accessible_name ?? raw.attributes?.aria_label ?? "") : null,
              html: el.outerHTML.replace(/\s+/g, " ").slice(0, 140),
            });
          });
        });
        return out;
      },
      { specs: f.checks },
    );
    for (const c of found) {
      let kinds = c.kind === "role+label" ? ["role", "label"] : [c.kind];
      if (c.kind === "auto") kinds = [...(c.expectedRole !== null ? ["role"] : []), ...(c.expectedLabel !== null ? ["label"] : [])];
      for (const kind of kinds) {
        const expected = kind === "label" ? (c.expectedLabel ?? "") : kind === "role" ? (c.expectedRole ?? "") : "generic";
        if (LOG_ONLY.has(expected)) continue;
        let pass;
        if (kind === "generic") pass = !c.present || ["generic", "none", ""].includes(normRole(c.role));
        else if (!c.present) pass = false;
        else if (kind === "role") pass = normRole(c.role) === normRole(expected);
        else pass = normName(c.name) === expected;
        add(f.group, kind, pass);
        if (!pass) failures.push({ file: f.file, kind, expected, got: kind === "label" ? c.name : c.role, present: c.present, testname: c.testname, html: c.html });
      }
    }
  }
  await page.close();
} finally {
  await browser.close();
  server.close();
}
const share = ([p, n]) => (n ? p / n : null);
run.table({
  id: "wpt",
  title: "WPT role and name checks passed by the collector alone (no server), per group",
  columns: ["group", { label: "role", format: "percent" }, { label: "name", format: "percent" }, { label: "generic", format: "percent" }, { label: "all", format: "percent" }, { label: "checks", format: "int" }],
  rows: Object.entries(totals).sort(([a], [b]) => (a === "TOTAL") - (b === "TOTAL") || a.localeCompare(b)).map(([g, t]) => [g, share(t.role), share(t.label), share(t.generic), share(t.all), t.all[1]]),
});
for (const [g, t] of Object.entries(totals)) run.figure(`${g.replace(/\W/g, "_")}_all`, share(t.all));
run.write();
const n = Number(opt.failures ?? 0);
for (const x of failures.slice(0, n)) console.log(JSON.stringify(x));
if (opt.out) writeFileSync(opt.out, JSON.stringify({ totals, failures }, null, 1));
