// When an action's answer is given: the wait after it ends sooner when the page only took the
// input (no DOM mutation, no network request: perform/perform.ts INPUT_QUIET_MS; not after
// typing, where a debounce timer alone commonly shows the reaction), and a late
// reaction is still in the answer: one that comes after a request the input started, and one
// that follows the page's own first mutation by a timer. Headless backend, real Chromium.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { AgentSession } from "@sightline/shared/agent";
import { HeadlessBackend, localRefine } from "@sightline/shared/agent/headless";
import { parseAllowList } from "@sightline/shared/net";
import { launchChromium } from "../support/chromium.js";

const PAGE = `<!doctype html><title>Settle</title>
<input aria-label="Plain" id="plain">
<input aria-label="Lookup" id="lookup">
<input aria-label="Later" id="later">
<input aria-label="Debounced" id="debounced">
<p id="out" role="status">nothing yet</p>
<script>
  const out = document.getElementById("out");
  // A reaction after a request: the answer comes 600 ms later (long after the 150 ms quiet).
  document.getElementById("lookup").addEventListener("input", async (e) => {
    const q = e.target.value;
    const r = await fetch("/slow?q=" + encodeURIComponent(q));
    const found = await r.text();
    if (e.target.value === q) out.textContent = "found " + found;
  });
  // A reaction in two steps: a mutation now, the result 100 ms later by a timer.
  document.getElementById("later").addEventListener("input", () => {
    out.textContent = "checking";
    setTimeout(() => (out.textContent = "checked"), 100);
  });
  // A debounced reaction: a timer alone, 100 ms after the last key (no mutation, no request before).
  let debounce;
  document.getElementById("debounced").addEventListener("input", (e) => {
    clearTimeout(debounce);
    debounce = setTimeout(() => (out.textContent = "suggestions for " + e.target.value), 100);
  });
</script>`;

let browser: Browser;
let backend: HeadlessBackend;
let site: Server;
let origin = "";

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url?.startsWith("/slow")) {
      const q = new URL(req.url, "http://x").searchParams.get("q") ?? "";
      setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end(`${q.length} results`), 600);
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
  backend = await HeadlessBackend.start({ browser, policy: parseAllowList("127.0.0.1") });
});

afterAll(async () => {
  await backend?.close();
  await browser?.close();
  await new Promise((r) => site?.close(r));
});

async function ready(): Promise<{ session: AgentSession; tab: string; id: (label: string) => number }> {
  const session = new AgentSession({ backend, refine: localRefine(null) });
  const [{ tab }] = await backend.tabs();
  await session.act(tab, { kind: "navigate", url: `${origin}/` });
  const snap = await session.snapshot(tab, { limit: 50, token_budget: 5000 });
  const id = (label: string) => snap.elements.find((e) => e.name === label)!.id;
  return { session, tab, id };
}

describe("the wait after an action", () => {
  it("answers typing that nothing reacts to with the field's new value", async () => {
    const { session, tab, id } = await ready();
    const typed = await session.act(tab, { kind: "type", id: id("Plain"), text: "hello" });
    expect(typed.outcome).toBe("dom_changed");
    expect(typed.changes.join("\n")).toMatch(/"Plain" value="hello"/);
  });

  it("waits for a request the input started and shows what its answer changed", async () => {
    const { session, tab, id } = await ready();
    const typed = await session.act(tab, { kind: "type", id: id("Lookup"), text: "trail" });
    expect(typed.outcome).toBe("dom_changed");
    expect(typed.changes.join("\n")).toMatch(/found 5 results/);
  });

  it("catches a reaction a timer makes 100 ms after the page's first change", async () => {
    const { session, tab, id } = await ready();
    const typed = await session.act(tab, { kind: "type", id: id("Later"), text: "go" });
    expect(typed.changes.join("\n")).toMatch(/checked/);
    expect(typed.changes.join("\n")).not.toMatch(/checking/);
  });

  it("keeps the full quiet after typing: a suggestion list a debounce timer shows 100 ms after the last key is in the answer", async () => {
    const { session, tab, id } = await ready();
    const typed = await session.act(tab, { kind: "type", id: id("Debounced"), text: "tent" });
    expect(typed.changes.join("\n")).toMatch(/suggestions for tent/);
  });
});
