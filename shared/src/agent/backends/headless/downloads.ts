// Downloads on a headless tab (issue 33). A click on a `download` link or an attachment
// response makes Chromium download instead of navigating; without this the agent was told
// "nothing_changed" and the file stayed in Playwright's temporary folder. Here every download of
// the tab is either saved into the download folder the person named (SIGHTLINE_DOWNLOAD_DIR, or
// the backend's downloadDir) or, with none, cancelled and deleted ("downloads are off", like
// uploads without SIGHTLINE_UPLOAD_DIR). The answer of the action that started it names the file
// and its size. A saved file is only written: never opened, and its mode has no execute bit.
import { chmod, mkdir, open, realpath, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import type { Download, Page } from "playwright-core";
import type { DownloadInfo } from "../../core/actions.js";

/** How long an action's answer waits for its downloads to arrive; later ones are told by the next answer. */
const ARRIVE_MS = 30_000;

/** A file name the site suggested, made safe as one name inside the folder (no folder part, no dot files). */
export function safeFileName(suggested: string): string {
  const base = suggested.split(/[\\/]/).pop() ?? "";
  // Control characters and characters Windows or shells treat specially; no leading dots.
  const cleaned = base.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "_").replace(/^[.\s]+/, "").trim().slice(0, 200);
  return cleaned || "download";
}

/** `dir/name`, or `dir/name (2).ext`… when taken: a download never replaces a file. Creates it empty (exclusive). */
async function freshPath(dir: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, n === 1 ? name : `${stem} (${n})${ext}`);
    try {
      await (await open(path, "wx", 0o600)).close();
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  throw new Error(`too many files named ${name} in the download folder`);
}

interface Tracked {
  info: DownloadInfo;
  done: Promise<void>;
  told: boolean;
}

export class TabDownloads {
  private readonly seen: Tracked[] = [];
  private waiters: (() => void)[] = [];

  /** `dir`: the download folder, or undefined (downloads are off). */
  constructor(page: Page, private readonly dir: string | undefined) {
    page.on("download", (d) => {
      this.seen.push(this.track(d));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Resolves when a download not told yet is there, or after `ms` (a navigation Chromium turned into a download tells before its event). */
  async arrival(ms: number): Promise<void> {
    if (this.seen.some((t) => !t.told)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((r) => {
      this.waiters.push(r);
      timer = setTimeout(r, ms);
    });
    clearTimeout(timer);
  }

  private track(d: Download): Tracked {
    const info: DownloadInfo = { file: safeFileName(d.suggestedFilename()), url: d.url(), state: "in_progress" };
    const done = (async () => {
      if (!this.dir) {
        await d.cancel().catch(() => undefined);
        await d.delete().catch(() => undefined);
        info.state = "off";
        return;
      }
      try {
        const dir = await realpath(await mkdir(this.dir, { recursive: true }).then(() => this.dir!));
        const path = await freshPath(dir, info.file);
        await d.saveAs(path); // waits for the whole file
        await chmod(path, 0o644); // written, never run: no execute bit, whatever the site sent
        await d.delete().catch(() => undefined); // Playwright's temporary copy
        Object.assign(info, { state: "saved", path, file: path.slice(dir.length + 1), size: (await stat(path)).size });
      } catch (err) {
        const why = (await d.failure().catch(() => null)) ?? (err instanceof Error ? err.message.split("\n")[0] : String(err));
        Object.assign(info, { state: "failed", error: why });
      }
    })();
    return { info, done, told: false };
  }

  /**
   * The downloads not told yet (those the last action started, and earlier ones that were still
   * arriving), each once it arrived or after `waitMs`. Without any, answers at once.
   */
  async settle(waitMs = ARRIVE_MS): Promise<DownloadInfo[]> {
    const open = this.seen.filter((t) => !t.told);
    if (!open.length) return [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, waitMs)));
    await Promise.race([Promise.all(open.map((t) => t.done)), late]);
    clearTimeout(timer);
    const out: DownloadInfo[] = [];
    for (const t of open) {
      // One still arriving is told now (in_progress) and again when it is there.
      if (t.info.state !== "in_progress") t.told = true;
      out.push({ ...t.info });
    }
    return out;
  }
}
