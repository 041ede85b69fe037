// The side panel: settings, Map, Read, Visual, overlay toggle and export, for one target tab.
// The target is `?tabId=N` when given (the panel opened as a page for a known tab), otherwise the
// active tab of the window the panel is in (it follows tab switches).
import { browser } from "wxt/browser";
import type { Box, PageScroll, PanelResults, ReadResult, TabInfo } from "../messages.js";
import { ask } from "./bridge.js";
import { $, copyText, download, h } from "./dom.js";
import { rank, readPage, shareVisual, testConnection, type RankedSnapshot } from "./engine.js";
import { boxOf, renderMap } from "./map-view.js";
import { drawMarks, loadImage } from "./marks.js";
import { formatPrompt, PROMPT_TOKEN_BUDGET } from "./prompt.js";
import { DEFAULT_SETTINGS, loadSettings, saveSettings, type Settings } from "./settings.js";
import { busy, done, failed, showMode } from "./status.js";
import { refreshAgent, startAgentPanel } from "./agent.js";

type Capture = PanelResults["collect"];

interface State {
  tab: TabInfo | null;
  settings: Settings;
  capture: Capture | null;
  snapshot: RankedSnapshot | null;
  goal: string;
  read: ReadResult | null;
  overlay: boolean;
  /** The element last clicked in Map (for the element image). */
  selected: number | null;
  /** The last marked screenshot and the geometry measured with it (for sharing). */
  shot: { dataUrl: string; capture: Capture } | null;
}

const fixedTabId = (() => {
  const v = new URLSearchParams(location.search).get("tabId");
  const n = v === null ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
})();

const state: State = { tab: null, settings: DEFAULT_SETTINGS, capture: null, snapshot: null, goal: "", read: null, overlay: false, selected: null, shot: null };
let running = false;

async function target(): Promise<TabInfo> {
  const tab = await ask({ type: "tab", tabId: fixedTabId });
  // Another tab, or the same tab on another page: what was captured no longer applies.
  if (state.tab?.tabId !== tab.tabId || state.tab.url !== tab.url) resetForTab(tab);
  state.tab = tab;
  refreshAgent();
  $("#tab-title").textContent = tab.title || tab.url || "this tab (click the Sightline toolbar button to give access)";
  $("#tab-title").title = tab.url;
  return tab;
}

function resetForTab(tab: TabInfo): void {
  state.capture = null;
  state.snapshot = null;
  state.read = null;
  state.tab = tab;
  renderMap(null, mapHandlers);
  $("#read-result").hidden = true;
  $("#read-empty").hidden = false;
  ($("#copy-read") as HTMLButtonElement).disabled = true;
  $("#visual-canvas").hidden = true;
  $("#visual-empty").hidden = false;
  $("#visual-info").textContent = "";
  ($("#overlay-toggle") as HTMLInputElement).checked = false;
  state.overlay = false;
  state.selected = null;
  state.shot = null;
  ($("#share-visual") as HTMLButtonElement).disabled = true;
  $("#visual-link").hidden = true;
  ($("#element-image") as HTMLButtonElement).disabled = true;
  $("#element-image").textContent = "Element image";
  showMode(null, null);
}

/** Runs one user action at a time, with its errors shown in words. */
async function action(fn: () => Promise<void>): Promise<void> {
  if (running) return;
  running = true;
  document.body.setAttribute("aria-busy", "true");
  try {
    await fn();
  } catch (err) {
    failed(err);
  } finally {
    running = false;
    document.body.removeAttribute("aria-busy");
  }
}

async function capture(step: [number, number]): Promise<Capture> {
  const tab = await target();
  busy(`reading ${hostOf(tab.url) || "the page"}…`, step);
  state.capture = await ask({ type: "collect", tabId: tab.tabId });
  return state.capture;
}

async function rankNow(fresh: boolean): Promise<void> {
  await target();
  const steps = fresh || !state.capture ? 2 : 1;
  const cap = fresh || !state.capture ? await capture([1, steps]) : state.capture;
  state.goal = ($("#goal") as HTMLInputElement).value.trim();
  busy(state.settings.backendUrl ? "ranking with the backend…" : "ranking in the extension…", [steps, steps]);
  const out = await rank(cap, state.goal, state.settings);
  state.snapshot = out.result;
  showMode(out.mode, out.note);
  renderMap(state.snapshot, mapHandlers);
  if (state.overlay) await drawOverlay();
  done(`Ranked ${out.result.elements.length} of ${cap.raw_elements.length} elements${state.goal ? ` for “${state.goal}”` : ""}.`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

const scroll = (): PageScroll | undefined => state.capture?.scroll;

const mapHandlers = {
  hover(box: Box | null) {
    if (!state.tab) return;
    ask({ type: "highlight", tabId: state.tab.tabId, box, scroll: scroll() }).catch(() => undefined);
  },
  select(box: Box) {
    if (!state.tab) return;
    state.selected = box.id;
    for (const li of document.querySelectorAll<HTMLElement>("#element-list li")) li.classList.toggle("active", li.dataset.id === String(box.id));
    const btn = $("#element-image") as HTMLButtonElement;
    btn.disabled = false;
    btn.textContent = `Image of #${box.id}`;
    ask({ type: "scroll-to", tabId: state.tab.tabId, box, scroll: scroll() }).catch(failed);
  },
};

async function drawOverlay(): Promise<void> {
  if (!state.tab) return;
  const boxes = state.overlay && state.snapshot ? state.snapshot.elements.map(boxOf) : null;
  const { shown } = await ask({ type: "overlay", tabId: state.tab.tabId, boxes, scroll: scroll() });
  if (state.overlay) done(`${shown} numbered boxes on the page.`);
}

async function readNow(): Promise<void> {
  const tab = await target();
  busy("extracting the readable content…", [1, 2]);
  const local = await ask({ type: "read", tabId: tab.tabId });
  busy(state.settings.backendUrl ? "converting with the backend…" : "formatting…", [2, 2]);
  const out = await readPage(tab.url, local, state.settings);
  state.read = out.result;
  showMode(out.mode, out.note);
  $("#read-title").textContent = out.result.title || "(untitled page)";
  $("#read-description").textContent = out.result.description || "";
  $("#read-description").hidden = !out.result.description;
  $("#read-content").textContent = out.result.content || "This page has no readable text.";
  $("#read-result").hidden = false;
  $("#read-empty").hidden = true;
  ($("#copy-read") as HTMLButtonElement).disabled = false;
  done(`${out.result.content.length.toLocaleString()} characters of Markdown.`);
}

function readMarkdown(r: ReadResult): string {
  return [`# ${r.title}`, r.description ? `\n> ${r.description}` : "", "", r.content].join("\n");
}

async function visualNow(): Promise<void> {
  if (!state.snapshot) await rankNow(true);
  const tab = await target();
  // The ranking may be older than what is on screen now (scrolled, resized): re-measure the
  // same elements (ids are stable) right before the screenshot, so boxes match the picture.
  // This costs nothing: the ranking is reused, only the geometry is read again.
  busy("measuring the elements…", [1, 2]);
  const fresh = await ask({ type: "collect", tabId: tab.tabId });
  const now = new Map(fresh.raw_elements.map((r) => [r.id, r.rect]));
  busy("taking the screenshot…", [2, 2]);
  const shot = await ask({ type: "screenshot", tabId: tab.tabId });
  const snap = state.snapshot!;
  const marks = snap.elements.flatMap((e) => {
    const rect = now.get(e.id);
    return rect ? [{ id: e.id, rect }] : [];
  });
  const img = await loadImage(shot.dataUrl);
  const canvas = $("#visual-canvas") as HTMLCanvasElement;
  const drawn = drawMarks(canvas, img, marks, fresh.viewport?.width ?? snap.viewport.width);
  canvas.hidden = false;
  canvas.dataset.marks = String(drawn);
  $("#visual-empty").hidden = true;
  $("#visual-info").textContent = `${drawn} of ${snap.elements.length} ranked elements are in view (numbers are the Map ids).`;
  ($("#download-visual") as HTMLButtonElement).disabled = false;
  state.shot = { dataUrl: shot.dataUrl, capture: fresh };
  ($("#share-visual") as HTMLButtonElement).disabled = !state.settings.backendUrl;
  $("#visual-link").hidden = true;
  done();
}

/** Renders the page (id undefined) or one element with html-to-image, beyond the visible part. */
async function pageImageNow(id?: number): Promise<void> {
  const tab = await target();
  busy(id === undefined ? "rendering the whole page (html-to-image)… long pages take a few seconds" : `rendering element #${id}…`);
  const { dataUrl } = await ask({ type: "page-image", tabId: tab.tabId, id });
  // Sharing sends the marked screenshot; it is no longer what the panel shows.
  state.shot = null;
  ($("#share-visual") as HTMLButtonElement).disabled = true;
  $("#visual-link").hidden = true;
  const img = await loadImage(dataUrl);
  const canvas = $("#visual-canvas") as HTMLCanvasElement;
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  canvas.getContext("2d")?.drawImage(img, 0, 0);
  canvas.hidden = false;
  delete canvas.dataset.marks;
  $("#visual-empty").hidden = true;
  $("#visual-info").textContent = `${id === undefined ? "Full page" : `Element #${id}`}, ${img.naturalWidth}×${img.naturalHeight} px.`;
  ($("#download-visual") as HTMLButtonElement).disabled = false;
  done();
}

async function shareNow(): Promise<void> {
  if (!state.shot || !state.tab) throw new Error("Take a screenshot with marks first.");
  busy("uploading the screenshot to the backend…");
  const { capture: cap, dataUrl } = state.shot;
  const res = await shareVisual(
    state.tab.url,
    { title: state.tab.title, viewport: cap.viewport, raw_elements: cap.raw_elements, pngBase64: dataUrl.slice(dataUrl.indexOf(",") + 1) },
    state.settings,
  );
  const until = res.expiresAt ? ` until ${new Date(res.expiresAt).toLocaleString()}` : "";
  const left = res.creditsRemaining !== null ? ` · ${res.creditsRemaining} credits left` : "";
  const link = $("#visual-link");
  link.replaceChildren("Link (valid", until || " 24 h", `): `, h("a", { id: "visual-url", href: res.url, target: "_blank", rel: "noopener" }, res.url), ` · ${res.elements} elements${left}`);
  link.hidden = false;
  await copyText(res.url).catch(() => undefined);
  done("Screenshot link copied.");
}

function fillSettingsForm(s: Settings): void {
  ($("#backend-url") as HTMLInputElement).value = s.backendUrl;
  ($("#api-key") as HTMLInputElement).value = s.apiKey;
  ($("#limit") as HTMLInputElement).value = String(s.limit);
}

function readSettingsForm(): Settings {
  return {
    backendUrl: ($("#backend-url") as HTMLInputElement).value,
    apiKey: ($("#api-key") as HTMLInputElement).value,
    limit: Number(($("#limit") as HTMLInputElement).value),
  };
}

function connectionResult(text: string, ok: boolean): void {
  const el = $("#connection-result");
  el.textContent = text;
  el.className = `result ${ok ? "ok" : "error"}`;
}

function showView(name: string): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>(".tabs button")) {
    b.setAttribute("aria-selected", String(b.dataset.view === name));
  }
  for (const v of document.querySelectorAll<HTMLElement>(".view")) v.hidden = v.id !== `view-${name}`;
}

function snapshotJson(): string {
  return JSON.stringify({ ...state.snapshot, goal: state.goal || undefined }, null, 2);
}

function fileStem(): string {
  const host = (state.tab && hostOf(state.tab.url).replace(/[^a-z0-9.-]/gi, "_")) || "page";
  return `sightline-${host}-${new Date().toISOString().replace(/[:.]/g, "-")}`;
}

export async function startPanel(): Promise<void> {
  state.settings = await loadSettings();
  fillSettingsForm(state.settings);
  if (!state.settings.backendUrl) showMode("local", null);

  for (const b of document.querySelectorAll<HTMLButtonElement>(".tabs button")) {
    b.addEventListener("click", () => showView(b.dataset.view ?? "map"));
  }
  $("#goal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void action(() => rankNow(false));
  });
  $("#recapture").addEventListener("click", () => void action(() => rankNow(true)));
  $("#overlay-toggle").addEventListener("change", (e) => {
    state.overlay = (e.target as HTMLInputElement).checked;
    void action(async () => {
      if (state.overlay && !state.snapshot) await rankNow(true);
      await drawOverlay();
      if (!state.overlay) done("Boxes removed from the page.");
    });
  });
  $("#copy-json").addEventListener("click", () => void action(async () => (await copyText(snapshotJson()), done("Snapshot JSON copied."))));
  $("#download-json").addEventListener("click", () => download(`${fileStem()}.json`, snapshotJson()));
  const promptNote = (p: Awaited<ReturnType<typeof formatPrompt>>) =>
    `${p.included.length} elements, ${p.tokens} tokens${p.omitted.length ? ` (${p.omitted.length} left out for the ${PROMPT_TOKEN_BUDGET}-token budget)` : ""}`;
  $("#copy-prompt").addEventListener("click", () =>
    void action(async () => {
      const p = await formatPrompt(state.snapshot!, state.goal);
      await copyText(p.text);
      done(`Agent prompt copied: ${promptNote(p)}.`);
    }),
  );
  $("#download-prompt").addEventListener("click", () =>
    void action(async () => {
      const p = await formatPrompt(state.snapshot!, state.goal);
      download(`${fileStem()}.txt`, p.text, "text/plain");
      done(`Agent prompt saved: ${promptNote(p)}.`);
    }),
  );

  $("#load-read").addEventListener("click", () => void action(readNow));
  $("#copy-read").addEventListener("click", () => void action(async () => (state.read && (await copyText(readMarkdown(state.read))), done("Markdown copied."))));

  $("#take-visual").addEventListener("click", () => void action(visualNow));
  $("#full-page").addEventListener("click", () => void action(() => pageImageNow()));
  $("#share-visual").addEventListener("click", () => void action(shareNow));
  $("#element-image").addEventListener("click", () => void action(() => pageImageNow(state.selected ?? undefined)));
  $("#download-visual").addEventListener("click", () => {
    const a = document.createElement("a");
    a.href = ($("#visual-canvas") as HTMLCanvasElement).toDataURL("image/png");
    a.download = `${fileStem()}.png`;
    a.click();
  });

  $("#settings-form").addEventListener("submit", (e) => {
    e.preventDefault();
    void action(async () => {
      state.settings = await saveSettings(readSettingsForm());
      fillSettingsForm(state.settings);
      showMode(state.settings.backendUrl ? null : "local", null);
      connectionResult(state.settings.backendUrl ? "Saved." : "Saved. No backend: local mode.", true);
    });
  });
  $("#test-connection").addEventListener("click", () =>
    void action(async () => {
      connectionResult("Testing…", true);
      try {
        const s = await saveSettings(readSettingsForm());
        state.settings = s;
        const res = await testConnection(s);
        connectionResult(res.message, true);
        showMode("api", null);
      } catch (err) {
        connectionResult(err instanceof Error ? err.message : String(err), false);
      }
    }),
  );

  startAgentPanel({ tabId: () => state.tab?.tabId ?? null, tabUrl: () => state.tab?.url ?? "" });

  // As a real side panel, follow the tab the person switches to; in any case notice when the
  // tab moves to another page.
  if (fixedTabId === undefined) browser.tabs.onActivated.addListener(() => void target().catch(() => undefined));
  browser.tabs.onUpdated.addListener((id, info) => {
    if (id === state.tab?.tabId && info.status === "complete" && !running) void target().catch(() => undefined);
  });
  await target().catch(failed);
  // Every control is wired and the tab is known: what automation driving the panel waits for.
  document.body.dataset.ready = "true";
}
