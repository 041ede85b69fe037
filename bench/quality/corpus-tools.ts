// The scoring tools beside the repository (../shared/tools/eval-*.mjs), run against a Sightline
// server started here: the shared part of rank-eval.ts and wpt-service.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "@sightline/server";

export const root = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The corpora and tools live beside the repository (docs/development.md), optional;
 * SIGHTLINE_SHARED_DIR names that folder when the checkout is elsewhere (a second worktree).
 */
export const besides = (path: string) => join(process.env.SIGHTLINE_SHARED_DIR ?? join(root, "..", "shared"), path);
export const COLLECTOR = join(root, "shared/dist/collector.js");

/** Exits with a note when a corpus or tool beside the repository is missing. */
export function requireBesides(what: string, ...paths: string[]): void {
  if (paths.every((p) => existsSync(p))) return;
  console.error(`${what}: the corpora and tools beside the repository are missing (see docs/development.md); nothing measured`);
  process.exit(2);
}

/** Runs a tool (from test/, where it finds playwright-core) and resolves with its --out report. */
export function runTool<T>(tool: string, args: string[]): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-tool-"));
  const out = join(dir, "out.json");
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, [besides(`tools/${tool}`), ...args, "--out", out], { cwd: join(root, "test"), stdio: ["ignore", "inherit", "inherit"] });
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`${tool} exited ${code}`);
        resolve(JSON.parse(readFileSync(out, "utf8")) as T);
      } catch (err) {
        reject(err);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** A server on loopback with a fresh data folder and a funded key, for the length of `fn`. */
export async function withServer<T>(env: Record<string, string>, fn: (origin: string, key: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "sightline-bench-data-"));
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: dir, logLevel: "silent", rateLimitPerMinute: 0 }, env);
  try {
    const { key } = await server.ledger.createAccount({ credits: 1_000_000 });
    return await fn(server.origin, key);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
