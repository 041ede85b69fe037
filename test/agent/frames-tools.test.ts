// The issue-33 tools on elements inside an open shadow root, a same-origin iframe and a
// cross-origin iframe (another site: the frame comes from a second loopback server addressed as
// localhost, the page from 127.0.0.1), on the headless backend over stdio MCP: the ids of the
// agent's snapshot work with hover, drag, fill_form, upload, find and dialogs there as on the
// page itself. Each task ends on what the frame's own site received (fixtures/tasks/frames.html,
// frame-form.html).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idOf, stdioClient, textOf, type McpClient } from "./mcp-client.js";
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
