// Where screenshots live. An interface (put/get) so an S3-compatible store can replace the
// data-dir one without touching observe or the download route.
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

export type ImageFormat = "png" | "jpeg";

export interface StoredObject {
  data: Buffer;
  contentType: string;
}

export interface ObjectStore {
  put(id: string, data: Buffer, contentType: string): Promise<void>;
  /** null when there is no such object (never stored, or swept after expiry). */
  get(id: string): Promise<StoredObject | null>;
}

export const CONTENT_TYPES: Record<ImageFormat, string> = { png: "image/png", jpeg: "image/jpeg" };

/** Ids are random tokens made by the server; anything else is refused before touching disk. */
export const OBJECT_ID = /^[A-Za-z0-9_-]{16,64}\.(png|jpeg)$/;

const TYPE_BY_EXT: Record<string, string> = { png: CONTENT_TYPES.png, jpeg: CONTENT_TYPES.jpeg };

/**
 * Files under `<dataDir>/screenshots`. Objects older than `maxAgeMs` are deleted by a sweep
 * that runs at most every `sweepEveryMs` (after a put), so the directory does not grow forever.
 */
export class FileObjectStore implements ObjectStore {
  private lastSweep = 0;
  constructor(
    readonly dir: string,
    private readonly maxAgeMs: number,
    private readonly sweepEveryMs = 10 * 60 * 1000,
  ) {}

  async put(id: string, data: Buffer, _contentType: string): Promise<void> {
    if (!OBJECT_ID.test(id)) throw new Error(`invalid object id: ${id}`);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = join(this.dir, `.${id}.tmp`);
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, join(this.dir, id)); // readers never see a half-written file
    if (Date.now() - this.lastSweep > this.sweepEveryMs) {
      this.lastSweep = Date.now();
      void this.sweep().catch(() => {});
    }
  }

  async get(id: string): Promise<StoredObject | null> {
    if (!OBJECT_ID.test(id)) return null;
    try {
      const data = await readFile(join(this.dir, id));
      return { data, contentType: TYPE_BY_EXT[id.split(".").pop() ?? ""] ?? "application/octet-stream" };
    } catch {
      return null;
    }
  }

  /** Deletes objects older than the maximum age; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    for (const name of names) {
      if (!OBJECT_ID.test(name)) continue;
      const file = join(this.dir, name);
      try {
        if (now - (await stat(file)).mtimeMs > this.maxAgeMs) {
          await unlink(file);
          removed++;
        }
      } catch {
        // gone already
      }
    }
    return removed;
  }
}
