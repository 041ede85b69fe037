// Files on the headless backend (issue 33): an upload takes a file only from the folder the
// person named (SIGHTLINE_UPLOAD_DIR, or the backend's uploadDir), never from anywhere else on
// the machine: a page that talks the agent into "attach ~/.ssh/id_rsa" gets a refusal. The file
// is set the way a person would: a trusted click on the file input (or its label/button) opens
// the file chooser, which Playwright answers with the file.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, sep } from "node:path";
import type { Page } from "playwright-core";
import type { ActionResult } from "../../core/actions.js";
import { AgentError } from "../../core/errors.js";
import type { PlaywrightDriver } from "./driver.js";

/** How long a click may take to open the file chooser. */
const CHOOSER_MS = 5_000;

/** The file `path` names inside `dir` (relative to it, or absolute within it), checked to exist. */
export async function uploadFile(dir: string | undefined, path: string): Promise<{ path: string; size: number }> {
  if (!dir) throw new AgentError("bad_arguments", "uploads are off: start the server with SIGHTLINE_UPLOAD_DIR set to the folder the agent may upload from, or send the file's bytes as content (base64)");
  const root = await realpath(dir).catch(() => {
    throw new AgentError("failed", `the upload folder ${dir} (SIGHTLINE_UPLOAD_DIR) does not exist`);
  });
  const asked = isAbsolute(path) ? path : join(root, path);
  // realpath: a symlink inside the folder that points out of it is outside too.
  const real = await realpath(asked).catch(() => {
    throw new AgentError("bad_arguments", `no file "${path}" in the upload folder`);
  });
  if (real !== root && !real.startsWith(root + sep)) {
    throw new AgentError("bad_arguments", `"${path}" is outside the upload folder; only files in SIGHTLINE_UPLOAD_DIR can be uploaded`);
  }
  const st = await stat(real);
  if (!st.isFile()) throw new AgentError("bad_arguments", `"${path}" is not a file`);
  return { path: real, size: st.size };
}

const intercepting = new WeakSet<Page>();

/**
 * Playwright turns file-chooser interception on when a page first has a `filechooser` listener,
 * without waiting for it; the click goes to CDP directly, so it could open the native chooser
 * first (no event, "opened no file chooser"). A lasting listener, and one round trip through
 * the page's channel after adding it, make interception certain before any click.
 */
async function interceptChoosers(page: Page): Promise<void> {
  if (intercepting.has(page)) return;
  page.on("filechooser", () => undefined);
  await page.evaluate(() => 0);
  intercepting.add(page);
}

/** Clicks element `id` (a file input, or what opens one) and gives the chooser `file`. */
export async function performUpload(page: Page, driver: PlaywrightDriver, id: number, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<ActionResult> {
  const t = await driver.call("locate", { id });
  if (!t.found) throw new AgentError("stale", `element [${id}] is no longer on the page`, { id });
  await interceptChoosers(page);
  const token = await driver.call("watchStart", {});
  const chooser = page.waitForEvent("filechooser", { timeout: CHOOSER_MS });
  chooser.catch(() => undefined);
  if (t.hits) await driver.click(t.x, t.y);
  else await driver.call("domClick", {});
  const fc = await chooser.catch(() => {
    throw new AgentError("not_actionable", `element [${id}] (${t.tag}${t.inputType ? ` ${t.inputType}` : ""}) opened no file chooser; give the id of a file input or of the button that opens one`, { id });
  });
  await fc.setFiles(file);
  const changes = await driver.call("watchSettle", { token, quietMs: 150, maxMs: 1000 }).catch(() => 0);
  return { outcome: changes > 0 ? "dom_changed" : "nothing_changed", url: page.url(), method: t.hits ? "mouse" : "dom", mutations: Math.max(0, changes) };
}
