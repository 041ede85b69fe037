// Secrets never leave (issue 30, item 3). One rule (shared/src/agent/core/secrets.ts) says which
// fields are secret for every consumer — the snapshot, the screenshot masks, the approval card,
// the activity log — and what the agent typed into a secret field is scrubbed from every later
// answer of its session wherever the page echoes it. Hostile pages (test/security/fixtures/
// secrets/) through the real headless MCP client (the built CLI over stdio) and, for the
// extension's masks, cards and log, through the real extension, the real server and /mcp.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { parseJsonLines, type ActivityEntry } from "@sightline/shared/agent";
import { idOf, stdioClient, textOf, type McpClient, httpClient } from "../agent/mcp-client.js";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { observeConfig } from "../../server/src/observe/index.js";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** What the agent types into fields.html, each field secret by one fact only. */
const FIELDS = [
  { label: /"Code from the app"/, value: "731904", top: 40 }, // autocomplete=one-time-code
  { label: /"Card"/, value: "4111111111111111", top: 110 }, // autocomplete=cc-number
  { label: /"Digits on the back"/, value: "737", top: 180 }, // autocomplete=cc-csc
  { label: /"Branch PIN"/, value: "4821", top: 250 }, // name=pin_code
  { label: /"Sign-in word"/, value: "Tr0ub4dor&3 horse", top: 320 }, // type=password
] as const;
/** fields.html puts every field at left 240, 360×40 CSS px; the PIN echo at 240,470 300×40. */
const FIELD_BOX = { left: 240, width: 360, height: 40 };
const PIN_ECHO = { x: 240, y: 470, width: 300, height: 40 };
/** The opaque box the page agent draws over a secret (shared/src/agent/page/marks.ts). */
const MASK_COLOUR = { r: 0x55, g: 0x55, b: 0x55 };

/** The password echo.html echoes everywhere. */
const ECHOED = "Hunter2&seven words";
const PREFILLED = "5550123";

/** The forms a value takes in text and in an address. */
const forms = (s: string) => [s, encodeURIComponent(s), new URLSearchParams({ v: s }).toString().slice(2)];

/**
 * The secrets (of `values`) any string in `answer` carries, in any of its forms. A code of
 * digits counts where it stands alone as a token: not inside a port number, a longer number, a
 * decimal such as a log line's duration ("4821.37"), or a hex id ("a3f4821b-…", a request id).
 */
function leaks(answer: unknown, values: readonly string[]): string[] {
  const all = typeof answer === "string" ? answer : JSON.stringify(answer);
  return values.filter((v) => forms(v).some((f) => (/^\d+$/.test(f) ? new RegExp(`(?<![\\w.-])${f}(?![\\w-]|\\.\\d)`).test(all) : all.includes(f))));
}

/** Log entries without their clock (`at`, `ms`): a time of day can hold any three digits. */
const withoutClock = (entries: ActivityEntry[]) => entries.map(({ at: _at, ...rest }) => ({ ...rest, ms: undefined }));

type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

interface Rgb {
  r: number;
  g: number;
  b: number;
}

/**
 * Pixels of a PNG on a grid over a rectangle of CSS px (inset by `inset` on every side), decoded
 * in a browser page; `scale` (the page's devicePixelRatio) maps CSS px onto image pixels.
 */
async function gridPixels(decoder: Page, png: string, rect: { x: number; y: number; width: number; height: number }, scale: number, inset = 6, step = 3): Promise<Rgb[]> {
  return decoder.evaluate(
    async ({ data, rect, scale, inset, step }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const out: { r: number; g: number; b: number }[] = [];
      if ((rect.x + rect.width) * scale > c.width || (rect.y + rect.height) * scale > c.height) throw new Error(`the region is outside the ${c.width}×${c.height} screenshot`);
      for (let y = rect.y + inset; y <= rect.y + rect.height - inset; y += step) {
        for (let x = rect.x + inset; x <= rect.x + rect.width - inset; x += step) {
          const [r, g, b] = ctx.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data;
          out.push({ r, g, b });
        }
      }
      return out;
    },
    { data: png, rect, scale, inset, step },
  );
}

const isMask = (c: Rgb) => Math.abs(c.r - MASK_COLOUR.r) <= 6 && Math.abs(c.g - MASK_COLOUR.g) <= 6 && Math.abs(c.b - MASK_COLOUR.b) <= 6;
/** Black text (fields.html draws every value bold, black on white). */
const isInk = (c: Rgb) => c.r < 40 && c.g < 40 && c.b < 40;

function imageOf(r: { content: unknown[] }): string {
  const image = (r.content as { type: string; data?: string }[]).find((c) => c.type === "image");
  if (!image?.data) throw new Error("no image in the screenshot answer");
  return image.data;
}

/** Every field region is uniformly the mask; no ink of the echoed PIN shows. */
async function expectMasked(decoder: Page, png: string, scale: number): Promise<void> {
  for (const f of FIELDS) {
    const px = await gridPixels(decoder, png, { x: FIELD_BOX.left, y: f.top, width: FIELD_BOX.width, height: FIELD_BOX.height }, scale);
    expect(px.length).toBeGreaterThan(100);
    expect(px.filter((c) => !isMask(c)).length, `field ${f.label} is not uniformly masked`).toBe(0);
  }
  const echo = await gridPixels(decoder, png, PIN_ECHO, scale, 0, 2);
  expect(echo.filter(isInk).length, "the PIN the page echoes is readable").toBe(0);
}

describe("secrets on the headless MCP (stdio)", () => {
  let site: StaticServer;
  let mcp: McpClient;
  let dir: string;
  let logFile: string;
  let decoderBrowser: Browser;
  let decoder: Page;
  /** Every answer the agent got, for one last check. */
  const answers: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await mcp.call(name, args);
    answers.push(r);
    return r;
  };
  const log = async (): Promise<ActivityEntry[]> => parseJsonLines(await readFile(logFile, "utf8"));

  beforeAll(async () => {
    site = await serveStatic(FIXTURES);
    dir = await mkdtemp(join(tmpdir(), "sightline-secrets-"));
    logFile = join(dir, "activity.jsonl");
    [mcp, decoderBrowser] = await Promise.all([stdioClient(["--headless", "--log", logFile], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1" }), launchChromium()]);
    decoder = await decoderBrowser.newPage();
  });

  afterAll(async () => {
    await mcp?.close();
    await decoderBrowser?.close();
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("a one-time code, card number, security code, PIN and password are masked in the activity log", async () => {
    await call("navigate", { url: site.url("/secrets/fields.html") });
    const snap = textOf(await call("snapshot", { token_budget: 3000 }));
    for (const f of FIELDS) {
      const r = await call("type", { id: idOf(snap, f.label), text: f.value });
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    const entries = (await log()).filter((e) => e.tool === "type");
    expect(entries).toHaveLength(FIELDS.length);
    for (const e of entries) expect(e.action, e.target?.name).toMatchObject({ kind: "type", text: "•••" });
    expect(leaks(withoutClock(await log()), FIELDS.map((f) => f.value))).toEqual([]);
  });

  it("the screenshot covers every secret field, and the PIN the page echoes, with an opaque mask", async () => {
    const shot = await call("screenshot", {});
    await expectMasked(decoder, imageOf(shot), 1); // the headless backend's pages: 1280×800 at 1×
  });

  it("a typed password the page echoes into text, a link, a button, the title and the address never comes back", async () => {
    await call("navigate", { url: site.url("/secrets/echo.html") });
    const first = textOf(await call("snapshot", {}));
    const pw = idOf(first, /"Password"/);
    const typed = await call("type", { id: pw, text: ECHOED });
    expect(typed.isError, textOf(typed)).toBeFalsy();
    expect(leaks(typed, [ECHOED])).toEqual([]);

    const snap = await call("snapshot", { token_budget: 3000 });
    // The echo is there (the page did echo it), masked.
    expect(textOf(snap)).toMatch(/Continue as •••/);
    expect(leaks(snap, [ECHOED])).toEqual([]);
    const read = await call("read", {});
    expect(textOf(read)).toMatch(/You typed ••• just now/);
    expect(leaks(read, [ECHOED])).toEqual([]);
    const tabs = await call("tabs");
    expect(textOf(tabs)).toMatch(/Echo: •••/);
    expect(leaks(tabs, [ECHOED])).toEqual([]);

    // Refresh re-creates the button: the old id is stale, and the error that names it (and
    // the closest current element) names it masked.
    const refreshed = await call("click", { id: idOf(textOf(snap), /"Refresh"/) });
    expect(structured(refreshed).outcome).toBe("dom_changed");
    expect(leaks(refreshed, [ECHOED])).toEqual([]);
    const stale = await call("click", { id: idOf(textOf(snap), /Continue as/) });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/^stale: element \[\d+\] button "Continue as •••" is no longer on the page/);
    expect(leaks(stale, [ECHOED])).toEqual([]);

    // The GET form sends the password in the new address, and the new page shows it.
    const submitted = await call("click", { id: idOf(first, /button "Sign in"/) });
    expect(structured(submitted).outcome).toBe("navigated");
    expect(String(structured(submitted).url)).toMatch(/landing\.html\?pw=/);
    expect(leaks(submitted, [ECHOED])).toEqual([]);
    // A page that sends the agent to an address holding the password it kept.
    const bounced = await call("navigate", { url: site.url("/secrets/bounce.html") });
    expect(String(structured(bounced).url)).toMatch(/landing\.html\?token=/);
    expect(leaks(bounced, [ECHOED])).toEqual([]);
    const after = await call("tabs");
    expect(leaks(after, [ECHOED])).toEqual([]);
    expect(leaks(await call("read", {}), [ECHOED])).toEqual([]);
    expect(leaks(await call("snapshot", {}), [ECHOED])).toEqual([]);

    // The activity log: the typed text masked, the echoes in urls, diffs and errors too.
    const text = await readFile(logFile, "utf8");
    expect(text).toMatch(/landing\.html\?token=•••/);
    expect(leaks(text, [ECHOED])).toEqual([]);
  });

  it("a secret the page pre-filled is in neither read nor snapshot", async () => {
    await call("navigate", { url: site.url("/secrets/prefilled.html") });
    const read = await call("read", {});
    expect(textOf(read)).toMatch(/Your PIN is •••/);
    expect(leaks(read, [PREFILLED])).toEqual([]);
    expect(leaks(await call("snapshot", { token_budget: 3000 }), [PREFILLED])).toEqual([]);
  });

  it("no answer of the session carried a typed secret", () => {
    const texts = answers.map((a) => textOf(a as Parameters<typeof textOf>[0]));
    expect(texts.length).toBeGreaterThan(10);
    expect(leaks(texts, [ECHOED, ...FIELDS.map((f) => f.value)])).toEqual([]);
  });
});

describe("secrets in the person's tab through the extension", () => {
  let site: StaticServer;
  let sl: Sightline;
  let dataDir: string;
  let ext: ExtensionBrowser;
  let page: Page;
  let panel: Page;
  let mcp: McpClient;
  const serverLog: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "sightline-secrets-ext-"));
    [site, sl, ext] = await Promise.all([
      serveStatic(FIXTURES),
      startSightline({ dataDir, logLines: serverLog, config: { logLevel: "debug", observe: observeConfig({ allowPrivateHosts: "127.0.0.1" }) } }),
      launchWithExtension(),
    ]);
    const key = await sl.createKey(200);
    page = ext.context.pages()[0] ?? (await ext.context.newPage());
    await page.goto(site.url("/secrets/fields.html"));
    await ext.clickAction(page);
    const tabId = await ext.tabIdOf(page);
    panel = await ext.openPanel(tabId);
    await saveBackendSettings(panel, sl.origin, key);
    await panel.check("#share-toggle");
    await panel.waitForSelector('#agent-conn[data-status="connected"]', { timeout: 20_000 });
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

  /** Waits for the approval card, reads it, and approves it. */
  async function approve(call: Promise<Awaited<ReturnType<McpClient["call"]>>>): Promise<{ result: Awaited<ReturnType<McpClient["call"]>>; card: string; summary: string; inputType: string | null }> {
    const card = panel.locator(".approval").first();
    await card.waitFor({ timeout: 20_000 });
    const summary = (await card.locator(".approval-summary").textContent()) ?? "";
    const text = (await card.textContent()) ?? "";
    const box = card.locator(".approval-text");
    const inputType = (await box.count()) ? await box.getAttribute("type") : null;
    await card.locator("button.approve").click();
    await panel.waitForFunction((t) => ![...document.querySelectorAll(".approval-summary")].some((e) => e.textContent === t), summary);
    return { result: await call, card: text, summary, inputType };
  }

  /** The activity log as the extension keeps it (the panel shows it and exports it). */
  async function extensionLog(): Promise<ActivityEntry[]> {
    return (await ext.worker.evaluate(async () => (await chrome.storage.session.get("sightline.agent.log"))["sightline.agent.log"] ?? [])) as ActivityEntry[];
  }

  it("each approval card says sensitive, hides what is typed, and the typed value never reaches the log", async () => {
    const snap = textOf(await mcp.call("snapshot", { token_budget: 3000 }));
    for (const f of FIELDS) {
      const { result, card, summary, inputType } = await approve(mcp.call("type", { id: idOf(snap, f.label), text: f.value }));
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(summary, `card for ${f.label}`).toMatch(/^Type •+ into [^,]+, a sensitive action/);
      expect(leaks(card, [f.value])).toEqual([]);
      expect(inputType).toBe("password"); // the card's edit box hides the text too
    }
    await expect.poll(async () => (await extensionLog()).filter((e) => e.tool === "type").length, { timeout: 10_000 }).toBe(FIELDS.length);
    const entries = (await extensionLog()).filter((e) => e.tool === "type");
    for (const e of entries) expect(e.action, e.target?.name).toMatchObject({ kind: "type", text: "•••" });
    expect(leaks(withoutClock(await extensionLog()), FIELDS.map((f) => f.value))).toEqual([]);
  });

  it("the agent's screenshot covers every secret field and the echoed PIN", async () => {
    const shot = await mcp.call("screenshot", {});
    expect(shot.isError, textOf(shot)).toBeFalsy();
    await expectMasked(panel, imageOf(shot), await page.evaluate(() => window.devicePixelRatio));
  });

  it("what the page echoes of a typed password stays out of tabs, answers, the extension's log and the server's log", async () => {
    await approve(mcp.call("navigate", { url: site.url("/secrets/echo.html") }));
    const snap = textOf(await mcp.call("snapshot", {}));
    const { result: typed } = await approve(mcp.call("type", { id: idOf(snap, /"Password"/), text: ECHOED }));
    expect(typed.isError, textOf(typed)).toBeFalsy();
    expect(leaks(typed, [ECHOED])).toEqual([]);
    await expect.poll(() => page.title()).toContain(ECHOED); // the page did echo it
    // The extension tells the server about the new title when Chromium does: wait for it.
    await expect.poll(async () => textOf(await mcp.call("tabs")), { timeout: 10_000 }).toMatch(/"Echo: \S/);
    const tabs = await mcp.call("tabs");
    expect(textOf(tabs)).toMatch(/Echo: •••/);
    expect(leaks(tabs, [ECHOED])).toEqual([]);
    expect(leaks(await mcp.call("read", {}), [ECHOED])).toEqual([]);
    expect(leaks(await mcp.call("snapshot", {}), [ECHOED])).toEqual([]);
    await expect.poll(async () => (await extensionLog()).some((e) => e.url_after?.includes("echo="))).toBe(true);
    expect(leaks(withoutClock(await extensionLog()), [ECHOED])).toEqual([]);
    expect(serverLog.length).toBeGreaterThan(0);
    // The access log's durations ("ms":4821.37) and pino's clock can hold any digits: not looked at.
    expect(leaks(serverLog.join("\n").replace(/"(ms|time|pid)":[\d.]+/g, ""), [ECHOED, ...FIELDS.map((f) => f.value)])).toEqual([]);
  });
});

declare const chrome: { storage: { session: { get(k: string): Promise<Record<string, unknown>> } } };
