// The three MCP servers of the side-by-side bench and, for each, the scripted agent that does the
// shop task and reads the big page with that server's own tools. No LLM: a script per server that
// finds the refs it needs by role and label in that server's own answers, as an agent reads them,
// takes a snapshot only when what it has read does not show the element it needs, and retries an
// action once after a new snapshot when the server says a ref went stale.
import { join } from "node:path";
import { BIG_GOAL, BIG_TARGET } from "../fixtures/big-page.js";
import type { PeerSession, ServerCommand } from "./client.js";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const VIEWPORT = "1280x800"; // Sightline's headless viewport; the peers get the same

/** What the agent types at checkout; the site must record exactly this. */
export const CUSTOMER = { name: "Ada Lovelace", email: "ada@example.com", country: "Germany", countryCode: "DE", query: "trail runner", product: "Trail Runner", sku: "trail-runner" };

export interface BigPageAnswer {
  /** Which answer: "snapshot, goal", "snapshot", "browser_find"… */
  what: string;
  text_tokens: number;
  message_tokens: number;
  ms: number;
  target_present: boolean;
  /** Sightline: where the target is in the ranked list (1 = first); null where the answer is not ranked. */
  target_rank: number | null;
}

export interface Peer {
  id: "sightline" | "playwright" | "chrome-devtools";
  label: string;
  /** How to start the server; `origin` is the fixture site, `tmp` a fresh directory of this run. */
  command(opts: { benchDir: string; repoRoot: string; origin: string; tmp: string }): ServerCommand;
  /** The shop task from a blank browser; returns whether the agent saw the order confirmation. */
  task(s: PeerSession, origin: string): Promise<boolean>;
  /** Navigate to the big page, one snapshot (and the server's cheaper ways to find the target). */
  bigPage(s: PeerSession, origin: string): Promise<BigPageAnswer[]>;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A label given as a plain string matches exactly; a RegExp matches its own way. */
const labelSource = (label: string | RegExp) => (typeof label === "string" ? esc(label) : label.source);

/**
 * What the agent has read of the current page: the answers since it last left a page. `find`
 * looks an element up by role and label in it with the server's own line format.
 */
class View {
  private text = "";
  constructor(private pattern: (role: string, label: string) => RegExp) {}
  /** The page changed: forget what was read of the old one, start from this answer. */
  reset(answer = ""): void {
    this.text = answer;
  }
  add(answer: string): void {
    this.text += `\n${answer}`;
  }
  has(s: string | RegExp): boolean {
    return typeof s === "string" ? this.text.includes(s) : s.test(this.text);
  }
  find(role: string, label: string | RegExp): string | null {
    return this.pattern(role, labelSource(label)).exec(this.text)?.[1] ?? null;
  }
}

/** Looks the element up in what was read; if absent, takes a snapshot (once) and looks again. */
async function need(view: View, role: string, label: string | RegExp, snapshot: () => Promise<string>): Promise<string> {
  const seen = view.find(role, label);
  if (seen) return seen;
  view.reset(await snapshot());
  const found = view.find(role, label);
  if (!found) throw new Error(`no ${role} ${String(label)} in the snapshot`);
  return found;
}

/**
 * One action: `act` looks up the refs it needs (with need()) and calls the tool. If the server
 * answers with an error (a ref gone stale since it was read), the agent does what the error
 * asks: takes a new snapshot, looks the refs up again and retries once.
 */
async function step(s: PeerSession, view: View, snapshot: () => Promise<string>, act: () => Promise<string>): Promise<string> {
  const answer = await act();
  if (!s.calls.at(-1)?.error) return answer;
  view.reset(await snapshot());
  const again = await act();
  if (s.calls.at(-1)?.error) throw new Error(`${s.calls.at(-1)!.tool} failed twice: ${again.slice(0, 200)}`);
  return again;
}

const CONFIRMED = /Thank you, Ada Lovelace|Order #\d+ is placed/;

// ---- Sightline ------------------------------------------------------------------------------
// Lines like `[38] searchbox "Search products" @(231,71)`; a navigation's answer lists the new
// page's first elements; `snapshot` takes a goal.
const sightline: Peer = {
  id: "sightline",
  label: "Sightline",
  command: ({ repoRoot, tmp }) => ({
    command: process.execPath,
    args: [join(repoRoot, "shared/dist/cli/main.js"), "mcp", "--headless", "--allow-private-hosts", "127.0.0.1"],
    env: { ...baseEnv(), CHROMIUM_PATH: CHROMIUM, TMPDIR: tmp },
    cwd: repoRoot,
  }),
  async task(s, origin) {
    // An element line, or a line of what changed: `~ [3] link "Cart (1)" … modified`, `+ [90] …` (not `- `: gone).
    const view = new View((role, label) => new RegExp(`^(?:[~+] )?\\[(\\d+)\\] ${role}(?:\\[\\w+\\])? "${label}"`, "m"));
    const snap = (goal: string) => () => s.call("snapshot", { goal }, "snapshot");
    /** One action on elements looked up for `goal` (a snapshot with that goal when they are not in view). */
    const act = (goal: string, tool: string, kind: string, args: (id: (role: string, label: string | RegExp) => Promise<number>) => Promise<Record<string, unknown>>) =>
      step(s, view, snap(goal), async () => s.call(tool, await args(async (role, label) => Number(await need(view, role, label, snap(goal)))), kind));
    view.reset(await s.call("navigate", { url: `${origin}/` }, "navigate"));
    view.reset(await act("search for trail runner", "type", "type", async (id) => ({ id: await id("searchbox", "Search products"), text: CUSTOMER.query, submit: true })));
    view.add(await act(`add ${CUSTOMER.product} to cart`, "click", "click", async (id) => ({ id: await id("button", `Add ${CUSTOMER.product} to cart`) })));
    view.reset(await act("go to the cart", "click", "click", async (id) => ({ id: await id("link", /Cart \(\d+\)/) })));
    view.reset(await act("proceed to checkout", "click", "click", async (id) => ({ id: await id("link", "Proceed to checkout") })));
    const goal = "fill in name, email and country, accept the terms and place the order";
    view.add(await act(goal, "type", "type", async (id) => ({ id: await id("textbox", "Full name"), text: CUSTOMER.name })));
    view.add(await act(goal, "type", "type", async (id) => ({ id: await id("textbox", "Email"), text: CUSTOMER.email })));
    view.add(await act(goal, "select", "select", async (id) => ({ id: await id("combobox", "Country"), value: CUSTOMER.country })));
    view.add(await act(goal, "click", "click", async (id) => ({ id: await id("checkbox", "I accept the terms and conditions") })));
    view.reset(await act(goal, "click", "click", async (id) => ({ id: await id("button", "Place order") })));
    if (!view.has(CONFIRMED)) view.reset(await s.call("snapshot", { goal: "check the order is placed" }, "snapshot"));
    return view.has(CONFIRMED);
  },
  async bigPage(s, origin) {
    await s.call("navigate", { url: `${origin}/big` }, "navigate (big page)");
    const out: BigPageAnswer[] = [];
    for (const [what, args] of [
      ["snapshot, goal", { goal: BIG_GOAL }],
      ["snapshot, no goal", {}],
    ] as const) {
      const text = await s.call("snapshot", args, "snapshot (big page)");
      const c = s.calls.at(-1)!;
      const lines = text.split("\n").filter((l) => /^\[\d+\] /.test(l));
      const at = lines.findIndex((l) => new RegExp(`^\\[\\d+\\] button "${BIG_TARGET}"`).test(l));
      out.push({ what, text_tokens: c.text_tokens, message_tokens: c.message_tokens, ms: c.ms, target_present: at >= 0, target_rank: at >= 0 ? at + 1 : null });
    }
    return out;
  },
};

// ---- Playwright MCP -------------------------------------------------------------------------
// YAML lines like `- button "Add Trail Runner to cart" [ref=e53] [cursor=pointer]`; action answers
// link the page's snapshot file instead of inlining it, so the agent calls browser_snapshot.
const playwright: Peer = {
  id: "playwright",
  label: "Playwright MCP",
  command: ({ benchDir, origin, tmp }) => ({
    command: process.execPath,
    args: [
      join(benchDir, "node_modules/@playwright/mcp/cli.js"),
      "--headless",
      "--isolated", // the profile in memory
      "--no-sandbox", // root
      "--executable-path", CHROMIUM,
      "--viewport-size", VIEWPORT,
      "--allowed-origins", origin, // the browser requests nothing but the fixture site
      "--output-dir", join(tmp, "output"),
    ],
    env: { ...baseEnv(), HOME: tmp, TMPDIR: tmp },
    cwd: tmp,
  }),
  async task(s, origin) {
    const view = new View((role, label) => new RegExp(`- ${role} "${label}"[^\\n]*?\\[ref=(\\w+)\\]`));
    const snap = () => s.call("browser_snapshot", {}, "snapshot");
    const ref = (role: string, label: string | RegExp) => need(view, role, label, snap);
    const act = (tool: string, kind: string, args: () => Promise<Record<string, unknown>>) => step(s, view, snap, async () => s.call(tool, await args(), kind));
    view.reset(await s.call("browser_navigate", { url: `${origin}/` }, "navigate"));
    view.reset(await act("browser_type", "type", async () => ({ element: "Search products", target: await ref("searchbox", "Search products"), text: CUSTOMER.query, submit: true })));
    view.add(await act("browser_click", "click", async () => ({ element: `Add ${CUSTOMER.product} to cart`, target: await ref("button", `Add ${CUSTOMER.product} to cart`) })));
    view.reset(await act("browser_click", "click", async () => ({ element: "Cart", target: await ref("link", /Cart \(\d+\)/) })));
    view.reset(await act("browser_click", "click", async () => ({ element: "Proceed to checkout", target: await ref("link", "Proceed to checkout") })));
    view.add(
      await act("browser_fill_form", "fill_form", async () => ({
        fields: [
          { target: await ref("textbox", "Full name"), name: "Full name", type: "textbox", value: CUSTOMER.name },
          { target: await ref("textbox", "Email"), name: "Email", type: "textbox", value: CUSTOMER.email },
          { target: await ref("combobox", "Country"), name: "Country", type: "combobox", value: CUSTOMER.country },
          { target: await ref("checkbox", "I accept the terms and conditions"), name: "I accept the terms and conditions", type: "checkbox", value: "true" },
        ],
      })),
    );
    view.reset(await act("browser_click", "click", async () => ({ element: "Place order", target: await ref("button", "Place order") })));
    if (!view.has(CONFIRMED)) view.reset(await snap());
    return view.has(CONFIRMED);
  },
  async bigPage(s, origin) {
    await s.call("browser_navigate", { url: `${origin}/big` }, "navigate (big page)");
    const out: BigPageAnswer[] = [];
    for (const [what, tool, args] of [
      ["browser_snapshot", "browser_snapshot", {}],
      [`browser_find "${BIG_TARGET}"`, "browser_find", { text: BIG_TARGET }],
    ] as const) {
      const text = await s.call(tool, args, `${tool === "browser_find" ? "find" : "snapshot"} (big page)`);
      const c = s.calls.at(-1)!;
      out.push({ what, text_tokens: c.text_tokens, message_tokens: c.message_tokens, ms: c.ms, target_present: new RegExp(`button "${BIG_TARGET}"[^\\n]*\\[ref=`).test(text), target_rank: null });
    }
    return out;
  },
};

// ---- Chrome DevTools MCP --------------------------------------------------------------------
// Lines like `uid=1_45 searchbox "Search products"`; every page tool needs a pageId from
// list_pages; actions can answer with the whole snapshot (includeSnapshot), which the agent uses
// where the next step needs the new page's uids.
const chromeDevtools: Peer = {
  id: "chrome-devtools",
  label: "Chrome DevTools MCP",
  command: ({ benchDir, origin, tmp }) => ({
    command: process.execPath,
    args: [
      join(benchDir, "node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"),
      "--headless",
      "--isolated", // a temporary profile, removed when the browser closes
      "--executablePath", CHROMIUM,
      "--chromeArg=--no-sandbox", // root
      "--viewport", VIEWPORT,
      "--no-usage-statistics",
      "--no-performance-crux",
      `--allowedUrlPattern=${origin}/*`, // the browser requests nothing but the fixture site
    ],
    env: { ...baseEnv(), HOME: tmp, TMPDIR: tmp, CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: "1" },
    cwd: tmp,
  }),
  async task(s, origin) {
    const view = new View((role, label) => new RegExp(`uid=(\\S+) ${role} "${label}"`));
    const pages = await s.call("list_pages", {}, "list_pages");
    const pageId = Number(/^(\d+): .*\[selected\]/m.exec(pages)?.[1] ?? NaN);
    if (!Number.isFinite(pageId)) throw new Error(`no selected page in list_pages: ${pages}`);
    const snap = () => s.call("take_snapshot", { pageId }, "snapshot");
    const uid = (role: string, label: string | RegExp) => need(view, role, label, snap);
    const act = (tool: string, kind: string, args: () => Promise<Record<string, unknown>>) => step(s, view, snap, async () => s.call(tool, { pageId, ...(await args()) }, kind));
    view.reset(await s.call("navigate_page", { pageId, type: "url", url: `${origin}/` }, "navigate"));
    view.add(await act("fill", "type", async () => ({ uid: await uid("searchbox", "Search products"), value: CUSTOMER.query })));
    view.reset(await act("press_key", "press", async () => ({ key: "Enter", includeSnapshot: true })));
    view.add(await act("click", "click", async () => ({ uid: await uid("button", `Add ${CUSTOMER.product} to cart`) })));
    view.reset(await act("click", "click", async () => ({ uid: await uid("link", /Cart \(\d+\)/), includeSnapshot: true })));
    view.reset(await act("click", "click", async () => ({ uid: await uid("link", "Proceed to checkout"), includeSnapshot: true })));
    view.add(
      await act("fill_form", "fill_form", async () => ({
        elements: [
          { uid: await uid("textbox", "Full name"), value: CUSTOMER.name },
          { uid: await uid("textbox", "Email"), value: CUSTOMER.email },
          { uid: await uid("combobox", "Country"), value: CUSTOMER.country },
          { uid: await uid("checkbox", "I accept the terms and conditions"), value: "true" },
        ],
      })),
    );
    view.reset(await act("click", "click", async () => ({ uid: await uid("button", "Place order"), includeSnapshot: true })));
    if (!view.has(CONFIRMED)) view.reset(await snap());
    return view.has(CONFIRMED);
  },
  async bigPage(s, origin) {
    const pages = await s.call("list_pages", {}, "list_pages");
    const pageId = Number(/^(\d+): .*\[selected\]/m.exec(pages)?.[1] ?? NaN);
    await s.call("navigate_page", { pageId, type: "url", url: `${origin}/big` }, "navigate (big page)");
    const text = await s.call("take_snapshot", { pageId }, "snapshot (big page)");
    const c = s.calls.at(-1)!;
    return [{ what: "take_snapshot", text_tokens: c.text_tokens, message_tokens: c.message_tokens, ms: c.ms, target_present: new RegExp(`uid=\\S+ button "${BIG_TARGET}"`).test(text), target_rank: null }];
  },
};

export const PEERS: Peer[] = [sightline, playwright, chromeDevtools];

/** The environment a server gets: PATH, HOME and locale, no proxy settings, no keys of ours. */
function baseEnv(): Record<string, string> {
  const keep = ["PATH", "HOME", "LANG", "TZ"];
  const env: Record<string, string> = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return env;
}
