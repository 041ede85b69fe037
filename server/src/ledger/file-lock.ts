// A cross-process lock on one file (the ledger): the server and the admin CLI both take it
// before read-modify-write, so neither overwrites the other's change. The lock is a file
// created with O_EXCL holding "pid:token"; a holder killed with kill -9 leaves it behind,
// so a lock whose process is gone (or that is older than STALE_MS) is broken and retaken.
//
// The lock's own file operations are synchronous on purpose: each takes microseconds on a
// local file, while the same calls through libuv's thread pool cost an event-loop turn each
// (a dozen per ledger write) and made every charge wait milliseconds under load. Waiting for
// a lock another process holds is asynchronous (a timer), so the server never stalls.
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { randomUUID } from "node:crypto";

const STALE_MS = 30_000; // nobody holds the ledger lock this long: a read and a write take ms
const EMPTY_GRACE_MS = 2_000; // a lock file is empty only between create and write
const TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === "EPERM";
  }
}

function readLock(path: string): { content: string; ageMs: number } | null {
  try {
    const content = readFileSync(path, "utf8");
    return { content, ageMs: Date.now() - statSync(path).mtimeMs };
  } catch (err) {
    if (errno(err) === "ENOENT") return null;
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
function breakStale(path: string, seen: string): void {
  const aside = `${path}.${process.pid}.${randomUUID()}.stale`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if (errno(err) === "ENOENT") return;
    throw err;
  }
  let moved = seen;
  try {
    moved = readFileSync(aside, "utf8");
  } catch {
    // keep `seen`
  }
  if (moved !== seen) {
    try {
      linkSync(aside, path);
    } catch {
      // someone else holds it now: theirs wins
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

/** Creates the lock file; false when another holder has it. */
function tryTake(path: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if (errno(err) === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

function release(path: string, token: string): void {
  try {
    if (readFileSync(path, "utf8") === token) unlinkSync(path);
  } catch {
    // gone already (broken as stale): nothing to release
  }
}

/**
 * Runs `fn` while holding the lock file `path` (created next to the file it protects).
 * When the lock is free, `fn` starts synchronously, before this returns.
 */
export async function withFileLock<T>(path: string, fn: () => T | Promise<T>): Promise<T> {
  const token = `${process.pid}:${randomUUID()}`;
  const deadline = Date.now() + TIMEOUT_MS;
  for (let attempt = 0; !tryTake(path, token); attempt++) {
    const lock = readLock(path);
    if (lock && isStale(lock)) {
      breakStale(path, lock.content);
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${path}`);
    await sleep(Math.min(1 + attempt, 25));
  }
  try {
    return await fn();
  } finally {
    release(path, token);
  }
}
