// The issue-33 tools on elements inside an open shadow root, a same-origin iframe and a
// cross-origin iframe (another site: the frame comes from a second loopback server addressed as
// localhost, the page from 127.0.0.1), on the headless backend over stdio MCP and on the
// person's tab (real Chromium with the built extension, the real server, MCP on POST /mcp): the
// ids of the agent's snapshot work with hover, drag, fill_form, upload, find and dialogs there
// as on the page itself. Each task ends on what the frame's own site received
// (fixtures/tasks/frames.html, frame-form.html).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dialog, Page } from "playwright-core";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";
import { httpClient, idOf, stdioClient, textOf, type McpClient } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

let site: AgentSite;
let other: AgentSite;
let otherOrigin: string;
let dir: string;
let mcp: McpClient;

beforeAll(async () => {
  [site, other] = await Promise.all([serveAgentSite(), serveAgentSite()]);
  // Another site, not only another origin: Chromium puts its frame in a process of its own.
  otherOrigin = other.origin.replace("127.0.0.1", "localhost");
  dir = await mkdtemp(join(tmpdir(), "sightline-frames-"));
  await writeFile(join(dir, "receipt.txt"), "receipt 7");
  mcp = await stdioClient(["--headless"], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1,localhost", SIGHTLINE_UPLOAD_DIR: dir });
});

afterAll(async () => {
  await mcp?.close();
  await Promise.all([site?.close(), other?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function reported(from: AgentSite, task: string): Promise<Record<string, string> | undefined> {
  for (let i = 0; i < 50; i++) {
    const r = from.submissions.filter((s) => s.task === task).at(-1);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  return undefined;
}

async function ok(call: Promise<Awaited<ReturnType<McpClient["call"]>>>) {
  const r = await call;
  expect(r.isError, textOf(r)).toBeFalsy();
  return r;
}

async function open(query: string, frameSelector: string): Promise<void> {
  await ok(mcp.call("navigate", { url: site.url(`/tasks/frames.html${query}`) }));
  // The frame's form is there (a frame loads after its page).
  await ok(mcp.call("wait", { text: "Send details", timeout_ms: 10_000 }));
  void frameSelector;
}

describe("an open shadow root", () => {
  it("hover, fill_form, find and a confirm() inside it, by the snapshot's ids", async () => {
    await open("", "#same");
    const text = textOf(await mcp.call("snapshot", { goal: "apply a promo code with gift wrap" }));
    await ok(mcp.call("hover", { id: idOf(text, /"Promo help"/) }));
    expect(await reported(site, "hover-shadow")).toMatchObject({ result: "shown" });
    await ok(mcp.call("fill_form", { fields: [{ id: idOf(text, /"Promo code"/), value: "SPRING" }, { id: idOf(text, /"Gift wrap"/), value: "true" }] }));
    const found = await ok(mcp.call("find", { text: "apply promo" }));
    const click = await ok(mcp.call("click", { id: idOf(textOf(found), /"Apply promo"/) }));
    expect(structured(click).dialog).toEqual({ type: "confirm", message: "Apply the promo code?" });
    await ok(mcp.call("dialog", { accept: true }));
    expect(await reported(site, "promo")).toMatchObject({ code: "SPRING", gift: "true" });
  });
});

/** The payment form in a frame: every tool on it, ending on what its site received. */
async function payInFrame(from: AgentSite, where: string): Promise<void> {
  const text = textOf(await mcp.call("snapshot", { goal: "card holder, country, terms, receipt photo, send details", limit: 100 }));
  const fill = await ok(
    mcp.call("fill_form", {
      fields: [
        { id: idOf(text, /"Card holder"/), value: "Ada Lovelace" },
        { id: idOf(text, /"Country"/), value: "Germany" },
        { id: idOf(text, /"I accept the terms"/), value: "true" },
      ],
    }),
  );
  expect(structured(fill).outcome).not.toBe("nothing_changed");
  await ok(mcp.call("upload", { id: idOf(text, /"Receipt photo"/), path: "receipt.txt" }));
  await ok(mcp.call("hover", { id: idOf(text, /"Card details"/) }));
  expect(await reported(from, `hover-${where}`)).toMatchObject({ result: "shown" });
  await ok(mcp.call("drag", { id: idOf(text, /slider "Tip"/), dx: 90 }));
  const slid = await reported(from, `slider-${where}`);
  expect(Number(slid?.result), JSON.stringify(from.submissions)).toBeGreaterThanOrEqual(45);
  const found = await ok(mcp.call("find", { text: "send details" }));
  const click = await ok(mcp.call("click", { id: idOf(textOf(found), /"Send details"/) }));
  expect(structured(click).dialog).toEqual({ type: "confirm", message: "Send the card details?" });
  await ok(mcp.call("dialog", { accept: true }));
  expect(await reported(from, `send-${where}`)).toMatchObject({ result: "sent", holder: "Ada Lovelace", country: "de", terms: "true", photo: "receipt.txt:receipt 7" });
}

describe("iframes", () => {
  it("a form inside a same-origin iframe: fill_form, upload, hover, drag, find, confirm()", async () => {
    await open("", "#same");
    await payInFrame(site, "same");
  });

  it("a form inside a cross-origin iframe: the same tools, the same ids", async () => {
    await open(`?same=0&cross=${encodeURIComponent(otherOrigin)}`, "#cross");
    await payInFrame(other, "cross");
  });
});

describe("on the person's tab", () => {
  let sl: Sightline;
  let ext: ExtensionBrowser;
  let page: Page;
  let panel: Page;
  let client: McpClient;
  /** Chrome's dialogs on the shared tab, left for the agent to answer (Playwright would dismiss them). */
  const shown: Dialog[] = [];

  beforeAll(async () => {
    [sl, ext] = await Promise.all([startSightline({ config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1,localhost" }) } }), launchWithExtension()]);
    const key = await sl.createKey(200);
    page = ext.context.pages()[0] ?? (await ext.context.newPage());
    page.on("dialog", (d) => void shown.push(d));
    await page.goto(site.url("/tasks/frames.html"));
    await ext.clickAction(page);
    panel = await ext.openPanel(await ext.tabIdOf(page));
    await saveBackendSettings(panel, sl.origin, key);
    await panel.check("#share-toggle");
    await panel.waitForSelector(`#agent-conn[data-status="connected"]`, { timeout: 20_000 });
    await panel.check("#allow-here"); // act runs without asking here; accepting a confirm still asks
    client = await httpClient(sl.origin, key);
  });

  afterAll(async () => {
    await client?.close();
    await ext?.close();
    await sl?.close();
  });

  async function okCall(name: string, args: Record<string, unknown>) {
    const r = await client.call(name, args);
    expect(r.isError, textOf(r)).toBeFalsy();
    return r;
  }

  /** A sensitive call: the person approves it on the panel's card, which says `summary`. */
  async function approved(name: string, args: Record<string, unknown>, summary: string) {
    const answered = client.call(name, args);
    const card = panel.locator(".approval").first();
    await card.waitFor({ timeout: 20_000 });
    expect(await card.locator(".approval-summary").textContent()).toContain(summary);
    await card.locator("button.approve").click();
    const r = await answered;
    expect(r.isError, textOf(r)).toBeFalsy();
    return r;
  }

  /** Accepting a confirm is sensitive. */
  const acceptConfirm = (message: string) => approved("dialog", { accept: true }, `Accept the confirm dialog '${message}'`);

  it("an open shadow root: hover, fill_form, find and a confirm() by the snapshot's ids", async () => {
    const text = textOf(await client.call("snapshot", { goal: "apply a promo code with gift wrap" }));
    await okCall("hover", { id: idOf(text, /"Promo help"/) });
    expect(await reported(site, "hover-shadow")).toMatchObject({ result: "shown" });
    await okCall("fill_form", { fields: [{ id: idOf(text, /"Promo code"/), value: "AUTUMN" }, { id: idOf(text, /"Gift wrap"/), value: "true" }] });
    const found = await okCall("find", { text: "apply promo" });
    const click = await okCall("click", { id: idOf(textOf(found), /"Apply promo"/) });
    expect((click.structuredContent as Record<string, unknown>).dialog).toEqual({ type: "confirm", message: "Apply the promo code?" });
    await acceptConfirm("Apply the promo code?");
    expect(await reported(site, "promo")).toMatchObject({ code: "AUTUMN", gift: "true" });
  });

  it("a form inside a same-origin iframe: fill_form, hover, drag, find and a confirm()", async () => {
    site.submissions.length = 0;
    const text = textOf(await client.call("snapshot", { goal: "card holder, country, terms, send details", limit: 100 }));
    await okCall("fill_form", {
      fields: [
        { id: idOf(text, /"Card holder"/), value: "Grace Hopper" },
        { id: idOf(text, /"Country"/), value: "France" },
        { id: idOf(text, /"I accept the terms"/), value: "true" },
      ],
    });
    await okCall("hover", { id: idOf(text, /"Card details"/) });
    expect(await reported(site, "hover-same")).toMatchObject({ result: "shown" });
    await okCall("drag", { id: idOf(text, /slider "Tip"/), dx: 90 });
    expect(Number((await reported(site, "slider-same"))?.result)).toBeGreaterThanOrEqual(45);
    const found = await okCall("find", { text: "send details" });
    // Its name says "send": sensitive, asked even on a site where act runs without asking.
    const click = await approved("click", { id: idOf(textOf(found), /"Send details"/) }, "Click 'Send details'");
    expect((click.structuredContent as Record<string, unknown>).dialog).toEqual({ type: "confirm", message: "Send the card details?" });
    await acceptConfirm("Send the card details?");
    expect(await reported(site, "send-same")).toMatchObject({ result: "sent", holder: "Grace Hopper", country: "fr", terms: "true" });
  });
});
