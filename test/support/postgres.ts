// A real PostgreSQL for tests: Debian's server binaries (package `postgresql`, installed by
// `node .ci/setup.mjs --postgres`, which `npm test` runs), started in a temporary data
// directory on a free loopback port and stopped when the test file ends. PostgreSQL refuses to
// run as root, so as root it runs as the `postgres` user the package creates.
//
//   const pg = await startPostgres();              // null (and a loud message) when unavailable
//   afterAll(() => pg?.stop());
//   test.skipIf(!pg)("...", async () => { const url = await pg!.database(); ... });
//
// initdb runs once per machine into a template directory (kept under the temp dir) that each
// start copies: a start costs ~0.5 s instead of ~2 s. Durability is off (fsync, synchronous
// commit): a test database never outlives its run.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface PgServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (the maintenance database). */
  url: string;
  port: number;
  /** A new empty database; its URL. */
  database(): Promise<string>;
  /** The postmaster's pid (to kill it in fault tests). */
  pid: number;
  stop(): Promise<void>;
}

/** The directory of Debian's PostgreSQL binaries (newest version), or null. */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.SIGHTLINE_PG_BINDIR;
  if (fromEnv && existsSync(join(fromEnv, "postgres"))) return fromEnv;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

const asRoot = process.getuid?.() === 0;

/** argv that runs `cmd` as the user PostgreSQL runs as (postgres when we are root). */
function asPgUser(cmd: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
}

function chownToPg(path: string): void {
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", path]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The initdb'd template for this PostgreSQL version, made once (concurrent makers: one wins). */
function template(bin: string): string {
  const version = bin.split("/").at(-2) ?? "x";
  const dir = join(tmpdir(), `sightline-pg-template-${version}`);
  if (existsSync(join(dir, "PG_VERSION"))) return dir;
  const work = mkdtempSync(join(tmpdir(), "sightline-pg-initdb-"));
  chownToPg(work);
  const data = join(work, "data");
  const [cmd, args] = asPgUser(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const res = spawnSync(cmd, args, { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`initdb failed: ${res.stderr || res.stdout}`);
  try {
    renameSync(data, dir);
  } catch {
    // another test file made it first
  }
  rmSync(work, { recursive: true, force: true });
  return dir;
}

let warned = false;
function unavailable(reason: string): null {
  if (!warned) {
    warned = true;
    const bar = "!".repeat(100);
    process.stderr.write(
      `\n${bar}\n!! PostgreSQL tests SKIPPED: ${reason}\n!! Install it with \`node .ci/setup.mjs --postgres\` (Debian: apt-get install postgresql).\n${bar}\n\n`,
    );
  }
  return null;
}

/** Starts a throwaway PostgreSQL, or returns null (with a loud message) when there is none. */
export async function startPostgres(): Promise<PgServer | null> {
  const bin = postgresBinDir();
  if (!bin) return unavailable("no PostgreSQL server binaries (looked in /usr/lib/postgresql/*/bin and SIGHTLINE_PG_BINDIR)");
  if (asRoot && spawnSync("id", ["postgres"]).status !== 0) return unavailable("running as root and there is no `postgres` user to run the server as");
  const base = mkdtempSync(join(tmpdir(), "sightline-pg-"));
  const data = join(base, "data");
  cpSync(template(bin), data, { recursive: true });
  chownToPg(base);
  const port = await freePort();
  const [cmd, args] = asPgUser(join(bin, "postgres"), [
    "-D", data,
    "-p", String(port),
    "-k", base, // its unix socket beside the data, not in /var/run
    "-c", "listen_addresses=127.0.0.1",
    "-c", "fsync=off",
    "-c", "synchronous_commit=off",
    "-c", "full_page_writes=off",
    "-c", "max_connections=200",
    "-c", "shared_buffers=32MB",
  ]);
  const logs: string[] = [];
  const child: ChildProcess = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d: Buffer) => logs.push(String(d)));
  child.stderr?.on("data", (d: Buffer) => logs.push(String(d)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let pmPid = 0; // the postmaster (runuser's child when we are root)
  const kill = () => {
    // SIGQUIT: immediate shutdown (no checkpoint: the data is thrown away anyway)
    if (pmPid) {
      try {
        process.kill(pmPid, "SIGQUIT");
      } catch {
        // gone
      }
    }
    child.kill("SIGINT");
  };
  process.once("exit", kill);

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      await c.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        kill();
        rmSync(base, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${logs.join("")}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  // runuser keeps the postmaster as its child: find the postmaster's own pid from its pid file.
  const pidFile = join(data, "postmaster.pid");
  const pid = Number(execFileSync("head", ["-n1", pidFile], { encoding: "utf8" }).trim());
  pmPid = pid;
  // If this test process dies without running its exit handlers (SIGKILL, a crashed worker), a
  // watchdog stops the server and removes its files, so nothing outlives the run.
  spawn("sh", ["-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; kill -QUIT ${pid} 2>/dev/null; sleep 1; rm -rf '${base}'`], {
    detached: true,
    stdio: "ignore",
  }).unref();

  return {
    url,
    port,
    pid,
    async database() {
      const name = `t_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.off("exit", kill);
      if (child.exitCode === null) {
        kill();
        const t = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(t);
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}
