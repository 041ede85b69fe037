// The tools real tasks need (issue 33) on the person's tab, on the debugger's side: JavaScript
// dialogs (seen with Page.javascriptDialogOpening, answered with Page.handleJavaScriptDialog),
// trusted hover and drag (Input.dispatchMouseEvent; native drag and drop through
// Input.setInterceptDrags / dispatchDragEvent), and what the approval card needs of a dialog or
// a fill_form. The supervisor calls in here at a few marked hooks.
//
// A dialog blocks the page's scripts, so everything that runs in the page (the page agent, the
// collector) would hang behind it: an action that opens one answers outcome "dialog" at once, and
// every other call on the tab is refused with dialog_open until it is answered, by the agent
// (the dialog tool, approved like any action) or by the person on Chrome's own dialog.
import { browser } from "wxt/browser";
import { AgentError, fieldIsSecret, type ActionResult, type AgentAction, type DialogInfo } from "@sightline/shared/agent/core";
import { isNavigationError, performAction, type PageDriver, type TargetFacts } from "@sightline/shared/agent/perform";
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
export function refuseWhileDialog(tabId: number, action: AgentAction | null): void {
  const d = dialogOf(tabId);
  if (d && action?.kind !== "dialog") throw dialogOpenError(d);
}

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

/** Actions that need the debugger (trusted input, or dialogs which only it can see and answer). */
export function needsDebugger(a: AgentAction): boolean {
  return a.kind === "hover" || a.kind === "drag" || a.kind === "fill_form" || a.kind === "dialog";
}

/** Hook: what the approval card needs beyond the target's facts: the open dialog, each field's facts. */
export async function riskExtras(tabId: number, driver: PageDriver, action: AgentAction): Promise<{ dialog?: DialogInfo | null; fieldFacts?: Map<number, TargetFacts | null>; secrets: string[] }> {
  if (action.kind === "upload") {
    // Refused before the person is asked: the file would have to come over the bridge.
    throw new AgentError("not_actionable", "upload works on the headless backend only for now; on the person's tab they can attach the file themselves");
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
export async function performOnTab(tabId: number, driver: PageDriver, action: AgentAction): Promise<ActionResult> {
  if (action.kind === "dialog") return answerDialog(tabId, driver, action);
  const next = nextDialog(tabId);
  const work = performAction(driver, action);
  try {
    const first = await Promise.race([work.then((r) => ({ r })), next.promise.then((d) => ({ d }))]);
    if ("r" in first) return first.r;
    const entry = open.get(tabId);
    if (entry) entry.pending = work;
    void work.catch(() => undefined);
    return { outcome: "dialog", url: await driver.url(), method: "browser", mutations: 0, dialog: first.d };
  } finally {
    next.cancel();
  }
}

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
