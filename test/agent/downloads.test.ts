// Downloads (issue 33). Headless: a real MCP client over stdio (`sightline mcp --headless`)
// downloads an invoice from a fixture billing site; the file must be in the download folder with
// the site's bytes, the answer must name it and its size, it is never made executable, a name the
// site gives cannot leave the folder, and without a folder nothing is kept and the answer says
// so. The person's tab: real Chromium with the built extension, the real server and an MCP
// client on POST /mcp; the click is sensitive (the person approves it on the panel's card) and
// the answer names the file Chrome downloaded.
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";
import { httpClient, idOf, stdioClient, textOf, type McpClient } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

const FILES = fileURLToPath(new URL("./fixtures/tasks/files/", import.meta.url));
type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

let site: AgentSite;
let root: string;
let dir: string;
let mcp: McpClient;

beforeAll(async () => {
  site = await serveAgentSite();
  root = await mkdtemp(join(tmpdir(), "sightline-downloads-"));
  // A folder that does not exist yet: the backend makes it on the first download.
  dir = join(root, "downloads");
  mcp = await stdioClient(["--headless"], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1", SIGHTLINE_DOWNLOAD_DIR: dir });
});

afterAll(async () => {
  await mcp?.close();
  await site?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function billing(client: McpClient): Promise<string> {
  const nav = await client.call("navigate", { url: site.url("/tasks/billing.html") });
  expect(nav.isError, textOf(nav)).toBeFalsy();
  return textOf(await client.call("snapshot", { goal: "download the invoice" }));
}

describe("downloads on the headless backend", () => {
  it("download the invoice: the file is in the download folder with the site's bytes, and the answer names it", async () => {
    const want = await readFile(join(FILES, "invoice-7.pdf"));
    const text = await billing(mcp);
    const click = await mcp.call("click", { id: idOf(text, /"Download invoice 7"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    const saved = join(dir, "invoice-7.pdf");
    expect(structured(click).downloads).toEqual([
      { file: "invoice-7.pdf", url: site.url("/tasks/files/invoice-7.pdf"), state: "saved", path: saved, size: want.length },
    ]);
    expect(textOf(click)).toContain(`downloaded "invoice-7.pdf" (${want.length} B) to ${saved} (saved, not opened)`);
    expect(await readFile(saved)).toEqual(want);
    // The page stayed where it was: a download is not a navigation.
    expect(structured(click).url).toBe(site.url("/tasks/billing.html"));

    // Again: a new file beside it, the first one untouched.
    const again = await mcp.call("click", { id: idOf(text, /"Download invoice 7"/) });
    expect(textOf(again)).toContain(`downloaded "invoice-7 (2).pdf"`);
    expect((await readdir(dir)).sort()).toEqual(["invoice-7 (2).pdf", "invoice-7.pdf"]);
    expect(await readFile(saved)).toEqual(want);
  });

  it("a file name with folders in it stays inside the folder, and nothing downloaded is executable", async () => {
    const text = await billing(mcp);
    const click = await mcp.call("click", { id: idOf(text, /"Get the setup tool"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    const [d] = structured(click).downloads as { file: string; path: string }[];
    // Chromium names it "_.._tool.sh"; whatever the name, it is one file inside the folder.
    expect(d).toMatchObject({ file: expect.stringMatching(/^[^/\\]*tool\.sh$/), state: "saved" });
    expect(d.path).toBe(join(dir, d.file));
    expect(await readdir(root)).toEqual(["downloads"]);
    for (const f of await readdir(dir)) expect((await stat(join(dir, f))).mode & 0o111, f).toBe(0);
  });

  it("navigating to a file the server sends as a download downloads it and stays on the page", async () => {
    await billing(mcp);
    const nav = await mcp.call("navigate", { url: site.url("/tasks/files/invoice-7.pdf") });
    expect(nav.isError, textOf(nav)).toBeFalsy();
    expect(structured(nav)).toMatchObject({ outcome: "nothing_changed", url: site.url("/tasks/billing.html") });
    expect(textOf(nav)).toMatch(/downloaded "invoice-7 \(3\)\.pdf"/);
  });

  it("without a download folder, downloads are off: the answer names the file and nothing is kept", async () => {
    const off = await stdioClient(["--headless"], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1" });
    try {
      const text = await billing(off);
      const click = await off.call("click", { id: idOf(text, /"Download invoice 7"/) });
      expect(click.isError, textOf(click)).toBeFalsy();
      expect(structured(click).downloads).toEqual([{ file: "invoice-7.pdf", url: site.url("/tasks/files/invoice-7.pdf"), state: "off" }]);
      expect(textOf(click)).toMatch(/the page started a download of "invoice-7\.pdf"; it was not kept: downloads are off \(.*SIGHTLINE_DOWNLOAD_DIR/);
    } finally {
      await off.close();
    }
  });
});

describe("downloads on the person's tab", () => {
  let sl: Sightline;
  let ext: ExtensionBrowser;
  let page: Page;
  let panel: Page;
  let client: McpClient;
  let into: string;

  beforeAll(async () => {
    into = join(root, "person");
    [sl, ext] = await Promise.all([startSightline({ config: { observe: observeConfig({ allowPrivateHosts: "127.0.0.1" }) } }), launchWithExtension()]);
    // Playwright names downloads by GUID in a folder of its own; a person's Chrome keeps the
    // site's name, as "allow" does, here in a folder of the test's.
    const cdp = await ext.context.browser()!.newBrowserCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: into, eventsEnabled: true });
    const key = await sl.createKey(100);
    page = ext.context.pages()[0] ?? (await ext.context.newPage());
    await page.goto(site.url("/tasks/billing.html"));
    await ext.clickAction(page);
    panel = await ext.openPanel(await ext.tabIdOf(page));
    await saveBackendSettings(panel, sl.origin, key);
    await panel.check("#share-toggle");
    await panel.waitForSelector(`#agent-conn[data-status="connected"]`, { timeout: 20_000 });
    client = await httpClient(sl.origin, key);
  });

  afterAll(async () => {
    await client?.close();
    await ext?.close();
    await sl?.close();
  });

  it("download the invoice: the person approves a sensitive click, and the answer names the file and its size", async () => {
    const want = await readFile(join(FILES, "invoice-7.pdf"));
    const text = textOf(await client.call("snapshot", { goal: "download the invoice" }));
    const clicked = client.call("click", { id: idOf(text, /"Download invoice 7"/) });
    const card = panel.locator(".approval").first();
    await card.waitFor({ timeout: 20_000 });
    expect(await card.locator(".approval-summary").textContent()).toMatch(/^Click 'Download invoice 7' \[\d+\], a sensitive action: it downloads a file/);
    await card.locator("button.approve").click();
    const click = await clicked;
    expect(click.isError, textOf(click)).toBeFalsy();
    expect(structured(click).downloads).toEqual([{ file: "invoice-7.pdf", url: site.url("/tasks/files/invoice-7.pdf"), state: "saved", size: want.length }]);
    expect(textOf(click)).toContain(`downloaded "invoice-7.pdf" (${want.length} B) (saved, not opened)`);
    expect(await readFile(join(into, "invoice-7.pdf"))).toEqual(want);
  });
});
