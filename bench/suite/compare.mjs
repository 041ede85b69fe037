#!/usr/bin/env node
// bench/suite: how long `npm test` takes at two commits, side by side in one run.
//
//   node bench/suite/compare.mjs [--base COMMIT] [--head COMMIT]
//
// Each commit is cloned fresh from this repository into a temporary directory and set up the
// way CI does it (install, build, Chromium, extension, PostgreSQL: not timed). Then the test part
// of that commit's own `npm test` script (everything after its setup step) is timed, one commit
// after the other on the same machine. The default base is the last commit before the suite work
// of issue 19 (type-checking moved out of the tests into one step, the 10,000-body fuzz run in
// process), so the figure says what that work saved with the same test files.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startRun } from "../lib/results.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const base = arg("--base", "2d74f36");
const head = arg("--head", "HEAD");

const run = startRun("suite", { title: "How long npm test takes, before and after the suite work" });
const work = mkdtempSync(join(tmpdir(), "sightline-suite-"));

const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** Runs `command` in `cwd` through sh; resolves with its exit code, output and wall seconds. */
function timed(cwd, command) {
  return new Promise((resolve) => {
    const started = performance.now();
    // As `npm test` runs it: the workspace's node_modules/.bin first on PATH.
    const env = { ...process.env, CI: "true", PATH: `${join(cwd, "node_modules/.bin")}:${process.env.PATH}` };
    const child = spawn("sh", ["-c", command], { cwd, env });
    let out = "";
    const keep = (d) => {
      out += d;
      process.stdout.write(d);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (code) => resolve({ code, out, seconds: (performance.now() - started) / 1000 }));
  });
}

// Vitest's summary, with its colour codes removed.
function summary(out) {
  const plain = out.replace(/\x1b\[[0-9;]*m/g, "");
  const tests = plain.match(/Tests\s+(?:(\d+) failed \| )?(\d+) passed/);
  const files = plain.match(/Test Files\s+(?:(\d+) failed \| )?(\d+) passed/);
  const duration = plain.match(/Duration\s+([\d.]+)(m?s)/);
  return {
    passed: tests ? Number(tests[2]) : null,
    failed: tests ? Number(tests[1] ?? 0) : null,
    files: files ? Number(files[2]) + Number(files[1] ?? 0) : null,
    vitest_s: duration ? Number(duration[1]) / (duration[2] === "ms" ? 1000 : 1) : null,
  };
}

const rows = [];
try {
  for (const [label, ref] of [
    ["before", base],
    ["after", head],
  ]) {
    const dir = join(work, label);
    const commit = git(root, "rev-parse", "--short=12", ref);
    execFileSync("git", ["clone", "--quiet", root, dir]);
    git(dir, "checkout", "--quiet", commit);
    // Setup is CI's too, but not what the suite work changed: untimed.
    const setup = await timed(dir, "node .ci/setup.mjs --build --browser --extension --postgres");
    if (setup.code !== 0) throw new Error(`${label} (${commit}): setup failed`);
    const script = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.test;
    const parts = script.split("&&").map((s) => s.trim());
    const testPart = parts.filter((p) => !p.startsWith("node .ci/setup.mjs")).join(" && ");
    console.log(`\n== ${label} ${commit}: ${testPart}\n`);
    const result = await timed(dir, testPart);
    rows.push({ label, commit, command: testPart, code: result.code, seconds: result.seconds, ...summary(result.out) });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const [before, after] = rows;
run.table({
  id: "suite",
  title: "npm test after setup (the same machine, one commit after the other)",
  columns: ["commit", "what runs", { label: "wall s", format: "auto" }, { label: "vitest s", format: "auto" }, "tests passed", "failed", { label: "vs before", format: "ratio" }],
  rows: rows.map((r) => [`${r.label} ${r.commit}`, r.command, r.seconds, r.vitest_s, r.passed, r.failed, r.seconds / before.seconds]),
});
run.figure("before_s", before.seconds);
run.figure("after_s", after.seconds);
run.figure("after_over_before", after.seconds / before.seconds);
run.note("Setup (install, build, Chromium, extension, PostgreSQL) is not timed; each commit's own npm test script minus its setup step is.");
run.write();
if (rows.some((r) => r.code !== 0)) {
  console.error("a suite failed: the times above are of a failing run");
  process.exitCode = 1;
}
