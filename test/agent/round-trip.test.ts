// One bridge round trip per action (issue 32): the server's /mcp session asks the extension to
// answer an act with the page after it, refines that capture (checked like any capture), and
// calls capture again only for an extension that did not send one (an older one) or sent one
// that is not a valid snapshot request. A real server, a real MCP client, a scripted extension.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RawElement } from "@sightline/shared/contract";
import type { BridgeOps, CallMessage } from "@sightline/shared/agent/bridge";
import { startSightline, type Sightline } from "../support/sightline-server.js";
import { httpClient, textOf, type McpClient } from "./mcp-client.js";
import { connectExtension, type FakeExtension } from "../security/fake-extension.js";

let sl: Sightline;
let key: string;
let ext: FakeExtension;
let agent: McpClient;

const URL_ = "https://shop.example/";
const button = (id: number, text: string, y: number): RawElement => ({
  id,
  tag: "button",
  text,
  rect: { x: 20, y, width: 160, height: 30 },
  in_viewport: true,
  is_occluded: false,
  attributes: { type_: "button" },
});
const page = (els: RawElement[]) => ({ url: URL_, viewport: { width: 1280, height: 800 }, raw_elements: els });
const before = page([button(1, "Add to cart", 40)]);
const after = page([button(1, "Add to cart", 40), button(5, "View cart (1)", 80)]);

beforeAll(async () => {
  sl = await startSightline();
  key = await sl.createKey(100);
  ext = connectExtension(sl.origin, key);
  await ext.welcomed;
  ext.shareTabs([{ tab: "1", url: URL_, title: "Shop", active: true }]);
  agent = await httpClient(sl.origin, key);
  for (let i = 0; i < 100 && !textOf(await agent.call("tabs")).includes("shop.example"); i++) await new Promise((r) => setTimeout(r, 20));
  // The first refinement starts the worker pool: taken here, under the hook's longer timeout.
  ext.answerWith((c) => (c.op === "capture" ? before : { texts: [] }));
  await agent.call("snapshot");
});
afterAll(async () => {
  await agent?.close();
  ext?.ws.close();
  await sl?.close();
});

/** The extension's answers: the page is `before` until an act, `after` from then on. */
function script(actCapture: (c: CallMessage) => unknown) {
  let acted = false;
  ext.answerWith((c) => {
    if (c.op === "capture") return acted ? after : before;
    if (c.op === "hidden_text") return { texts: [] };
    if (c.op === "act") {
      acted = true;
      const cap = actCapture(c);
      return { outcome: "dom_changed", url: URL_, method: "mouse", mutations: 2, ...(cap === undefined ? {} : { capture: cap }) };
    }
    throw new Error(`unexpected ${c.op}`);
  });
}

const opsAfterAct = () => {
  const i = ext.calls.findIndex((c) => c.op === "act");
  return ext.calls.slice(i).map((c) => (c.op === "capture" && (c.args as BridgeOps["capture"]["args"]).internal ? "capture:internal" : c.op));
};

beforeEach(() => {
  ext.calls.length = 0;
});

describe("an act through the extension", () => {
  it("asks for the page after it and diffs the one it got: no second call", async () => {
    script(() => after);
    expect(textOf(await agent.call("snapshot"))).toMatch(/Add to cart/);
    const r = await agent.call("click", { id: 1 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toMatch(/\+ \[5\] button "View cart \(1\)"/);
    const act = ext.calls.find((c) => c.op === "act")!;
    expect(act.args).toMatchObject({ action: { kind: "click", id: 1 }, capture: true, followsHiddenText: false });
    expect(opsAfterAct()).toEqual(["act"]);
  });

  it("an older extension (no capture in the answer) is captured after, as internal", async () => {
    script(() => undefined);
    await agent.call("snapshot");
    const r = await agent.call("click", { id: 1 });
    expect(textOf(r)).toMatch(/\+ \[5\] button "View cart \(1\)"/);
    expect(opsAfterAct()).toEqual(["act", "capture:internal"]);
  });

  it("a capture in the answer that is not a valid snapshot request is dropped, and the page captured again", async () => {
    script(() => ({ url: 5, raw_elements: "nope" }));
    await agent.call("snapshot");
    const r = await agent.call("click", { id: 1 });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toMatch(/\+ \[5\] button "View cart \(1\)"/);
    expect(opsAfterAct()).toEqual(["act", "capture:internal"]);
  });
});
