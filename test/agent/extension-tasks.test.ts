// The tools real tasks need (issue 33) on the person's tab: real Chromium with the built
// extension, the real server and a real MCP client on POST /mcp; the person (the test) approves
// on the side panel's cards and, for a dialog, may answer Chrome's own dialog. Each task ends on
// the site's own state (the pages POST what they did to the test server).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Dialog, Page } from "playwright-core";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";
import { httpClient, idOf, textOf, type McpClient } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

let site: AgentSite;
let sl: Sightline;
let dataDir: string;
let ext: ExtensionBrowser;
let page: Page;
let panel: Page;
let mcp: McpClient;
/** Dialogs Chrome shows the person on the shared tab (kept open: the test is the person). */
const shown: Dialog[] = [];

const observe = observeConfig({ allowPrivateHosts: "127.0.0.1" });
type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "sightline-agent-tasks-"));
  [site, sl, ext] = await Promise.all([serveAgentSite(), startSightline({ dataDir, config: { observe } }), launchWithExtension()]);
  const key = await sl.createKey(200);
  page = ext.context.pages()[0] ?? (await ext.context.newPage());
  // Playwright would dismiss a dialog nobody listens for; the person reads it instead (on
  // every tab: the agent opens some).
  page.on("dialog", (d) => void shown.push(d));
  ext.context.on("page", (p) => void p.on("dialog", (d) => void shown.push(d)));
  await page.goto(site.url("/tasks/delete.html"));
  await ext.clickAction(page);
  const tabId = await ext.tabIdOf(page);
  panel = await ext.openPanel(tabId);
  await saveBackendSettings(panel, sl.origin, key);
  await panel.check("#share-toggle");
  await panel.waitForSelector(`#agent-conn[data-status="connected"]`, { timeout: 20_000 });
  mcp = await httpClient(sl.origin, key);
});

afterAll(async () => {
  await mcp?.close();
  await ext?.close();
  await sl?.close();
  await site?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

afterEach(async () => {
  for (const b of await panel.locator(".approval button.reject").all()) await b.click().catch(() => undefined);
});

async function decide(summary: RegExp, how: "approve" | "reject" = "approve"): Promise<string> {
  const card = panel.locator(".approval").first();
  await card.waitFor({ timeout: 20_000 });
  const text = (await card.locator(".approval-summary").textContent()) ?? "";
  expect(text).toMatch(summary);
  await card.locator(`button.${how}`).click();
  await panel.waitForFunction((t) => ![...document.querySelectorAll(".approval-summary")].some((e) => e.textContent === t), text);
  return text;
}

async function withApproval(call: Promise<Awaited<ReturnType<McpClient["call"]>>>, summary: RegExp, how: "approve" | "reject" = "approve") {
  const [r, line] = await Promise.all([call, decide(summary, how)]);
  return Object.assign(r, { line });
}

/** The Playwright page of a tab the agent opened. */
async function pageAt(url: string): Promise<Page> {
  await expect.poll(() => ext.context.pages().some((p) => p.url() === url), { timeout: 10_000 }).toBe(true);
  return ext.context.pages().find((p) => p.url() === url)!;
}

async function reported(task: string): Promise<Record<string, string> | undefined> {
  for (let i = 0; i < 50; i++) {
    const r = site.submissions.filter((s) => s.task === task).at(-1);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  return undefined;
}

describe("issue 33 tools on the person's tab", () => {
  it("a delete behind confirm(): the click says so, accepting is sensitive and approved, the item is deleted", async () => {
    let text = textOf(await mcp.call("snapshot", { goal: "delete item 42" }));
    const click = await withApproval(mcp.call("click", { id: idOf(text, /"Delete item"/) }), /^Click 'Delete item'/);
    expect(click.isError, textOf(click)).toBeFalsy();
    expect(structured(click).outcome).toBe("dialog");
    expect(structured(click).dialog).toEqual({ type: "confirm", message: "Delete item 42?" });
    // The person sees it too: Chrome shows the dialog on the tab.
    await expect.poll(() => shown.at(-1)?.message(), { timeout: 10_000 }).toBe("Delete item 42?");
    const snap = await mcp.call("snapshot", {});
    expect(textOf(snap)).toMatch(/^dialog_open: a confirm dialog "Delete item 42\?" is open/);

    const accept = await withApproval(mcp.call("dialog", { accept: true }), /^Accept the confirm dialog 'Delete item 42\?', a sensitive action/);
    expect(accept.isError, textOf(accept)).toBeFalsy();
    expect(structured(accept).outcome).toBe("dom_changed");
    expect(await reported("delete")).toMatchObject({ result: "deleted" });

    // A prompt, answered by the agent with its text.
    text = textOf(await mcp.call("snapshot", { goal: "rename item 43" }));
    await panel.check("#allow-here"); // act runs without asking on this site; sensitive still asks
    const rename = await mcp.call("click", { id: idOf(text, /"Rename item 43"/) });
    expect(structured(rename).dialog).toMatchObject({ type: "prompt", default_value: "Item 43" });
    expect(structured(await mcp.call("dialog", { accept: true, text: "Spare parts" })).outcome).toBe("dom_changed");
    expect(await reported("rename")).toMatchObject({ result: "Spare parts" });
  });

  it("the person may answer the dialog themselves: the agent then hears there is none", async () => {
    const text = textOf(await mcp.call("snapshot", { goal: "show notice" }));
    const before = shown.length;
    const notify = await mcp.call("click", { id: idOf(text, /"Show notice"/) });
    expect(structured(notify).dialog).toEqual({ type: "alert", message: "Your items are saved." });
    await expect.poll(() => shown.length, { timeout: 10_000 }).toBe(before + 1);
    await shown.at(-1)!.accept(); // the person presses OK on Chrome's dialog
    expect(await reported("notify")).toMatchObject({ result: "read" });
    await expect.poll(async () => textOf(await mcp.call("dialog", { accept: true }))).toMatch(/^no_dialog: /);
    expect((await mcp.call("snapshot", {})).isError).toBeFalsy();
  });

  it("hover opens a hover-only menu; drag moves a pointer card and a native card, and a slider", async () => {
    await mcp.call("navigate", { url: site.url("/tasks/menu.html") });
    let text = textOf(await mcp.call("snapshot", { goal: "choose laptops" }));
    const hover = await mcp.call("hover", { id: idOf(text, /"Products"/) });
    expect(hover.isError, textOf(hover)).toBeFalsy();
    expect(textOf(hover)).toMatch(/\+ \[\d+\] link "Laptops"/);
    text = textOf(await mcp.call("snapshot", { goal: "choose laptops" }));
    await mcp.call("click", { id: idOf(text, /link "Laptops"/) });
    expect(await reported("menu")).toMatchObject({ result: "laptops" });

    await mcp.call("navigate", { url: site.url("/tasks/kanban.html") });
    text = textOf(await mcp.call("snapshot", { goal: "move cards to done" }));
    const done = idOf(text, /"Done"/);
    site.submissions.length = 0;
    expect((await mcp.call("drag", { id: idOf(text, /"Card: Write report"/), to: done })).isError).toBeFalsy();
    expect(await reported("kanban")).toMatchObject({ card: "c1", column: "done" });
    site.submissions.length = 0;
    expect((await mcp.call("drag", { id: idOf(text, /"Card: Call Bob"/), to: done })).isError).toBeFalsy();
    expect(await reported("kanban")).toMatchObject({ card: "c2", column: "done" });
    const slider = textOf(await mcp.call("snapshot", { goal: "set the max price" }));
    await mcp.call("drag", { id: idOf(slider, /slider|"Max price"/), dx: 100 });
    const v = Number((await reported("slider"))?.value);
    expect(v).toBeGreaterThan(600);
    expect(v).toBeLessThan(900);
  });

  it("fill_form: one approval card lists every value, the password masked; the site receives them", async () => {
    await mcp.call("navigate", { url: site.url("/tasks/apply.html") });
    const text = textOf(await mcp.call("snapshot", { goal: "apply for the job" }));
    site.submissions.length = 0;
    const fill = await withApproval(
      mcp.call("fill_form", {
        fields: [
          { id: idOf(text, /"Full name"/), value: "Ada Lovelace" },
          { id: idOf(text, /"Email"/), value: "ada@example.com" },
          { id: idOf(text, /"Password"/), value: "n0t-shown" },
          { id: idOf(text, /"Country"/), value: "Germany" },
          { id: idOf(text, /radio "Part time"/), value: "true" },
          { id: idOf(text, /"Send me job news"/), value: "false" },
          { id: idOf(text, /"I accept the terms"/), value: "true" },
        ],
      }),
      /^Fill 7 fields: Full name \[\d+\] = 'Ada Lovelace'; Email \[\d+\] = 'ada@example\.com'; Password \[\d+\] = •+; Country \[\d+\] = 'Germany'; .*Part time \[\d+\] chosen; .*Send me job news \[\d+\] unticked; .*I accept the terms \[\d+\] ticked, a sensitive action/,
    );
    expect(fill.isError, textOf(fill)).toBeFalsy();
    expect(fill.line).not.toContain("n0t-shown");
    expect(JSON.stringify(await panel.evaluate(() => document.body.innerText))).not.toContain("n0t-shown");
    await withApproval(mcp.call("click", { id: idOf(text, /"Send application"/) }), /^Click 'Send application'/);
    expect(await reported("apply")).toEqual({ task: "apply", name: "Ada Lovelace", email: "ada@example.com", password: "n0t-shown", country: "de", contract: "part", terms: "yes" });
  });

  it("upload: the file comes from the agent (inline or the server's folder), the card names it and its size, the site has it", async () => {
    await mcp.call("navigate", { url: site.url("/tasks/apply.html") });
    const text = textOf(await mcp.call("snapshot", { goal: "attach the CV" }));
    const cv = idOf(text, /"Your CV"/);
    site.submissions.length = 0;
    const body = "Ada Lovelace\nAnalyst, Engine No. 1\n";
    const size = Buffer.byteLength(body);
    const up = await withApproval(
      mcp.call("upload", { id: cv, path: "ada-cv.txt", content: Buffer.from(body).toString("base64") }),
      new RegExp(`^Upload 'ada-cv\\.txt' \\(${size} B\\) into 'Your CV' \\[\\d+\\], a sensitive action: it sends a file to the site`),
    );
    expect(up.isError, textOf(up)).toBeFalsy();
    expect(await reported("cv")).toEqual({ task: "cv", name: "ada-cv.txt", size: String(size), text: body });
    // The site's own page says so too.
    expect(await page.locator("#cv-status").textContent()).toBe("attached ada-cv.txt");
    // The bytes are not logged or shown: the panel names the file only.
    expect(await panel.evaluate(() => document.body.innerText)).not.toContain(Buffer.from(body).toString("base64"));

    // A file of the server's upload folder, read by the server and sent over the bridge.
    const folder = join(dataDir, "uploads");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "cv.pdf"), "%PDF-1.4 tiny");
    await writeFile(join(dataDir, "secret.txt"), "not yours");
    process.env.SIGHTLINE_UPLOAD_DIR = folder;
    try {
      site.submissions.length = 0;
      const byPath = await withApproval(mcp.call("upload", { id: cv, path: "cv.pdf" }), /^Upload 'cv\.pdf' \(13 B\) into 'Your CV'/);
      expect(byPath.isError, textOf(byPath)).toBeFalsy();
      expect(await reported("cv")).toMatchObject({ name: "cv.pdf", size: "13" });
      // Refused before the person is asked: no card comes.
      expect(textOf(await mcp.call("upload", { id: cv, path: "../secret.txt" }))).toMatch(/^bad_arguments: "\.\.\/secret\.txt" is outside the upload folder/);
      expect(textOf(await mcp.call("upload", { id: cv, path: "nope.pdf" }))).toMatch(/^bad_arguments: no file "nope\.pdf"/);
    } finally {
      delete process.env.SIGHTLINE_UPLOAD_DIR;
    }
    expect(textOf(await mcp.call("upload", { id: cv, path: "x.txt", content: "not base64!" }))).toMatch(/^bad_arguments: content is not base64/);
    expect(textOf(await mcp.call("upload", { id: 99999, path: "x.txt", content: "eA==" }))).toMatch(/^unknown_id: /);
    expect(await panel.locator(".approval").count()).toBe(0);
    // An element that opens no chooser: said so, after the card.
    const wrong = await withApproval(mcp.call("upload", { id: idOf(text, /"Full name"/), path: "x.txt", content: "eA==" }), /^Upload 'x\.txt'/);
    expect(textOf(wrong)).toMatch(/^not_actionable: element \[\d+\] \(input text\) opened no file chooser/);
  });

  it("tabs: a link's new tab is named and joins; tab_open, tab_select, tab_close of the agent's tabs only; a dialog on a tab without the debugger never hangs", async () => {
    const mine = await ext.tabIdOf(page);
    await panel.check("#allow-here"); // act runs without asking on this site (as after the first test)
    await mcp.call("navigate", { url: site.url("/tasks/links.html") });
    let text = textOf(await mcp.call("snapshot", { goal: "open the invoice" }));
    const click = await mcp.call("click", { id: idOf(text, /"Open the invoice"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    const opened = structured(click).opened as { tab: string; url: string }[];
    expect(opened).toEqual([{ tab: expect.stringMatching(/^b\d+\.\d+$/), url: site.url("/tasks/invoice.html") }]);
    expect(textOf(click)).toMatch(new RegExp(`opened a new tab ${opened[0].tab.replace(".", "\\.")} .*invoice\\.html`));
    // Chrome gives the extension no access to a new tab until the person clicks Sightline's
    // toolbar button there (activeTab; no host permissions at install): until then the agent hears so.
    expect(textOf(await mcp.call("snapshot", { tab: opened[0].tab }))).toMatch(/^failed: Sightline has no access to this tab yet/);
    await ext.clickAction(await pageAt(site.url("/tasks/invoice.html")));
    const invoice = textOf(await mcp.call("snapshot", { tab: opened[0].tab, goal: "mark as paid" }));
    site.submissions.length = 0;
    await mcp.call("click", { tab: opened[0].tab, id: idOf(invoice, /"Mark as paid"/) });
    expect(await reported("invoice")).toMatchObject({ result: "paid" });

    // tab_open: a new tab beside the agent's, in front, shared.
    const made = await mcp.call("tab_open", { url: site.url("/tasks/settings.html") });
    expect(made.isError, textOf(made)).toBeFalsy();
    const settings = structured(made).tab as string;
    expect(structured(made)).toMatchObject({ url: site.url("/tasks/settings.html"), active: true });
    let tabs = structured(await mcp.call("tabs")).tabs as { tab: string; active: boolean }[];
    expect(tabs.find((t) => t.active)?.tab).toBe(settings);
    expect(tabs).toHaveLength(3);

    await ext.clickAction(await pageAt(site.url("/tasks/settings.html")));
    // No debugger on this tab yet: a scroll (never asked) whose page opens an alert answers, not hangs.
    text = textOf(await mcp.call("snapshot", { goal: "read the terms" }));
    const before = shown.length;
    const t0 = Date.now();
    const scroll = await mcp.call("scroll", { id: idOf(text, /"I have read the terms"/) });
    expect(textOf(scroll)).toMatch(/^dialog_open: the page is not answering: a JavaScript dialog \(alert, confirm or prompt\) is probably open/);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(textOf(await mcp.call("snapshot", {}))).toMatch(/^dialog_open: the page is not answering/);
    await expect.poll(() => shown.length, { timeout: 10_000 }).toBe(before + 1);
    expect(shown.at(-1)!.message()).toBe("You reached the end of the terms.");
    await shown.at(-1)!.accept(); // the person presses OK
    expect(await reported("terms-end")).toMatchObject({ result: "warned" });
    text = textOf(await mcp.call("snapshot", { goal: "choose the theme" }));
    // select attaches the debugger first: the alert its change handler opens is seen, with its text.
    const sel = await mcp.call("select", { id: idOf(text, /"Theme"/), value: "Dark" });
    expect(sel.isError, textOf(sel)).toBeFalsy();
    expect(structured(sel).dialog).toEqual({ type: "alert", message: "Theme changed to dark" });
    expect((await mcp.call("dialog", { accept: true })).isError).toBeFalsy();
    expect(await reported("theme")).toMatchObject({ result: "dark" });

    // The person's own tab is never closed by the agent.
    const personal = tabs.find((t) => t.tab.endsWith(`.${mine}`))!.tab;
    expect(textOf(await mcp.call("tab_close", { tab: personal }))).toMatch(/^not_actionable: tab \d+ is one the person opened/);
    expect(page.isClosed()).toBe(false);
    const back = await mcp.call("tab_select", { tab: personal });
    expect(textOf(back)).toMatch(new RegExp(`^${personal.replace(".", "\\.")} \\(active\\)`, "m"));
    await expect.poll(() => page.evaluate(() => document.visibilityState)).toBe("visible");
    for (const t of [settings, opened[0].tab]) {
      const closed = await mcp.call("tab_close", { tab: t });
      expect(closed.isError, textOf(closed)).toBeFalsy();
    }
    tabs = structured(await mcp.call("tabs")).tabs as { tab: string; active: boolean }[];
    expect(tabs.map((t) => t.tab)).toEqual([personal]);
    expect(textOf(await mcp.call("tab_open", { url: "file:///etc/passwd" }))).toMatch(/^bad_url: /);
  }, 120_000);

  it("find and forward through the extension", async () => {
    await panel.check("#allow-here");
    await mcp.call("navigate", { url: site.url("/tasks/big.html") });
    site.submissions.length = 0;
    const f = await mcp.call("find", { text: "export invoices" });
    expect(f.isError, textOf(f)).toBeFalsy();
    expect(textOf(f)).toMatch(/^1 element matches "export invoices":\n\[\d+\] button "Export invoices as CSV"/);
    expect(textOf(f).length).toBeLessThan(400);
    await mcp.call("click", { id: idOf(textOf(f), /"Export invoices as CSV"/) });
    expect(await reported("export")).toMatchObject({ result: "csv" });
    expect(textOf(await mcp.call("find", { text: "no such words here" }))).toBe('nothing on the page matches "no such words here"');

    await mcp.call("navigate", { url: site.url("/tasks/menu.html") });
    expect(structured(await mcp.call("back")).url).toBe(site.url("/tasks/big.html"));
    const fwd = await mcp.call("forward");
    expect(fwd.isError, textOf(fwd)).toBeFalsy();
    expect(structured(fwd)).toMatchObject({ outcome: "navigated", url: site.url("/tasks/menu.html") });
  }, 90_000);
});
