// JavaScript dialogs on a headless tab (issue 33). Without a listener Playwright dismisses every
// dialog at once, so a confirm() guarding a delete answered "no" and the agent never knew. Here
// a dialog stays open until the agent answers it with the `dialog` tool; meanwhile the page is
// blocked (its scripts wait in alert/confirm/prompt), so:
// - an action that opens one answers at once with outcome "dialog" and the dialog's type and
//   text, instead of hanging in an input event or a page call the dialog blocks;
// - every other call on the tab is refused with `dialog_open` (it would hang too);
// - answering it lets the blocked action finish, and the answer is that action's outcome.
import type { Dialog, Page } from "playwright-core";
import type { ActionResult, DialogInfo } from "../../core/actions.js";
import { AgentError } from "../../core/errors.js";
import { isNavigationError } from "../../perform/driver.js";

/** How long an action the dialog held may take to finish once the dialog is answered. */
const AFTER_ANSWER_MS = 15_000;

export function dialogOpenError(d: DialogInfo): AgentError {
  const text = d.message ? ` "${d.message.slice(0, 300)}"` : "";
  return new AgentError("dialog_open", `a ${d.type} dialog${text} is open and blocks the page; answer it with the dialog tool (accept or dismiss) first`, { dialog: d });
}

function infoOf(d: Dialog): DialogInfo {
  const type = d.type() as DialogInfo["type"];
  return { type, message: d.message(), ...(type === "prompt" ? { default_value: d.defaultValue() } : {}) };
}

export class TabDialogs {
  private open: { info: DialogInfo; dialog: Dialog } | null = null;
  /** The action the open dialog interrupted, still running in the background. */
  private pending: Promise<ActionResult> | null = null;
  private waiters: ((d: DialogInfo) => void)[] = [];

  constructor(private readonly page: Page) {
    page.on("dialog", (dialog) => {
      this.open = { info: infoOf(dialog), dialog };
      for (const w of this.waiters.splice(0)) w(this.open.info);
    });
  }

  /** The dialog open now, if any. */
  info(): DialogInfo | null {
    return this.open?.info ?? null;
  }

  /** Throws dialog_open while a dialog blocks the page. */
  refuse(): void {
    if (this.open) throw dialogOpenError(this.open.info);
  }

  private nextDialog(): { promise: Promise<DialogInfo>; cancel(): void } {
    let resolve!: (d: DialogInfo) => void;
    const promise = new Promise<DialogInfo>((r) => (resolve = r));
    this.waiters.push(resolve);
    return { promise, cancel: () => (this.waiters = this.waiters.filter((w) => w !== resolve)) };
  }

  /** A page call that a dialog would block: refused before, and given up on (dialog_open) when one opens meanwhile. */
  async guard<T>(run: () => Promise<T>): Promise<T> {
    this.refuse();
    const next = this.nextDialog();
    const work = run();
    try {
      return await Promise.race([work, next.promise.then((d) => Promise.reject(dialogOpenError(d)))]);
    } catch (err) {
      if (this.open) void work.catch(() => undefined);
      throw err;
    } finally {
      next.cancel();
    }
  }

  /** Runs an action; when a dialog opens before it is done, answers "dialog" and lets it finish later. */
  async run(perform: () => Promise<ActionResult>): Promise<ActionResult> {
    this.refuse();
    const next = this.nextDialog();
    const work = perform();
    try {
      const first = await Promise.race([work.then((r) => ({ r })), next.promise.then((d) => ({ d }))]);
      if ("r" in first) return first.r;
      this.pending = work;
      void work.catch(() => undefined);
      return { outcome: "dialog", url: this.page.url(), method: "browser", mutations: 0, dialog: first.d };
    } finally {
      next.cancel();
    }
  }

  /**
   * Accepts (with a prompt's text) or dismisses the open dialog. The answer is what the action
   * it interrupted did in the end, or, with no such action, what `settle` sees.
   */
  async answer(accept: boolean, text: string | undefined, settle: () => Promise<ActionResult>): Promise<ActionResult> {
    const open = this.open;
    if (!open) throw new AgentError("no_dialog", "no dialog is open on this tab");
    if (text !== undefined && open.info.type !== "prompt") throw new AgentError("bad_arguments", `text answers a prompt; this dialog is a ${open.info.type}`);
    const pending = this.pending;
    this.open = null;
    this.pending = null;
    const next = this.nextDialog();
    try {
      if (accept) await open.dialog.accept(text);
      else await open.dialog.dismiss();
      const finished = pending
        ? pending.catch((err: unknown): ActionResult => {
            if (err instanceof AgentError) throw err;
            return { outcome: isNavigationError(err) ? "navigated" : "nothing_changed", url: this.page.url(), method: "browser", mutations: 0 };
          })
        : settle();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AgentError("timeout", `the dialog was answered, but the page did not settle within ${AFTER_ANSWER_MS / 1000} s`)), AFTER_ANSWER_MS);
      });
      try {
        const first = await Promise.race([finished.then((r) => ({ r })), next.promise.then((d) => ({ d })), late]);
        if ("r" in first) return first.r;
        // The answer led to another dialog (an alert after a confirm): the action waits again.
        this.pending = pending ?? finished;
        return { outcome: "dialog", url: this.page.url(), method: "browser", mutations: 0, dialog: first.d };
      } finally {
        clearTimeout(timer);
      }
    } finally {
      next.cancel();
    }
  }
}
