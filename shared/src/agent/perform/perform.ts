// One action, one flow, for every backend: locate the element by id (stale → error, never a
// guess), act with trusted input, and tell what happened (navigated / dom_changed / nothing).
import { checkNavigableUrl, type ActionResult, type AgentAction } from "../core/actions.js";
import { AgentError } from "../core/errors.js";
import { staleError } from "../session/stale.js";
import { isNavigationError, type PageDriver, type RequestWatch } from "./driver.js";
import type { TargetPoint } from "./page-calls.js";

export interface PerformOptions {
  /** How long to wait for a first effect before answering nothing_changed. Default 1000 ms. */
  settleMs?: number;
  /** Quiet time after the last change before answering dom_changed. Default 150 ms. */
  quietMs?: number;
}

/**
 * The quiet that is enough when the page only took the input: no DOM mutation and no network
 * request since the action (choosing an option, a click nothing reacts to). It still covers a
 * reaction a frame or a zero timer later; a request the page starts in it is waited for, then
 * the full quiet. Only with a driver that sees requests (watchRequests).
 */
const INPUT_QUIET_MS = 50;
/**
 * Typing (and a form filled in one call) keeps the full quiet: a search box's suggestions, a
 * field's validation, a price update are commonly debounced 50-150 ms after the last key by a
 * timer alone (no mutation, no request until it fires), and the short quiet would answer first.
 */
const shortQuiet = (action: AgentAction) => action.kind !== "type" && action.kind !== "fill_form";

async function locate(driver: PageDriver, id: number): Promise<TargetPoint> {
  const t = await driver.call("locate", { id });
  if (!t.found) throw staleError(id);
  return t;
}

/** Clicks at the element's centre when that point is the element; else through the DOM. */
async function clickTarget(driver: PageDriver, t: TargetPoint): Promise<ActionResult["method"]> {
  if (t.hits) {
    await driver.click(t.x, t.y);
    return "mouse";
  }
  await driver.call("domClick", {});
  return "dom";
}

async function act(driver: PageDriver, action: AgentAction): Promise<ActionResult["method"]> {
  switch (action.kind) {
    case "click":
      return clickTarget(driver, await locate(driver, action.id));
    case "type": {
      const t = await locate(driver, action.id);
      if (!t.editable) throw new AgentError("not_actionable", `element [${action.id}] (${t.tag}) does not take text`, { id: action.id });
      const method = t.hits ? await clickTarget(driver, t) : "dom";
      const clear = action.clear !== false;
      if (!(await driver.call("focus", { select: clear }))) {
        throw new AgentError("not_actionable", `element [${action.id}] cannot take keyboard focus`, { id: action.id });
      }
      if (action.text) await driver.typeText(action.text);
      else if (clear) await driver.press("Backspace");
      if (action.submit) await driver.press("Enter");
      return method;
    }
    case "select": {
      await locate(driver, action.id);
      const r = await driver.call("selectOption", { value: action.value });
      if (!r.ok) {
        const msg = r.options.length
          ? `no option "${action.value}" in [${action.id}]; options: ${r.options.slice(0, 20).join(", ")}`
          : `element [${action.id}] is not a select`;
        throw new AgentError("not_actionable", msg, { id: action.id, options: r.options });
      }
      return "dom";
    }
    case "press":
      await driver.press(action.key);
      return "keyboard";
    case "scroll":
      if (action.id !== undefined) {
        await locate(driver, action.id); // scrolls it into view
        return "dom";
      }
      await driver.call("scrollBy", { direction: action.direction ?? "down" });
      return "dom";
    case "navigate":
      await driver.navigate(checkNavigableUrl(action.url).href);
      return "browser";
    case "back":
      await driver.back();
      return "browser";
    case "forward":
      await driver.forward();
      return "browser";
    case "hover": {
      const t = await locate(driver, action.id);
      await driver.hover(t.x, t.y);
      return "mouse";
    }
    case "drag":
      return drag(driver, action);
    case "fill_form":
      return fillForm(driver, action.fields);
    case "upload":
      // The file is on the backend's side (a folder it may read): the backend sets it itself.
      throw new AgentError("not_actionable", "this backend cannot upload files");
    case "dialog":
      // Only a backend knows its tab's dialogs (headless: Playwright's dialog events; the
      // person's tab: the debugger's): it answers this action itself, never through here.
      throw new AgentError("no_dialog", "no dialog is open on this tab");
  }
}

/** Most pixels a drag by offset may move: a slider or a card, not a walk across the screen. */
const MAX_DRAG = 5000;

async function drag(driver: PageDriver, action: Extract<AgentAction, { kind: "drag" }>): Promise<ActionResult["method"]> {
  const byOffset = action.dx !== undefined || action.dy !== undefined;
  if (byOffset === (action.to !== undefined)) throw new AgentError("bad_arguments", "give either to (an element id) or dx/dy (pixels), not both and not neither");
  if (Math.abs(action.dx ?? 0) > MAX_DRAG || Math.abs(action.dy ?? 0) > MAX_DRAG) throw new AgentError("bad_arguments", `dx and dy are at most ${MAX_DRAG} px`);
  let from = await locate(driver, action.id);
  let to: { x: number; y: number };
  if (action.to !== undefined) {
    if (action.to === action.id) throw new AgentError("bad_arguments", "to is the element being dragged");
    to = await locate(driver, action.to);
    // Bringing the drop target into view may have moved the source: locate it again (no scroll when visible).
    from = await locate(driver, action.id);
    to = await locate(driver, action.to);
  } else to = { x: from.x + (action.dx ?? 0), y: from.y + (action.dy ?? 0) };
  await driver.drag(from, to);
  return "mouse";
}

/** Every field in turn, the way the single tools do them: type, select, or click a box to the asked state. */
async function fillForm(driver: PageDriver, fields: Extract<AgentAction, { kind: "fill_form" }>["fields"]): Promise<ActionResult["method"]> {
  if (!fields.length) throw new AgentError("bad_arguments", "fields is empty");
  const seen = new Set<number>();
  for (const f of fields) {
    if (seen.has(f.id)) throw new AgentError("bad_arguments", `element [${f.id}] is given twice`);
    seen.add(f.id);
  }
  for (const f of fields) {
    const t = await locate(driver, f.id);
    if (t.tag === "select" || f.role === "combobox" || f.role === "listbox") {
      const r = await driver.call("selectOption", { value: f.value });
      if (r.ok) continue;
      if (t.tag === "select" || r.options.length) {
        throw new AgentError("not_actionable", `no option "${f.value}" in [${f.id}]; options: ${r.options.slice(0, 20).join(", ")}`, { id: f.id, options: r.options });
      }
    }
    const state = await driver.call("checkedState", {});
    if (state !== null) {
      const radio = t.inputType === "radio" || f.role === "radio";
      const want = radio || !/^(false|off|no|0|)$/i.test(f.value.trim());
      if (state !== want) await clickTarget(driver, t);
      continue;
    }
    await act(driver, { kind: "type", id: f.id, text: f.value });
  }
  return "mouse";
}

export async function performAction(driver: PageDriver, action: AgentAction, opts: PerformOptions = {}): Promise<ActionResult> {
  const doc = await driver.documentId();
  const beforeUrl = await driver.url();
  if (action.kind === "navigate" || action.kind === "back") {
    // The browser goes to another document: nothing to watch on this one (the watch cost two
    // round trips and the page agent's injection, into the old document and the new).
    const method = await act(driver, action);
    const navigated = await driver.settleNavigation(doc);
    const url = await driver.url();
    // `back` with no history goes nowhere.
    const outcome = navigated || url !== beforeUrl || action.kind === "navigate" ? "navigated" : "nothing_changed";
    return { outcome, url, method, mutations: 0 };
  }
  const token = await driver.call("watchStart", {});
  const requests = driver.watchRequests?.();
  try {
    const method = await act(driver, action);
    return await outcome(driver, doc, beforeUrl, method, await settle(driver, token, requests, opts, shortQuiet(action)));
  } finally {
    requests?.stop();
  }
}

/** Waits for the page to be quiet after an action: its change count, or -1 when it navigated. */
async function settle(driver: PageDriver, token: string, requests: RequestWatch | undefined, opts: PerformOptions, short: boolean): Promise<number> {
  const quietMs = opts.quietMs ?? 150;
  const maxMs = opts.settleMs ?? 1000;
  const t0 = Date.now();
  try {
    if (!requests) return await driver.call("watchSettle", { token, quietMs, maxMs });
    const changes = await driver.call("watchSettle", { token, quietMs, maxMs, ...(short ? { inputQuietMs: INPUT_QUIET_MS } : {}), keep: true });
    if (requests.started() === 0) return changes;
    // The page asked the network for something: its reaction comes with the answer.
    await requests.idle(Math.max(0, maxMs - (Date.now() - t0)));
    return await driver.call("watchSettle", { token, quietMs, maxMs: Math.max(quietMs, maxMs - (Date.now() - t0)) });
  } catch (err) {
    if (!isNavigationError(err)) throw err;
    return -1;
  }
}

async function outcome(driver: PageDriver, doc: string, beforeUrl: string, method: ActionResult["method"], changes: number): Promise<ActionResult> {
  const navigated = (await driver.settleNavigation(doc)) || changes < 0;
  const url = await driver.url();
  if (navigated || url !== beforeUrl) return { outcome: "navigated", url, method, mutations: 0 };
  return { outcome: changes > 0 ? "dom_changed" : "nothing_changed", url, method, mutations: Math.max(0, changes) };
}
