// A navigation's answer lists the new page's first elements from a capture of its top only (a
// page of thousands of controls took most of a second to capture whole, for five lines); the
// next action's diff is still against the whole page, on the headless backend and through the
// person's tab alike. Over fake backends: no browser.
import { describe, expect, it } from "vitest";
import { AgentSession, type AgentAction, type AgentBackend, type CaptureOptions } from "@sightline/shared/agent";
import { BridgeBackend, type BridgeCalls, type BridgeOps } from "@sightline/shared/agent/bridge";
import type { RefineResult, RefinedElement, SnapshotRequest } from "@sightline/shared/contract";

interface Item {
  id: number;
  role: string;
  name: string;
  y: number;
  value?: string;
}

function refined(it: Item): RefinedElement {
  const inView = it.y < 800;
  return {
    id: it.id, role: it.role, text: it.name, importance: 500, bbox: { x: 10, y: it.y, width: 100, height: 20 },
    visual_cues: { is_primary: false, is_clickable: true, background_color_name: null }, in_viewport: inView, is_occluded: false, z_index: 0,
    fused_rank_index: null, heuristic_index: null, ml_probability: null, ml_score: null, center_x: 60, center_y: it.y + 10, doc_y: it.y,
    group_key: null, group_index: null, in_dominant_group: null, name: it.name, value: it.value ?? null, input_type: null, value_redacted: null,
    checked: null, disabled: null, expanded: null, aria_checked: null, aria_disabled: null, aria_expanded: null, href: null, nearby_text: null,
    diff_status: null, tag: null,
  };
}

/** One tab whose page is `items`; a summary capture returns what is in the viewport. */
function fakeBackend(items: Item[]) {
  const captures: CaptureOptions[] = [];
  const log: string[] = [];
  const backend: AgentBackend = {
    tabs: async () => [{ tab: "t1", url: "https://shop.example/", title: "Shop", active: true }],
    capture: async (_tab, opts = {}) => {
      captures.push(opts);
      log.push(opts.summary ? "capture summary" : "capture page");
      const shown = opts.summary ? items.filter((i) => i.y < 800) : items;
      return { url: "https://shop.example/", raw_elements: shown.map((i) => ({ ...i })) as never } as SnapshotRequest;
    },
    read: async () => ({ url: "https://shop.example/", title: "Shop", description: "", content: "" }),
    screenshot: async () => "",
    act: async (_tab, action: AgentAction) => {
      log.push(`act ${action.kind}`);
      if (action.kind === "navigate") return { outcome: "navigated", url: "https://shop.example/", method: "browser", mutations: 0 };
      if (action.kind === "type") items.find((i) => i.id === action.id)!.value = action.text;
      return { outcome: "dom_changed", url: "https://shop.example/", method: "mouse", mutations: 1 };
    },
    wait: async () => true,
  };
  const refine = async (req: SnapshotRequest): Promise<RefineResult> =>
    ({ viewport: { width: 1280, height: 800 }, elements: (req.raw_elements as unknown as Item[]).map(refined), dominant_group_key: null, ml_rerank: null, diagnostics: null, modal_detected: false, modal_grids: [] }) as unknown as RefineResult;
  return { backend, refine, captures, log };
}

describe("a navigation's answer: the top of the page, the diff against the whole", () => {
  it("captures only the top for the answer, and the whole page before the next action", async () => {
    const items: Item[] = [
      { id: 1, role: "searchbox", name: "Search products", y: 60 },
      { id: 2, role: "button", name: "Search", y: 100 },
      { id: 3, role: "link", name: "Careers", y: 2400 },
    ];
    const { backend, refine, captures, log } = fakeBackend(items);
    const session = new AgentSession({ backend, refine });

    const nav = await session.act("t1", { kind: "navigate", url: "https://shop.example/" });
    expect(nav.outcome).toBe("navigated");
    expect(captures.at(-1)).toEqual({ summary: true, internal: true });
    expect(nav.page).toMatch(/\[1\] searchbox "Search products"/);
    expect(nav.page).not.toMatch(/Careers/);

    // An id from the summary works; its diff is against the whole page, so the element below the
    // viewport is not reported as added.
    log.length = 0;
    const typed = await session.act("t1", { kind: "type", id: 1, text: "trail" });
    expect(log).toEqual(["capture page", "act type", "capture page"]);
    expect(typed.changes).toHaveLength(1);
    expect(typed.changes[0]).toMatch(/^~ \[1\] searchbox "Search products" value="trail"/);

    // Once the whole page is known, an action captures only after itself.
    log.length = 0;
    await session.act("t1", { kind: "type", id: 1, text: "trail runner" });
    expect(log).toEqual(["act type", "capture page"]);
  });
});

/**
 * The person's tab (BridgeBackend): a fake hub that answers as the extension does (an act with
 * `capture` answers with the page after it; with `summary`, a navigation's capture is the
 * viewport's elements, marked captureSummary). `older`: an extension that knows neither.
 */
function fakeHub(items: Item[], older = false) {
  const calls: string[] = [];
  const snap = (top: boolean) => ({ url: "https://shop.example/", raw_elements: (top ? items.filter((i) => i.y < 800) : items).map((i) => ({ ...i })) as never }) as SnapshotRequest;
  const hub: BridgeCalls = {
    tabs: () => [{ tab: "t1", url: "https://shop.example/", title: "Shop", active: true }],
    call: async (_account, _session, _tab, op, args) => {
      if (op === "capture") {
        const top = !older && (args as BridgeOps["capture"]["args"]).summary === true;
        calls.push(`${top ? "capture summary" : "capture page"}${(args as BridgeOps["capture"]["args"]).internal ? " (internal)" : ""}`);
        return snap(top) as never;
      }
      if (op === "act") {
        const a = args as BridgeOps["act"]["args"];
        calls.push(`act ${a.action.kind}${a.summary ? " (summary)" : ""}`);
        const navigated = a.action.kind === "navigate";
        if (a.action.kind === "type") {
          const { id, text } = a.action;
          items.find((i) => i.id === id)!.value = text;
        }
        const result = navigated ? { outcome: "navigated", url: "https://shop.example/", method: "browser", mutations: 0 } : { outcome: "dom_changed", url: "https://shop.example/", method: "mouse", mutations: 1 };
        const top = !older && navigated && a.summary === true;
        return { ...result, ...(a.capture ? { capture: snap(top) } : {}), ...(top ? { captureSummary: true } : {}) } as never;
      }
      throw new Error(`unexpected ${op}`);
    },
  };
  return { hub, calls };
}

describe("a navigation's answer through the person's tab (bridge): the same top, the same diff", () => {
  const page = (): Item[] => [
    { id: 1, role: "searchbox", name: "Search products", y: 60 },
    { id: 2, role: "button", name: "Search", y: 100 },
    { id: 3, role: "link", name: "Careers", y: 2400 },
  ];

  it("asks the extension for the top only, and captures the whole page before the next action", async () => {
    const items = page();
    const { hub, calls } = fakeHub(items);
    const { refine } = fakeBackend(items);
    const session = new AgentSession({ backend: new BridgeBackend(hub, "acct", "s1"), refine });

    const nav = await session.act("t1", { kind: "navigate", url: "https://shop.example/" });
    expect(calls).toEqual(["act navigate (summary)"]); // one round trip: the top came with the answer
    expect(nav.page).toMatch(/\[1\] searchbox "Search products"/);
    expect(nav.page).not.toMatch(/Careers/);

    calls.length = 0;
    const typed = await session.act("t1", { kind: "type", id: 1, text: "trail" });
    expect(calls).toEqual(["capture page (internal)", "act type (summary)"]);
    expect(typed.changes).toHaveLength(1);
    expect(typed.changes[0]).toMatch(/^~ \[1\] searchbox "Search products" value="trail"/);

    calls.length = 0;
    await session.act("t1", { kind: "type", id: 1, text: "trail runner" });
    expect(calls).toEqual(["act type (summary)"]);
  });

  it("an older extension's whole-page capture is taken as the whole page (no second capture)", async () => {
    const items = page();
    const { hub, calls } = fakeHub(items, true);
    const { refine } = fakeBackend(items);
    const session = new AgentSession({ backend: new BridgeBackend(hub, "acct", "s1"), refine });

    await session.act("t1", { kind: "navigate", url: "https://shop.example/" });
    calls.length = 0;
    const typed = await session.act("t1", { kind: "type", id: 1, text: "trail" });
    expect(calls).toEqual(["act type (summary)"]);
    expect(typed.changes).toEqual([expect.stringMatching(/^~ \[1\] searchbox "Search products" value="trail"/)]);
  });

  it("a capture call asked for a summary passes it on", async () => {
    const { hub, calls } = fakeHub(page());
    await new BridgeBackend(hub, "acct", "s1").capture("t1", { summary: true, internal: true });
    expect(calls).toEqual(["capture summary (internal)"]);
  });
});
