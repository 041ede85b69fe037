// Runs the built server (server/dist/main.js, what `npm start` runs) and the admin CLI as child
// processes, for tests that need a second process: kill -9, restarts, CLI while serving.
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const MAIN_JS = `${root}server/dist/main.js`;
export const ADMIN_JS = `${root}server/dist/admin/cli.js`;
export const SERVE_JS = `${root}server/dist/browser/serve.js`;
export const BUILT = existsSync(MAIN_JS) && existsSync(ADMIN_JS) && existsSync(SERVE_JS);
export const NEEDS_BUILD = "needs the built server (npm test builds it; or pnpm --filter @sightline/server run build)";

/**
 * Whether the tests that run the build are skipped: on a developer's machine with nothing built
 * (said loudly), never in CI (process.env.CI), where a missing build is a broken pipeline: there
 * they run and fail at requireBuild().
 */
export const SKIP_UNBUILT = !BUILT && !process.env.CI;
if (SKIP_UNBUILT) process.stderr.write(`SKIPPED: the tests of the built server; server/dist is missing (${NEEDS_BUILD})\n`);

/** Fails the test when server/dist is missing (reached only in CI, see SKIP_UNBUILT). */
export function requireBuild(): void {
  if (!BUILT) throw new Error(`server/dist is missing: the test ${NEEDS_BUILD}`);
}

export interface ChildServer {
  proc: ChildProcess;
  origin: string;
  devKey: string;
  output: () => string;
}

/** Starts `node server/dist/main.js` on a free loopback port; resolves once it printed its URL and key. */
export function startChild(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  requireBuild();
  const proc = spawn(process.execPath, [MAIN_JS], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", HOST: "127.0.0.1", SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_RATE_LIMIT: "0", SIGHTLINE_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    // A server that never became ready must not outlive the test.
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`server did not start:\n${out}`));
    }, 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const origin = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      const devKey = /^\s+(sl_[\w-]+)\s*$/m.exec(out)?.[1];
      if (origin && devKey && out.includes("openapi.json")) {
        clearTimeout(timer);
        resolve({ proc, origin, devKey, output: () => out });
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
}

export function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((r) => proc.once("exit", () => r()));
}

/** Runs the admin CLI against `dataDir`; resolves with its stdout lines (rejects on a non-zero exit). */
export function admin(dataDir: string, ...args: string[]): Promise<string[]> {
  requireBuild();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [ADMIN_JS, ...args], { env: { PATH: process.env.PATH ?? "", SIGHTLINE_DATA_DIR: dataDir } }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(err, { stdout, stderr }));
      else resolve(stdout.trimEnd().split("\n"));
    });
  });
}
