// The tools real tasks need (issue 33) on the person's tab, on the debugger's side: JavaScript
// dialogs (seen with Page.javascriptDialogOpening, answered with Page.handleJavaScriptDialog),
// trusted hover and drag (Input.dispatchMouseEvent; native drag and drop through
// Input.setInterceptDrags / dispatchDragEvent), upload (the file chooser caught, the agent's
// bytes made a File in the page), and what the approval card needs of a dialog, a fill_form or
// a file. The supervisor calls in here at a few marked hooks.
//
// A dialog blocks the page's scripts, so everything that runs in the page (the page agent, the
// collector) would hang behind it: an action that opens one answers outcome "dialog" at once, and
// every other call on the tab is refused with dialog_open until it is answered, by the agent
// (the dialog tool, approved like any action) or by the person on Chrome's own dialog.
import { browser } from "wxt/browser";
import { AgentError, fieldIsSecret, mimeOf, type ActionResult, type AgentAction, type DialogInfo } from "@sightline/shared/agent/core";
import type { UploadFile } from "@sightline/shared/agent/bridge";
import { isNavigationError, performAction, staleError, type PageDriver, type TargetFacts } from "@sightline/shared/agent/perform";
import * as cdp from "./debugger.js";

/** How long an action the dialog held may take to finish once the dialog is answered. */
const AFTER_ANSWER_MS = 15_000;

interface TabDialog {
  info: DialogInfo;
  /** The action it interrupted, still running. */
  pending: Promise<ActionResult> | null;
}

const open = new Map<number, TabDialog>();
/** Tabs whose Page domain is on (until the debugger detaches). */
const watched = new Set<number>();
const waiters = new Map<number, Set<(d: DialogInfo | null) => void>>();
let listening = false;

function notify(tabId: number, d: DialogInfo | null): void {
  for (const w of waiters.get(tabId) ?? []) w(d);
}

function listen(): void {
  if (listening) return;
  listening = true;
  browser.debugger.onEvent.addListener((source, method, params) => {
    const tabId = source.tabId;
    if (tabId === undefined) return;
    if (method === "Page.javascriptDialogOpening") {
      const p = params as { type: DialogInfo["type"]; message: string; defaultPrompt?: string };
      const info: DialogInfo = { type: p.type, message: p.message, ...(p.type === "prompt" ? { default_value: p.defaultPrompt ?? "" } : {}) };
      open.set(tabId, { info, pending: open.get(tabId)?.pending ?? null });
      notify(tabId, info);
    } else if (method === "Page.javascriptDialogClosed") {
      // Answered by the agent, or by the person on Chrome's dialog.
      open.delete(tabId);
      notify(tabId, null);
    }
  });
  browser.debugger.onDetach.addListener((source) => {
    if (source.tabId === undefined) return;
    open.delete(source.tabId);
    watched.delete(source.tabId);
  });
}

/**
 * Turns on the dialog events of an attached tab (hook: after the debugger attaches), once per
 * attach: Page.enable sent while a dialog is open detaches the debugger.
 */
export async function watchDialogs(tabId: number): Promise<void> {
  listen();
  if (watched.has(tabId)) return;
  await cdp.send(tabId, "Page.enable");
  watched.add(tabId);
}

export function dialogOf(tabId: number): DialogInfo | null {
  return open.get(tabId)?.info ?? null;
}

export function dialogOpenError(d: DialogInfo): AgentError {
  const text = d.message ? ` "${d.message.slice(0, 300)}"` : "";
  return new AgentError("dialog_open", `a ${d.type} dialog${text} is open and blocks the page; answer it with the dialog tool (accept or dismiss) first`, { dialog: d });
}

/** Hook: a call on a tab a dialog blocks is refused (it would hang); the dialog action is let through. */
export async function refuseWhileDialog(tabId: number, action: AgentAction | null): Promise<void> {
  const d = dialogOf(tabId);
  if (d && action?.kind !== "dialog") throw dialogOpenError(d);
  // A tab found not answering (watchBlocked, no debugger there): asked again, briefly, before each call.
  if (stuck.has(tabId)) {
    if (!(await answers(tabId))) throw stuckError();
    stuck.delete(tabId);
  }
}

/** Tabs whose page stopped answering during an action while no debugger saw why. */
const stuck = new Set<number>();

async function answers(tabId: number): Promise<boolean> {
  return Promise.race([
    browser.scripting.executeScript({ target: { tabId }, func: () => 1 }).then(() => true, () => true),
    new Promise<false>((r) => setTimeout(() => r(false), PROBE_MS)),
  ]);
}

const stuckError = () =>
  new AgentError(
    "dialog_open",
    "the page is not answering: a JavaScript dialog (alert, confirm or prompt) is probably open on the tab. The person can answer it; Sightline sees and answers dialogs on a tab once its debugger is attached (after the first approved click, type or select there)",
  );

function nextDialog(tabId: number): { promise: Promise<DialogInfo>; cancel(): void } {
  let w!: (d: DialogInfo | null) => void;
  const promise = new Promise<DialogInfo>((resolve) => {
    w = (d) => {
      if (d) resolve(d);
    };
  });
  let set = waiters.get(tabId);
  if (!set) waiters.set(tabId, (set = new Set()));
  set.add(w);
  return { promise, cancel: () => void waiters.get(tabId)?.delete(w) };
}

/**
 * Actions that need the debugger: trusted input, dialogs (only it can see and answer them),
 * upload (the file chooser is caught through it), and select (a page's change handler may open
 * a dialog, which only the debugger sees: without it the call would wait behind the dialog).
 */
export function needsDebugger(a: AgentAction): boolean {
  return a.kind === "hover" || a.kind === "drag" || a.kind === "fill_form" || a.kind === "dialog" || a.kind === "upload" || a.kind === "select";
}

/** Hook: what the approval card needs beyond the target's facts: the open dialog, each field's facts, a file's size. */
export async function riskExtras(
  tabId: number,
  driver: PageDriver,
  action: AgentAction,
  file?: UploadFile,
): Promise<{ dialog?: DialogInfo | null; fieldFacts?: Map<number, TargetFacts | null>; fileSize?: number; secrets: string[] }> {
  if (action.kind === "upload") {
    if (!file) throw new AgentError("bad_arguments", "the file did not come with the call (an older server?); nothing was uploaded");
    return { fileSize: file.size, secrets: [] };
  }
  if (action.kind === "dialog") {
    const dialog = dialogOf(tabId);
    if (!dialog) throw new AgentError("no_dialog", "no dialog is open on this tab");
    return { dialog, secrets: [] };
  }
  if (action.kind !== "fill_form") return { secrets: [] };
  const fieldFacts = new Map<number, TargetFacts | null>();
  for (const f of action.fields) {
    const facts = await driver.call("describe", { id: f.id });
    if (!facts) throw new AgentError("stale", `element [${f.id}] is no longer on the page`, { id: f.id });
    fieldFacts.set(f.id, facts);
  }
  return { fieldFacts, secrets: action.fields.filter((f) => fieldIsSecret(f, fieldFacts.get(f.id))).map((f) => f.value) };
}

/**
 * Hook: performs an action on the tab with dialogs in mind. A dialog the action opens answers
 * "dialog" at once; the dialog action answers it and then tells what the interrupted action did.
 */
export async function performOnTab(tabId: number, driver: PageDriver, action: AgentAction, file?: UploadFile): Promise<ActionResult> {
  if (action.kind === "dialog") return answerDialog(tabId, driver, action);
  const next = nextDialog(tabId);
  const work = action.kind === "upload" && file ? uploadOnTab(tabId, driver, action.id, file) : performAction(driver, action);
  // Without the debugger (a scroll, which never asks, on a tab no action attached it to yet) a
  // dialog is not seen: a page that stops answering is said so, not waited on until the hub's timeout.
  const blocked = watchBlocked(tabId, work);
  try {
    const first = await Promise.race([work.then((r) => ({ r })), next.promise.then((d) => ({ d })), blocked.promise]);
    if ("r" in first) return first.r;
    const entry = open.get(tabId);
    if (entry) entry.pending = work;
    void work.catch(() => undefined);
    return { outcome: "dialog", url: await driver.url(), method: "browser", mutations: 0, dialog: first.d };
  } finally {
    next.cancel();
    blocked.cancel();
  }
}

/** How long an action may run on a tab without the debugger before the page is probed. */
const PROBE_AFTER_MS = 4_000;
const PROBE_MS = 1_500;

/**
 * On a tab without the debugger: after PROBE_AFTER_MS, a trivial script is run in the page; if
 * it does not answer either, the page's thread is held (a JavaScript dialog, or a script that
 * does not end) and the action answers a clear error instead of hanging.
 */
function watchBlocked(tabId: number, work: Promise<unknown>): { promise: Promise<never>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let over = false;
  const promise = new Promise<never>((_, reject) => {
    if (cdp.isAttached(tabId)) return;
    const probe = async () => {
      if (over) return;
      const answered = await answers(tabId);
      if (over) return;
      const d = dialogOf(tabId);
      if (d) return reject(dialogOpenError(d));
      if (!answered) {
        stuck.add(tabId);
        return reject(stuckError());
      }
      timer = setTimeout(() => void probe(), PROBE_AFTER_MS);
    };
    timer = setTimeout(() => void probe(), PROBE_AFTER_MS);
  });
  promise.catch(() => undefined);
  void work.finally(() => {
    over = true;
    clearTimeout(timer);
  }).catch(() => undefined);
  return {
    promise,
    cancel: () => {
      over = true;
      clearTimeout(timer);
    },
  };
}

// ---- upload ------------------------------------------------------------------------------

/** How long a click may take to open the file chooser. */
const CHOOSER_MS = 5_000;

/**
 * Sets the agent's file into the file input the way a person would: a trusted click on the
 * input (or the button that opens it) opens the file chooser, caught with
 * Page.setInterceptFileChooserDialog (the person's own choosers are intercepted only during
 * this call). DOM.setFileInputFiles needs a path on the person's disk, which the file never
 * touches: the File is built in the page from the bytes and given to the input the chooser
 * belongs to (a DataTransfer's FileList), with the input and change events a chosen file fires.
 */
async function uploadOnTab(tabId: number, driver: PageDriver, id: number, file: UploadFile): Promise<ActionResult> {
  const t = await driver.call("locate", { id });
  if (!t.found) throw staleError(id);
  let opened: ((p: { backendNodeId?: number }) => void) | null = null;
  const chooser = new Promise<{ backendNodeId?: number }>((resolve) => (opened = resolve));
  const onEvent = (source: { tabId?: number }, method: string, params?: unknown) => {
    if (source.tabId === tabId && method === "Page.fileChooserOpened") opened?.(params as { backendNodeId?: number });
  };
  browser.debugger.onEvent.addListener(onEvent);
  await cdp.send(tabId, "Page.setInterceptFileChooserDialog", { enabled: true });
  let got: { backendNodeId?: number } | null;
  const token = await driver.call("watchStart", {});
  try {
    if (t.hits) await driver.click(t.x, t.y);
    else await driver.call("domClick", {});
    got = await Promise.race([chooser, new Promise<null>((r) => setTimeout(() => r(null), CHOOSER_MS))]);
  } finally {
    browser.debugger.onEvent.removeListener(onEvent);
    await cdp.send(tabId, "Page.setInterceptFileChooserDialog", { enabled: false }).catch(() => undefined);
  }
  if (!got) {
    throw new AgentError("not_actionable", `element [${id}] (${t.tag}${t.inputType ? ` ${t.inputType}` : ""}) opened no file chooser; give the id of a file input or of the button that opens one`, { id });
  }
  if (got.backendNodeId === undefined) throw new AgentError("not_actionable", `element [${id}] opened a file picker that is not a file input; Sightline can fill only file inputs`, { id });
  const { object } = await cdp.send<{ object: { objectId?: string } }>(tabId, "DOM.resolveNode", { backendNodeId: got.backendNodeId });
  if (!object.objectId) throw staleError(id);
  const r = await cdp.send<{ exceptionDetails?: { exception?: { description?: string } } }>(tabId, "Runtime.callFunctionOn", {
    objectId: object.objectId,
    functionDeclaration: SET_FILE,
    arguments: [{ value: file.name }, { value: mimeOf(file.name) }, { value: file.base64 }],
    awaitPromise: true,
  });
  await cdp.send(tabId, "Runtime.releaseObject", { objectId: object.objectId }).catch(() => undefined);
  if (r.exceptionDetails) throw new AgentError("failed", `the page did not take the file: ${r.exceptionDetails.exception?.description ?? "an error"}`);
  const changes = await driver.call("watchSettle", { token, quietMs: 150, maxMs: 1000 }).catch(() => 0);
  return { outcome: changes > 0 ? "dom_changed" : "nothing_changed", url: await driver.url(), method: t.hits ? "mouse" : "dom", mutations: Math.max(0, changes) };
}

/** Runs on the file input (`this`): the File from base64, set as its only file, then the events a chosen file fires. */
const SET_FILE = `function (name, type, b64) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], name, { type }));
  this.files = dt.files;
  this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  this.dispatchEvent(new Event("change", { bubbles: true }));
}`;

async function answerDialog(tabId: number, driver: PageDriver, action: Extract<AgentAction, { kind: "dialog" }>): Promise<ActionResult> {
  const entry = open.get(tabId);
  if (!entry) throw new AgentError("no_dialog", "no dialog is open on this tab (the person may have answered it)");
  if (action.text !== undefined && entry.info.type !== "prompt") throw new AgentError("bad_arguments", `text answers a prompt; this dialog is a ${entry.info.type}`);
  const pending = entry.pending;
  const next = nextDialog(tabId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await cdp.send(tabId, "Page.handleJavaScriptDialog", { accept: action.accept, ...(action.text !== undefined ? { promptText: action.text } : {}) });
    open.delete(tabId);
    const finished = pending
      ? pending.catch(async (err: unknown): Promise<ActionResult> => {
          if (err instanceof AgentError) throw err;
          return { outcome: isNavigationError(err) ? "navigated" : "nothing_changed", url: await driver.url(), method: "browser", mutations: 0 };
        })
      : settle(driver);
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AgentError("timeout", `the dialog was answered, but the page did not settle within ${AFTER_ANSWER_MS / 1000} s`)), AFTER_ANSWER_MS);
    });
    const first = await Promise.race([finished.then((r) => ({ r })), next.promise.then((d) => ({ d })), late]);
    if ("r" in first) return first.r;
    const again = open.get(tabId);
    if (again) again.pending = finished;
    return { outcome: "dialog", url: await driver.url(), method: "browser", mutations: 0, dialog: first.d };
  } finally {
    clearTimeout(timer);
    next.cancel();
  }
}

/** What a dialog answered outside any action did: the page's changes in the next second. */
async function settle(driver: PageDriver): Promise<ActionResult> {
  const doc = await driver.documentId().catch(() => "");
  const token = await driver.call("watchStart", {}).catch(() => null);
  const changes = token ? await driver.call("watchSettle", { token, quietMs: 150, maxMs: 1000 }).catch(() => -1) : -1;
  const navigated = (await driver.settleNavigation(doc)) || (token !== null && changes < 0);
  return { outcome: navigated ? "navigated" : changes > 0 ? "dom_changed" : "nothing_changed", url: await driver.url(), method: "browser", mutations: Math.max(0, changes) };
}

// ---- trusted pointer input --------------------------------------------------------------

const mouse = (tabId: number, type: string, x: number, y: number, extra: Record<string, unknown> = {}) =>
  cdp.send(tabId, "Input.dispatchMouseEvent", { type, x, y, pointerType: "mouse", ...extra });

export async function hover(tabId: number, x: number, y: number): Promise<void> {
  await mouse(tabId, "mouseMoved", x, y, { button: "none" });
}

interface DragData {
  items: { mimeType: string; data: string }[];
  dragOperationsMask: number;
}

/**
 * Press, move in steps, release. A page's own pointer/mouse handling sees the moves; a native
 * (draggable) drag is caught with setInterceptDrags and finished with dispatchDragEvent, as a
 * person's drag would end (CDP mouse events alone never start the browser's drag session).
 */
export async function drag(tabId: number, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  let data: DragData | null = null;
  const onEvent = (source: { tabId?: number }, method: string, params?: unknown) => {
    if (source.tabId === tabId && method === "Input.dragIntercepted") data = (params as { data: DragData }).data;
  };
  browser.debugger.onEvent.addListener(onEvent);
  await cdp.send(tabId, "Input.setInterceptDrags", { enabled: true });
  try {
    await mouse(tabId, "mouseMoved", from.x, from.y, { button: "none" });
    await mouse(tabId, "mousePressed", from.x, from.y, { button: "left", buttons: 1, clickCount: 1 });
    const steps = 10;
    const sx = from.x + Math.sign(to.x - from.x) * 5;
    const sy = from.y + Math.sign(to.y - from.y) * 5;
    await mouse(tabId, "mouseMoved", sx, sy, { button: "left", buttons: 1 });
    for (let i = 1; i <= steps && !data; i++) {
      await mouse(tabId, "mouseMoved", sx + ((to.x - sx) * i) / steps, sy + ((to.y - sy) * i) / steps, { button: "left", buttons: 1 });
    }
    const dragged = data as DragData | null;
    if (dragged) {
      for (const type of ["dragEnter", "dragOver", "drop"]) await cdp.send(tabId, "Input.dispatchDragEvent", { type, x: to.x, y: to.y, data: dragged });
    }
    await mouse(tabId, "mouseReleased", to.x, to.y, { button: "left", buttons: 0, clickCount: 1 });
  } finally {
    browser.debugger.onEvent.removeListener(onEvent);
    await cdp.send(tabId, "Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
  }
}
