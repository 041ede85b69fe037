// lowdb's JSONFile, but the file is the owner's alone (mode 0600): the ledger holds every key's
// hash and every balance. Written the same way (the whole file to a temp file, then renamed over
// the old one, so a reader sees one or the other), same format.
import { chmod, readFile, rename, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Adapter } from "lowdb";

export class PrivateJSONFile<T> implements Adapter<T> {
  readonly #file: string;
  readonly #tmp: string;

  constructor(file: string) {
    this.#file = file;
    this.#tmp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.#file, "utf8")) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async write(data: T): Promise<void> {
    await writeFile(this.#tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
    await chmod(this.#tmp, 0o600); // `mode` applies only to a new file; a leftover keeps its own
    await rename(this.#tmp, this.#file);
  }
}
