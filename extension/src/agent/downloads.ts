// Downloads an agent's action started on the person's tab (issue 33). The browser downloads as
// it always does (into the person's download folder, asking where if they set it so; nothing is
// opened unless the person told Chrome to open such files); what the extension adds is that the
// answer of the action names the file and its size, from chrome.downloads' events (the
// `downloads` permission). A DownloadItem says nothing of its tab: the downloads counted are
// those created while the action ran whose page (referrer) or address is on the tab's site.
import { browser } from "wxt/browser";
import { originOf, type DownloadInfo } from "@sightline/shared/agent/core";

/** How long an answer waits for a download it saw start to finish (a later end is "in_progress"). */
const FINISH_MS = 15_000;
/** How long an action judged likely to download waits for the download to be created. */
const START_MS = 2_000;

type Item = { id: number; url: string; finalUrl?: string; referrer?: string; filename: string; fileSize: number; totalBytes: number; state: string; error?: string };

function infoOf(item: Item): DownloadInfo {
  // The base name only: the person's folders are not the agent's business.
  const file = item.filename.split(/[\\/]/).pop() || (item.finalUrl || item.url).split(/[?#]/)[0].split("/").pop() || "download";
  const size = item.fileSize > 0 ? item.fileSize : item.totalBytes > 0 ? item.totalBytes : undefined;
  const state: DownloadInfo["state"] = item.state === "complete" ? "saved" : item.state === "interrupted" ? "failed" : "in_progress";
  return { file, url: item.finalUrl || item.url, ...(size !== undefined ? { size } : {}), state, ...(item.error ? { error: item.error.toLowerCase().replace(/_/g, " ") } : {}) };
}

/**
 * Starts watching for downloads from `pageUrl`'s site; `done()` (after the action) answers them,
 * each once finished or after FINISH_MS. `expected`: the policy judged the action likely to
 * download, so done() waits a little for one to start.
 */
export function watchDownloads(pageUrl: string, expected: boolean): { done(): Promise<DownloadInfo[]> } {
  const api = browser.downloads;
  if (!api?.onCreated) return { done: async () => [] };
  const site = originOf(pageUrl);
  const ids: number[] = [];
  let created: (() => void) | null = null;
  const onCreated = (item: Item) => {
    if (originOf(item.referrer) !== site && originOf(item.url) !== site) return;
    ids.push(item.id);
    created?.();
  };
  api.onCreated.addListener(onCreated as never);
  return {
    async done() {
      try {
        if (expected && !ids.length) await new Promise<void>((r) => ((created = r), setTimeout(r, START_MS)));
        if (!ids.length) return [];
        const deadline = Date.now() + FINISH_MS;
        for (;;) {
          const items = (await Promise.all(ids.map((id) => api.search({ id })))).flat() as unknown as Item[];
          if (items.every((i) => i.state !== "in_progress") || Date.now() >= deadline) return items.map(infoOf);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        api.onCreated.removeListener(onCreated as never);
      }
    },
  };
}
