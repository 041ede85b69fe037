#!/usr/bin/env node
// Machine and workspace setup shared by `npm start`, `npm test` and CI, for a machine that has
// only Node and npm: installs pnpm, the workspace's dependencies, Debian's Chromium (for
// headless rendering and browser tests) and builds the packages. Each step is skipped when
// already done, so running it before every command costs well under a second.
//
//   node .ci/setup.mjs [--build] [--browser] [--extension] [--quiet]
import { execSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const quiet = args.has("--quiet");
const PNPM_VERSION = "12.21.0";
const log = (msg) => {
  if (!quiet) process.stderr.write(`[setup] ${msg}\n`);
};

function run(cmd, opts = {}) {
  log(cmd);
  const res = spawnSync(cmd, { shell: true, stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit", cwd: root, ...opts });
  if (res.status !== 0) {
    process.stderr.write(`[setup] failed: ${cmd}\n`);
    process.exit(res.status ?? 1);
  }
}

function has(cmd) {
  try {
    execSync(`command -v ${cmd}`, { stdio: "ignore", shell: "/bin/sh" });
    return true;
  } catch {
    return false;
  }
}

// 1. pnpm (corepack cannot download here; npm can).
if (!has("pnpm")) run(`npm install -g pnpm@${PNPM_VERSION}`);

// 2. Dependencies, re-installed only when a manifest or the lockfile changed.
const manifests = ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml", "shared/package.json", "server/package.json", "extension/package.json", "test/package.json", "bench/package.json"];
const hash = createHash("sha256");
for (const m of manifests) {
  const p = join(root, m);
  if (existsSync(p)) hash.update(m).update(readFileSync(p));
}
const stamp = hash.digest("hex");
const stampFile = join(root, "node_modules", ".sightline-setup-stamp");
if (!existsSync(stampFile) || readFileSync(stampFile, "utf8") !== stamp) {
  const frozen = process.env.CI && existsSync(join(root, "pnpm-lock.yaml")) ? " --frozen-lockfile" : "";
  run(`pnpm install${frozen} --reporter=append-only`);
  writeFileSync(stampFile, stamp);
}

// 3. Chromium from Debian (Playwright cannot download its own browser on this network).
if (args.has("--browser")) {
  const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    if (process.getuid?.() === 0 && has("apt-get")) {
      run("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium");
    } else {
      process.stderr.write(
        `[setup] Chromium not found at ${chromium}. Install it (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH.\n`,
      );
      process.exit(1);
    }
  }
}

// 4. Build (tsc -b is incremental; the collector bundle is rebuilt with it).
if (args.has("--build")) run("pnpm --filter @sightline/shared --filter @sightline/server run build");
if (args.has("--extension") && existsSync(join(root, "extension/package.json"))) {
  run("pnpm --filter @sightline/extension run build");
}
