// One action, one flow, for every backend: locate the element by id (stale → error, never a
// guess), act with trusted input, and tell what happened (navigated / dom_changed / nothing).
import { checkNavigableUrl, type ActionResult, type AgentAction } from "../core/actions.js";
import { AgentError } from "../core/errors.js";
import { isNavigationError, type PageDriver } from "./driver.js";
import type { TargetPoint } from "./page-calls.js";

export interface PerformOptions {
  /** How long to wait for a first effect before answering nothing_changed. Default 1000 ms. */
  settleMs?: number;
  /** Quiet time after the last change before answering dom_changed. Default 150 ms. */
  quietMs?: number;
}

async function locate(driver: PageDriver, id: number): Promise<TargetPoint> {
  const t = await driver.call("locate", { id });
  if (!t.found) throw new AgentError("stale", `element [${id}] is no longer on the page`, { id });
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
  }
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
  const method = await act(driver, action);
  let changes = 0;
  try {
    changes = await driver.call("watchSettle", { token, quietMs: opts.quietMs ?? 150, maxMs: opts.settleMs ?? 1000 });
  } catch (err) {
    if (!isNavigationError(err)) throw err;
    changes = -1;
  }
  const navigated = (await driver.settleNavigation(doc)) || changes < 0;
  const url = await driver.url();
  if (navigated || url !== beforeUrl) return { outcome: "navigated", url, method, mutations: 0 };
  return { outcome: changes > 0 ? "dom_changed" : "nothing_changed", url, method, mutations: Math.max(0, changes) };
}
