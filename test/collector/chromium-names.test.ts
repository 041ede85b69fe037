// Roles and names where the collector now follows Chromium's accessibility tree (the classes of
// disagreement bench/quality/names-vs-chromium.mjs found on real pages): a text field's
// placeholder, password / date / file / image inputs, spaces around children that have a box of
// their own or no text, <br>, descendants' titles, embedded controls' values, label spacing,
// CSS counters and attr(). Each expectation is checked twice: against the collector's output
// and against Chromium's own tree for the same page (Accessibility.getFullAXTree), so a case
// whose expectation is not Chromium's answer fails too.
import { expect, it } from "vitest";
import { useFixturePage, byDomId, collectIn } from "./support.js";

const fx = useFixturePage("/collector/chromium-names.html");

interface Case {
  id: string;
  testname: string;
  label: string | null;
  role: string | null;
  chromiumRole: string | null;
}

async function cases(): Promise<Case[]> {
  return fx.page.evaluate(() =>
    Array.from(document.querySelectorAll(".ex"), (e) => ({
      id: e.id,
      testname: e.getAttribute("data-testname") ?? e.id,
      label: e.getAttribute("data-expectedlabel"),
      role: e.getAttribute("data-expectedrole"),
      chromiumRole: e.getAttribute("data-chromium-role"),
    })),
  );
}

const squash = (s: string | undefined | null) => (s ?? "").replace(/\s+/g, " ").trim();

it("names and roles the fixture's elements as its expectations say", async () => {
  const body = await collectIn(fx.page);
  const list = await cases();
  expect(list.length).toBeGreaterThan(30);
  // Every mismatch at once: a regression shows which classes it touches.
  const wrong: string[] = [];
  for (const c of list) {
    const a = byDomId(body, c.id)?.attributes;
    if (!a) wrong.push(`${c.testname}: not collected`);
    else {
      if (c.label !== null && a.accessible_name !== c.label) wrong.push(`${c.testname}: name ${JSON.stringify(a.accessible_name)}`);
      if (c.role !== null && a.role !== c.role) wrong.push(`${c.testname}: role ${JSON.stringify(a.role)}`);
    }
  }
  expect(wrong).toEqual([]);
});

it("the expectations are Chromium's own accessibility tree", async () => {
  const cdp = await fx.page.context().newCDPSession(fx.page);
  await cdp.send("DOM.enable");
  await cdp.send("Accessibility.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
  const idOf = new Map<number, string>();
  const walk = (n: { backendNodeId: number; attributes?: string[]; children?: unknown[] }): void => {
    const at = n.attributes?.indexOf("id") ?? -1;
    if (at >= 0 && n.attributes) idOf.set(n.backendNodeId, n.attributes[at + 1]);
    for (const c of (n.children ?? []) as (typeof n)[]) walk(c);
  };
  walk(root as Parameters<typeof walk>[0]);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree");
  const ax = new Map<string, { role: string; name: string }>();
  for (const n of nodes) {
    const id = n.backendDOMNodeId !== undefined ? idOf.get(n.backendDOMNodeId) : undefined;
    if (id) ax.set(id, { role: String(n.role?.value ?? ""), name: squash(String(n.name?.value ?? "")) });
  }
  await cdp.detach();
  for (const c of await cases()) {
    const node = ax.get(c.id);
    expect(node, `${c.testname}: in Chromium's tree`).toBeDefined();
    if (c.label !== null) expect(node?.name, c.testname).toBe(c.label);
    if (c.role !== null) expect(node?.role, c.testname).toBe(c.chromiumRole ?? c.role);
  }
});
