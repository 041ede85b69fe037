// Idempotency-Key: the stored answers of requests sent with one, per account, for 24 h.
//
// A request claims its key before it runs. The first claim runs the request and stores its
// answer; a later claim with the same key gets that answer back (a retry after a timeout or
// a lost response), and one that arrives while the first still runs waits for it. A claim
// whose owner died (killed mid-request) is taken over by the next retry, which re-runs the
// request under the same charge key, so whatever the dead attempt charged is not charged again.
//
// Two stores: files in the data dir (with the lowdb ledger; owners are process ids) and
// PostgreSQL (pg.ts; owners are instances holding an advisory lock while they live).
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { withFileLock } from "./file-lock.js";

/** How long a key's answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** An answer as stored: enough to send it again byte for byte (or raise the same error). */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body (base64 when `base64`); empty for an error. */
  body: string;
  base64?: boolean;
  /** The contract error the request ended with (rendered again on replay). */
  error?: { code: string; short: string; message: string; retryAfterSeconds?: number };
}

export type Claim =
  /** Run the request, then `finish` it (null: the answer is not kept, the key is freed). */
  | { state: "claimed"; generation: string; finish(answer: StoredAnswer | null): Promise<void> }
  | { state: "done"; fingerprint: string; answer: StoredAnswer }
  /** Another attempt is still running it. */
  | { state: "running"; fingerprint: string };

export interface IdempotencyStore {
  /** One attempt at claiming (callers poll while it says "running"). */
  claim(accountId: string, key: string, fingerprint: string): Promise<Claim>;
}

interface FileRecord {
  fingerprint: string;
  generation: string;
  /** Owner while running: `pid`. */
  owner: number;
  state: "running" | "done";
  created: number;
  answer?: StoredAnswer;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One JSON file per (account, key) under `<dataDir>/idempotency`. A claim is an exclusive
 * create; the answer replaces the file atomically (temp + rename); taking over a dead owner's
 * or an expired claim happens under a lock file, re-reading first.
 */
export class FileIdempotencyStore implements IdempotencyStore {
  #lastSweep = 0;
  constructor(readonly dir: string) {}

  #path(accountId: string, key: string): string {
    return join(this.dir, `${createHash("sha256").update(`${accountId}\0${key}`).digest("hex")}.json`);
  }

  #read(path: string): FileRecord | null {
    try {
      return JSON.parse(readFileSync(path, "utf8")) as FileRecord;
    } catch {
      return null; // missing, or (never: writes are atomic) unreadable
    }
  }

  #write(path: string, rec: FileRecord): void {
    const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
    writeFileSync(tmp, JSON.stringify(rec), { mode: 0o600 });
    renameSync(tmp, path);
  }

  #claimed(path: string, rec: FileRecord): Claim {
    return {
      state: "claimed",
      generation: rec.generation,
      finish: async (answer) => {
        const now = this.#read(path);
        if (!now || now.generation !== rec.generation || now.owner !== process.pid) return; // taken over meanwhile
        if (answer) this.#write(path, { ...now, state: "done", answer });
        else await unlink(path).catch(() => undefined);
      },
    };
  }

  async claim(accountId: string, key: string, fingerprint: string): Promise<Claim> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.#maybeSweep();
    const path = this.#path(accountId, key);
    const fresh = (): FileRecord => ({ fingerprint, generation: randomUUID(), owner: process.pid, state: "running", created: Date.now() });
    const rec = fresh();
    try {
      writeFileSync(path, JSON.stringify(rec), { flag: "wx", mode: 0o600 });
      return this.#claimed(path, rec);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    return withFileLock(join(this.dir, ".lock"), () => {
      const found = this.#read(path);
      if (!found || Date.now() - found.created > IDEMPOTENCY_TTL_MS) {
        const mine = fresh(); // gone meanwhile, or expired: a new request
        this.#write(path, mine);
        return this.#claimed(path, mine);
      }
      if (found.state === "done" && found.answer) return { state: "done", fingerprint: found.fingerprint, answer: found.answer };
      if (found.owner !== process.pid && !alive(found.owner)) {
        const mine = { ...found, owner: process.pid }; // same generation: same charge key
        this.#write(path, mine);
        return this.#claimed(path, mine);
      }
      return { state: "running", fingerprint: found.fingerprint };
    });
  }

  /** Deletes answers past their 24 h (at most every 10 minutes, in the background). */
  #maybeSweep(): void {
    if (Date.now() - this.#lastSweep < 600_000) return;
    this.#lastSweep = Date.now();
    void this.sweep().catch(() => undefined);
  }

  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!name.endsWith(".json")) continue;
      const file = join(this.dir, name);
      const st = await stat(file).catch(() => null);
      if (st && now - st.mtimeMs > IDEMPOTENCY_TTL_MS + 3600_000) {
        await unlink(file).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }
}
