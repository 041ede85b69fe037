#!/usr/bin/env node
// Machine and workspace setup shared by `npm start`, `npm test` and CI, for a machine that has
// only Node and npm: installs pnpm, the workspace's dependencies, Debian's Chromium (for
// headless rendering and browser tests) and builds the packages. Each step is skipped when
// already done, so running it before every command costs well under a second.
//
//   node .ci/setup.mjs [--build] [--browser] [--extension] [--postgres] [--quiet]
import { execSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

// 3b. PostgreSQL server binaries from Debian, for the tests of the PostgreSQL ledger and of
// several instances (test/support/postgres.ts starts a throwaway server from them). No cluster
// is created or started here: the tests run their own, in temp dirs. If it cannot be
// installed, setup goes on and those tests are skipped with a loud message.
if (args.has("--postgres")) {
  const hasPg = () =>
    existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(join("/usr/lib/postgresql", v, "bin", "postgres")));
  if (!hasPg()) {
    if (process.getuid?.() === 0 && has("apt-get")) {
      const apt = "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq";
      const cmd =
        `apt-get update -qq && ${apt} postgresql-common && ` +
        // Debian would create and start a "main" cluster on port 5432: not wanted here.
        `sed -i 's/^#\\?\\s*create_main_cluster.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf && ${apt} postgresql`;
      log(cmd);
      const res = spawnSync(cmd, { shell: true, stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit", cwd: root });
      if (res.status !== 0 || !hasPg()) process.stderr.write("[setup] PostgreSQL could not be installed: its tests will be SKIPPED\n");
    } else {
      process.stderr.write("[setup] PostgreSQL not found (Debian: sudo apt-get install postgresql): its tests will be SKIPPED\n");
    }
  }
}

// 4. Build (tsc -b is incremental; the collector bundle is rebuilt with it).
if (args.has("--build")) run("pnpm --filter @sightline/shared --filter @sightline/server run build");
if (args.has("--extension") && existsSync(join(root, "extension/package.json"))) {
  run("pnpm --filter @sightline/extension run build");
}
