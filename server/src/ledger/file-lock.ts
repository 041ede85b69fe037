// A cross-process lock on one file (the ledger): the server and the admin CLI both take it
// before read-modify-write, so neither overwrites the other's change. The lock is a file
// created with O_EXCL holding "pid:token"; a holder killed with kill -9 leaves it behind,
// so a lock whose process is gone (or that is older than STALE_MS) is broken and retaken.
import { link, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";

const STALE_MS = 30_000; // nobody holds the ledger lock this long: a read and a write take ms
const EMPTY_GRACE_MS = 2_000; // a lock file is empty only between create and write
const TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readLock(path: string): Promise<{ content: string; ageMs: number } | null> {
  try {
    const [content, st] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    return { content, ageMs: Date.now() - st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

function isStale(lock: { content: string; ageMs: number }): boolean {
  if (lock.content === "") return lock.ageMs > EMPTY_GRACE_MS;
  if (lock.ageMs > STALE_MS) return true;
  return !alive(Number(lock.content.split(":")[0]));
}

/**
 * Moves a stale lock aside and deletes it. The move is atomic, so of two processes breaking
 * the same stale lock only one succeeds; if what was moved turns out to be a fresh lock
 * (taken between our check and our move) it is linked back in place.
 */
async function breakStale(path: string, seen: string): Promise<void> {
  const aside = `${path}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const moved = await readFile(aside, "utf8").catch(() => seen);
  if (moved !== seen) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Runs `fn` while holding the lock file `path` (created next to the file it protects). */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const token = `${process.pid}:${randomUUID()}`;
  const deadline = Date.now() + TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, token, { flag: "wx", mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const lock = await readLock(path);
    if (lock && isStale(lock)) {
      await breakStale(path, lock.content);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${path}`);
    await sleep(Math.min(1 + attempt, 25));
  }
  try {
    return await fn();
  } finally {
    const current = await readFile(path, "utf8").catch(() => null);
    if (current === token) await unlink(path).catch(() => undefined);
  }
}
