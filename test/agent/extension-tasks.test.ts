// The tools real tasks need (issue 33) on the person's tab: real Chromium with the built
// extension, the real server and a real MCP client on POST /mcp; the person (the test) approves
// on the side panel's cards and, for a dialog, may answer Chrome's own dialog. Each task ends on
// the site's own state (the pages POST what they did to the test server).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Dialog, Page } from "playwright-core";
import { mkdtemp, rm } from "node:fs/promises";
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
  // Playwright would dismiss a dialog nobody listens for; the person reads it instead.
  page.on("dialog", (d) => void shown.push(d));
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
});
