// bench/agent: what an agent pays per step through Sightline's MCP tools, beside the same work
// done directly with Playwright and beside Playwright MCP's style of answering every action
// with a full aria snapshot, in one run on one Chromium.
//
//   npm run bench:agent              (BENCH_QUICK=1: fewer repetitions)
//
// Latency: one action (agent call → outcome and diff, through AgentSession on the headless
// backend, in process) against the same action with Playwright's page.click/fill/selectOption.
// Tokens: a scripted 5-step shopping task; Sightline's snapshot + action answers against an
// aria snapshot (locator('body').ariaSnapshot(), what Playwright MCP returns) after every step.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "playwright-core";
import { AgentSession, type AgentAction } from "@sightline/shared/agent";
import { HeadlessBackend, localRefine } from "@sightline/shared/agent/headless";
import { parseAllowList } from "@sightline/shared/net";
import { countTokens } from "@sightline/shared/prompt";
import { startRun } from "../lib/results.mjs";
import { median } from "../lib/stats.mjs";
import { latencyRow } from "./side-by-side.js";
import { catalogue, checkout } from "./store-page.js";
import { BIG_GOAL, bigPage } from "./fixtures/big-page.js";

const run = startRun("agent", { title: "Agent actions: latency and tokens per step" });
const REPS = process.env.BENCH_QUICK === "1" ? 7 : 21;

const site = createServer((req, res) => {
  const html = req.url?.startsWith("/checkout") ? checkout() : req.url?.startsWith("/big") ? bigPage() : catalogue();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
});
await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const backend = await HeadlessBackend.start({ browser, policy: parseAllowList("127.0.0.1") }); // the store is on loopback
const session = new AgentSession({ backend, refine: localRefine(null) });
const [{ tab }] = await backend.tabs();
const page = (backend as unknown as { tabsByHandle: Map<string, { page: import("playwright-core").Page }> }).tabsByHandle.get(tab)!.page;

const idBy = (els: { id: number; role: string; name: string }[], role: string, name: RegExp) => {
  const el = els.find((e) => e.role === role && name.test(e.name));
  if (!el) throw new Error(`no ${role} ${name}`);
  return el.id;
};

// ---- Latency --------------------------------------------------------------------------
interface Case {
  label: string;
  sightline: (els: { id: number; role: string; name: string }[]) => AgentAction;
  playwright: () => Promise<unknown>;
}
const cases: Case[] = [
  { label: "click (add to cart)", sightline: (els) => ({ kind: "click", id: idBy(els, "button", /Add Cinder Camera to cart/) }), playwright: () => page.click("button[aria-label='Add Cinder Camera to cart']") },
  { label: "type (search box)", sightline: (els) => ({ kind: "type", id: idBy(els, "searchbox", /Search/), text: "noise cancelling headphones" }), playwright: () => page.fill("input[name=q]", "noise cancelling headphones") },
  { label: "select (sort order)", sightline: (els) => ({ kind: "select", id: idBy(els, "combobox", /Sort/), value: "Rating" }), playwright: () => page.selectOption("select[name=sort]", { label: "Rating" }) },
];
// Where an action's time goes: the page agent's wait for the page to be quiet (watchSettle,
// perform/perform.ts: 150 ms after the page's last mutation; 50 ms when the page only took the
// input and started no request) is a floor direct Playwright does not have; the capture after
// the action (the diff) is the other part.
const driver = (backend as unknown as { tabsByHandle: Map<string, { driver: { call: (n: string, a: unknown) => Promise<unknown> } }> }).tabsByHandle.get(tab)!.driver;
let settleMs = 0;
let captureMs = 0;
const timed = <T>(p: Promise<T>, add: (ms: number) => void): Promise<T> => {
  const t0 = performance.now();
  return p.finally(() => add(performance.now() - t0));
};
const call = driver.call.bind(driver);
driver.call = (n, a) => (n === "watchSettle" ? timed(call(n, a), (ms) => (settleMs += ms)) : call(n, a));
const capture = backend.capture.bind(backend);
backend.capture = (h, o) => timed(capture(h, o), (ms) => (captureMs += ms));
const latency: (string | number)[][] = [];
for (const c of cases) {
  const settles: number[] = [];
  const captures: number[] = [];
  const row = await latencyRow(
    {
      label: c.label,
      reset: async () => void (await page.goto(`${origin}/`)),
      prepare: async () => {
        const snap = await session.snapshot(tab, { limit: 100, token_budget: 20000 });
        const action = c.sightline(snap.elements);
        return async () => {
          settleMs = captureMs = 0;
          await session.act(tab, action);
          settles.push(settleMs);
          captures.push(captureMs);
        };
      },
      direct: c.playwright,
    },
    REPS,
  );
  const [, ours, direct] = row as [string, number, number];
  const wait = median(settles);
  latency.push([...row, ours <= 2 * direct ? "yes" : "no", wait, median(captures), (ours - wait) / direct, ours - wait <= 2 * direct ? "yes" : "no"]);
}
run.table({
  id: "latency",
  title: `Per-action latency, headless backend (median of ${REPS}; Sightline includes the outcome and diff)`,
  columns: [
    "action",
    { label: "Sightline ms", format: "auto" },
    { label: "Playwright ms", format: "auto" },
    { label: "ratio", format: "ratio" },
    "≤ 1.5× + 50 ms",
    "≤ 2×",
    { label: "of which quiet wait ms", format: "auto" },
    { label: "of which capture for the diff ms", format: "auto" },
    { label: "ratio without the quiet wait", format: "ratio" },
    "≤ 2× without it",
  ],
  rows: latency,
  note: "The quiet wait: after an action the page agent waits until no DOM mutation or input event has come for 150 ms (at most 1 s), so the answer shows what the action did, including a page's late reaction; when the page mutated nothing and started no network request after a select or a click, 50 ms (typing keeps 150 ms: suggestions and validation are commonly debounced by a timer alone); a request it started is waited for, then the 150 ms. page.fill and page.selectOption answer as soon as the event is dispatched. Medians of each column separately.",
});

// ---- Where a navigate and a snapshot spend their time ------------------------------------
// Each call through AgentSession with its parts timed: the browser's navigation (act), the
// collector's capture(s), the hidden-text pass and the refinements (ranking); beside Playwright's goto and ariaSnapshot (what Playwright MCP answers).
let hiddenMs = 0;
let refineMs = 0;
let actMs = 0;
const hiddenText = backend.hiddenText.bind(backend);
backend.hiddenText = (h) => timed(hiddenText(h), (ms) => (hiddenMs += ms));
const backendAct = backend.act.bind(backend);
backend.act = (h, a) => timed(backendAct(h, a), (ms) => (actMs += ms));
const refine = localRefine(null);
const partsSession = new AgentSession({ backend, refine: (req, o, p) => timed(refine(req, o, p), (ms) => (refineMs += ms)) });
const PARTS_REPS = Math.max(5, Math.round(REPS / 3));
const parts: (string | number)[][] = [];
for (const [label, path, goal] of [
  ["shop page", "/", "buy the Cinder camera"],
  ["big page (3,000 links and buttons)", "/big", BIG_GOAL],
] as const) {
  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  for (let i = 0; i < PARTS_REPS; i++) {
    await page.goto("about:blank");
    for (const [call, run] of [
      ["navigate", () => partsSession.act(tab, { kind: "navigate", url: `${origin}${path}` })],
      ["snapshot, goal", () => partsSession.snapshot(tab, { goal })],
    ] as const) {
      actMs = captureMs = hiddenMs = refineMs = 0;
      const t0 = performance.now();
      await run();
      const total = performance.now() - t0;
      add(`${call}:total`, total);
      add(`${call}:act`, actMs);
      add(`${call}:capture`, captureMs);
      add(`${call}:hidden`, hiddenMs);
      add(`${call}:refine`, refineMs);
    }
    await page.goto("about:blank");
    let t0 = performance.now();
    await page.goto(`${origin}${path}`, { waitUntil: "domcontentloaded" });
    add("goto", performance.now() - t0);
    t0 = performance.now();
    await page.locator("body").ariaSnapshot();
    add("aria", performance.now() - t0);
  }
  const m = (k: string) => median(rows[k]);
  for (const call of ["navigate", "snapshot, goal"]) {
    const direct = call === "navigate" ? m("goto") : m("aria");
    parts.push([label, call, m(`${call}:total`), m(`${call}:act`), m(`${call}:capture`), m(`${call}:hidden`), m(`${call}:refine`), direct, m(`${call}:total`) / direct]);
  }
}
run.table({
  id: "parts",
  title: `Where a navigate and a snapshot spend their time, headless backend (median of ${PARTS_REPS} each)`,
  columns: [
    "page",
    "call",
    { label: "Sightline ms", format: "auto" },
    { label: "navigation ms", format: "auto" },
    { label: "capture ms", format: "auto" },
    { label: "hidden-text pass ms", format: "auto" },
    { label: "refine ms", format: "auto" },
    { label: "Playwright goto / ariaSnapshot ms", format: "auto" },
    { label: "ratio", format: "ratio" },
  ],
  rows: parts,
  note: "navigate: the browser's navigation (to domcontentloaded), then a capture of the new page's top (the elements in the viewport) for the answer's five lines. snapshot with a goal: a capture with the text-visibility pass, the page's hidden passages, two refinements (ranked for the goal, and goal-free for the next diff), the prompt; the capture and the hidden-text pass are sent together and the page runs one after the other, so the hidden-text column includes the wait for the capture. Playwright's goto waits for domcontentloaded; ariaSnapshot is what Playwright MCP answers a snapshot with. Each part's median is taken separately, so the parts need not add up to the total.",
});

// ---- Tokens over a 5-step task ------------------------------------------------------------
await page.goto(`${origin}/`);
const aria = async () => countTokens(await page.locator("body").ariaSnapshot());
const steps: { what: string; ours: number; theirs: number }[] = [];
const first = await session.snapshot(tab, { goal: "buy the Cinder camera", limit: 30 });
steps.push({ what: "snapshot (goal: buy the Cinder camera)", ours: first.tokens, theirs: await aria() });
const more = await session.snapshot(tab, { limit: 100, token_budget: 20000 }); // ids for the scripted steps (not counted: an agent sees the goal snapshot)
const script: [string, AgentAction][] = [
  ["type 'cinder' into search", { kind: "type", id: idBy(more.elements, "searchbox", /Search/), text: "cinder" }],
  ["select sort: price low to high", { kind: "select", id: idBy(more.elements, "combobox", /Sort/), value: "Price: low to high" }],
  ["click Add Cinder Camera to cart", { kind: "click", id: idBy(more.elements, "button", /Add Cinder Camera to cart/) }],
  ["click Checkout", { kind: "click", id: idBy(more.elements, "link", /^Checkout$/) }],
];
for (const [what, action] of script) {
  const a = await session.act(tab, action);
  const answer = [`${a.outcome} · ${a.url}`, ...(a.page ? [a.page] : a.changes)].join("\n");
  steps.push({ what, ours: countTokens(answer), theirs: await aria() });
}
const checkoutSnap = await session.snapshot(tab, { goal: "enter my email", limit: 10 });
const email = idBy(checkoutSnap.elements, "textbox", /Email/);
const last = await session.act(tab, { kind: "type", id: email, text: "alice@example.com" });
steps.push({ what: "snapshot of checkout + type email", ours: checkoutSnap.tokens + countTokens([`${last.outcome} · ${last.url}`, ...last.changes].join("\n")), theirs: await aria() });
const oursTotal = steps.reduce((s, x) => s + x.ours, 0);
const theirsTotal = steps.reduce((s, x) => s + x.theirs, 0);
run.table({
  id: "tokens",
  title: "Tokens per step of a 5-step shopping task (o200k_base)",
  columns: ["step", { label: "Sightline", format: "int" }, { label: "aria snapshot after every step", format: "int" }],
  rows: [...steps.map((s) => [s.what, s.ours, s.theirs]), ["total", oursTotal, theirsTotal]],
});
run.figure("tokens_ratio", oursTotal / theirsTotal);
run.note(`Sightline uses ${(oursTotal / theirsTotal).toFixed(3)} of the aria-snapshot tokens over the task (target ≤ 0.2).`);
run.note("The extension backend adds the bridge hop (server ↔ extension WebSocket) and chrome.debugger input; it is measured by bench/agent/extension.ts (npm run bench:agent:extension), not here.");

await backend.close();
await browser.close();
site.close();
run.write();
