// bench/agent/extension.ts: the person's-tab backend measured end to end, with the built
// extension loaded in Chromium, the real server and a real MCP client on POST /mcp, the way
// test/agent/extension.test.ts drives it (its helpers are imported from test/).
//
//   npm run bench:agent:extension          (BENCH_QUICK=1: fewer repetitions)
//
// 1. Latency: one action (the MCP client's call → its answer, through server → WebSocket →
//    extension → chrome.debugger input → outcome and diff), with "act runs on this site" on so
//    no card waits for a person, beside the same action done directly with Playwright on the
//    same tab of the same browser.
// 2. Supervision: a scripted 10-step shopping task (search, sort, filter, add to cart, checkout,
//    name, email, address, country, place order) run twice, with the defaults and with "act runs
//    on this site": how many approval cards the person was shown (the bench approves each) and
//    how many of those were sensitive.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startRun } from "../lib/results.mjs";
import { latencyRow } from "./side-by-side.js";
import { catalogue, checkout } from "./store-page.js";
import { startSightline } from "../../test/support/sightline-server.js";
import { launchWithExtension, saveBackendSettings } from "../../test/extension/harness.js";
import { httpClient, idOf, textOf } from "../../test/agent/mcp-client.js";

const run = startRun("agent-extension", { title: "Agent actions through the extension: latency and approvals" });
const QUICK = process.env.BENCH_QUICK === "1";
const REPS = QUICK ? 5 : 15;

// ---- The fixture shop, on loopback --------------------------------------------------------
const orders: string[] = [];
const site = createServer((req, res) => {
  if (req.method === "POST" && req.url?.startsWith("/done")) {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      orders.push(body);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Order placed</title><h1>Thank you, your order is placed</h1>");
    });
    return;
  }
  const html = req.url?.startsWith("/checkout") ? checkout() : catalogue();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
});
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// ---- The person: settings, a shared tab, the panel ---------------------------------------------
const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-ext-"));
const [sl, ext] = await Promise.all([startSightline({ dataDir }), launchWithExtension()]);
const key = await sl.createKey(1000);
const page: Page = ext.context.pages()[0] ?? (await ext.context.newPage());
await page.goto(`${origin}/`);
await ext.clickAction(page);
const tabId = await ext.tabIdOf(page);
const panel = await ext.openPanel(tabId);
await saveBackendSettings(panel, sl.origin, key);
await panel.check("#share-toggle");
await panel.waitForSelector('#agent-conn[data-status="connected"]', { timeout: 20_000 });
const mcp = await httpClient(sl.origin, key);

// The person approves every card the panel shows, and the bench counts them.
interface Card { id: string; tier: string; summary: string }
const shown: Card[] = [];
let watching = true;
const seen = new Set<string>();
const watcher = (async () => {
  while (watching) {
    for (const card of await panel.locator(".approval").all()) {
      const id = (await card.getAttribute("data-id").catch(() => null)) ?? "";
      if (!id || seen.has(id)) continue;
      seen.add(id);
      shown.push({ id, tier: (await card.getAttribute("data-tier").catch(() => "")) ?? "", summary: (await card.locator(".approval-summary").textContent().catch(() => "")) ?? "" });
      await card.locator("button.approve").click().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
})();

async function call(name: string, args: Record<string, unknown> = {}) {
  const r = await mcp.call(name, args);
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${textOf(r)}`);
  return r;
}
const snapshotText = async () => textOf(await call("snapshot", { limit: 100, token_budget: 20000 }));

// ---- 1. Latency, act runs on this site -----------------------------------------------------------
await panel.check("#allow-here");
interface Case { label: string; tool: string; args: (snap: string) => Record<string, unknown>; playwright: () => Promise<unknown> }
const cases: Case[] = [
  { label: "click (add to cart)", tool: "click", args: (s) => ({ id: idOf(s, /button "Add Cinder Camera to cart"/) }), playwright: () => page.click("button[aria-label='Add Cinder Camera to cart']") },
  { label: "type (search box)", tool: "type", args: (s) => ({ id: idOf(s, /searchbox/), text: "noise cancelling headphones" }), playwright: () => page.fill("input[name=q]", "noise cancelling headphones") },
  { label: "select (sort order)", tool: "select", args: (s) => ({ id: idOf(s, /combobox "Sort/), value: "Rating" }), playwright: () => page.selectOption("select[name=sort]", { label: "Rating" }) },
];
const cardsBefore = shown.length;
const latency: (string | number)[][] = [];
for (const c of cases) {
  latency.push(
    await latencyRow(
      {
        label: c.label,
        reset: async () => void (await page.goto(`${origin}/`)),
        prepare: async () => {
          const args = c.args(await snapshotText());
          return () => call(c.tool, args);
        },
        direct: c.playwright,
      },
      REPS,
    ),
  );
}
if (shown.length !== cardsBefore) throw new Error(`with "act runs on this site" on, the latency runs showed ${shown.length - cardsBefore} approval card(s)`);
run.table({
  id: "latency",
  title: `Per-action latency through the extension (median of ${REPS}; MCP call on /mcp → answer with outcome and diff; "act runs on this site" on) beside direct Playwright on the same tab`,
  columns: ["action", { label: "extension ms", format: "auto" }, { label: "Playwright ms", format: "auto" }, { label: "ratio", format: "ratio" }, "≤ 1.5× + 50 ms"],
  rows: latency,
});

// ---- 2. The supervised 10-step task ------------------------------------------------------------
async function task(fill = false): Promise<{ asked: number; sensitive: number; steps: string[]; placed: boolean; calls: number }> {
  const from = shown.length;
  const ordersBefore = orders.length;
  await page.goto(`${origin}/`);
  const shop = await snapshotText();
  const steps: [string, string, (s: string) => Record<string, unknown>][] = [
    ["type 'cinder' into search", "type", (s) => ({ id: idOf(s, /searchbox/), text: "cinder" })],
    ["sort by price, low to high", "select", (s) => ({ id: idOf(s, /combobox "Sort/), value: "Price: low to high" })],
    ["filter: Cameras", "click", (s) => ({ id: idOf(s, /checkbox "Cameras/) })],
    ["add Cinder Camera to cart", "click", (s) => ({ id: idOf(s, /button "Add Cinder Camera to cart"/) })],
    ["open Checkout", "click", (s) => ({ id: idOf(s, /link "Checkout"/) })],
  ];
  let calls = 0;
  if (fill) {
    // fill_form (issue 33): the search, sort and filter in one call, one card.
    const [search, sort, filter] = steps.map(([, , args]) => args(shop));
    await call("fill_form", { fields: [{ id: search.id, value: search.text }, { id: sort.id, value: sort.value }, { id: filter.id, value: "true" }] });
    calls++;
    for (const [, tool, args] of steps.slice(3)) {
      await call(tool, args(shop));
      calls++;
    }
  } else {
    for (const [, tool, args] of steps) {
      await call(tool, args(shop));
      calls++;
    }
  }
  const form = await snapshotText();
  const more: [string, string, (s: string) => Record<string, unknown>][] = [
    ["type name", "type", (s) => ({ id: idOf(s, /"Full name"/), text: "Alice Example" })],
    ["type email", "type", (s) => ({ id: idOf(s, /"Email"/), text: "alice@example.com" })],
    ["type address", "type", (s) => ({ id: idOf(s, /"Address"/), text: "1 Loop Road" })],
    ["select country", "select", (s) => ({ id: idOf(s, /combobox "Country"/), value: "Germany" })],
    ["click Place order", "click", (s) => ({ id: idOf(s, /button "Place order"/) })],
  ];
  if (fill) {
    // The whole checkout form in one call, then the order: two cards, not five.
    const fields = more.slice(0, 4).map(([, , args]) => {
      const a = args(form);
      return { id: a.id, value: a.text ?? a.value };
    });
    await call("fill_form", { fields });
    await call("click", more[4][2](form));
    calls += 2;
  } else {
    for (const [, tool, args] of more) {
      await call(tool, args(form));
      calls++;
    }
  }
  const cards = shown.slice(from);
  return { asked: cards.length, sensitive: cards.filter((c) => c.tier === "sensitive").length, steps: cards.map((c) => `${c.tier}: ${c.summary}`), placed: orders.length === ordersBefore + 1, calls };
}
await panel.uncheck("#allow-here");
const defaults = await task();
const filled = await task(true);
await panel.check("#allow-here");
const allowed = await task();
const filledAllowed = await task(true);
await panel.uncheck("#allow-here");
for (const [label, r] of [["defaults", defaults], ["act runs on this site", allowed], ["fill_form", filled], ["fill_form, act runs on this site", filledAllowed]] as const) {
  if (!r.placed) throw new Error(`${label}: the order did not reach the shop`);
  if (r.sensitive === 0) throw new Error(`${label}: the order step was not asked as sensitive`);
}
run.table({
  id: "approvals",
  title: "A supervised 10-step shopping task through the extension: how often the person is asked (search, sort, filter, add to cart, checkout, name, email, address, country, place order)",
  columns: ["setting", { label: "steps", format: "int" }, { label: "asked", format: "int" }, { label: "of which sensitive", format: "int" }, "order placed"],
  rows: [
    ["defaults (act asks, sensitive asks)", 10, defaults.asked, defaults.sensitive, defaults.placed ? "yes" : "no"],
    ["act runs on this site", 10, allowed.asked, allowed.sensitive, allowed.placed ? "yes" : "no"],
    [`fill_form (the search/sort/filter and the checkout form one call each), defaults`, filled.calls, filled.asked, filled.sensitive, filled.placed ? "yes" : "no"],
    [`fill_form, act runs on this site`, filledAllowed.calls, filledAllowed.asked, filledAllowed.sensitive, filledAllowed.placed ? "yes" : "no"],
  ],
});
run.figure("asked_fill_form_defaults", filled.asked);
run.figure("asked_fill_form_act_allowed", filledAllowed.asked);
run.figure("sensitive_asked_fill_form_defaults", filled.sensitive);
run.note(`Cards with fill_form, defaults: ${filled.steps.join(" | ") || "none"}.`);
run.figure("asked_defaults", defaults.asked);
run.figure("asked_act_allowed", allowed.asked);
run.figure("sensitive_asked_act_allowed", allowed.sensitive);
run.note(`Cards with "act runs on this site": ${allowed.steps.join(" | ") || "none"}.`);
run.note("Direct Playwright runs on the same shared tab (page.click, page.fill, page.selectOption), which answer nothing about the page; the extension's answer includes the outcome and a diff.");

watching = false;
await watcher;
await mcp.close();
await ext.close();
await sl.close();
site.close();
await rm(dataDir, { recursive: true, force: true });
run.write();
