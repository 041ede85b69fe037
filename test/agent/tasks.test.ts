// The tools real tasks need (issue 33), on the headless backend: fixture task sites
// (fixtures/tasks/) completed by a real MCP client over stdio (`sightline mcp --headless`), each
// asserting the site's own state at the end (the pages POST what they did to the test server).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idOf, stdioClient, textOf, type McpClient } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

let site: AgentSite;
let mcp: McpClient;

beforeAll(async () => {
  site = await serveAgentSite();
  mcp = await stdioClient(["--headless"], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1" });
});

afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

/** What the site reported for `task` last (its own state), waiting briefly for the request. */
async function reported(task: string): Promise<Record<string, string> | undefined> {
  for (let i = 0; i < 50; i++) {
    const r = site.submissions.filter((s) => s.task === task).at(-1);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  return undefined;
}

async function open(path: string, goal: string): Promise<string> {
  const nav = await mcp.call("navigate", { url: site.url(path) });
  expect(nav.isError, textOf(nav)).toBeFalsy();
  return textOf(await mcp.call("snapshot", { goal }));
}

describe("dialogs: never hang an action, never dismissed silently", () => {
  it("a delete behind confirm(): the click says a confirm is open with its text; accepting deletes", async () => {
    const text = await open("/tasks/delete.html", "delete item 42");
    const click = await mcp.call("click", { id: idOf(text, /"Delete item"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    expect(structured(click).outcome).toBe("dialog");
    expect(structured(click).dialog).toEqual({ type: "confirm", message: "Delete item 42?" });
    expect(textOf(click)).toMatch(/confirm dialog open: "Delete item 42\?"/);
    // Nothing was answered for the agent: the site has not decided yet.
    expect(site.submissions.some((s) => s.task === "delete")).toBe(false);

    // While it is open, the tab is blocked: a snapshot says so instead of hanging.
    const snap = await mcp.call("snapshot", {});
    expect(snap.isError).toBe(true);
    expect(textOf(snap)).toMatch(/^dialog_open: a confirm dialog "Delete item 42\?" is open/);
    const tabs = await mcp.call("tabs");
    expect(textOf(tabs)).toMatch(/confirm dialog open: "Delete item 42\?"/);

    const accept = await mcp.call("dialog", { accept: true });
    expect(accept.isError, textOf(accept)).toBeFalsy();
    expect(structured(accept).outcome).toBe("dom_changed");
    expect(textOf(accept)).toMatch(/- \[\d+\] button "Delete item".* removed/);
    expect(await reported("delete")).toMatchObject({ result: "deleted" });
  });

  it("dismissing a confirm keeps the item; a prompt takes the agent's text; an alert is reported", async () => {
    let text = await open("/tasks/delete.html", "delete item 42");
    site.submissions.length = 0;
    expect(structured(await mcp.call("click", { id: idOf(text, /"Delete item"/) })).outcome).toBe("dialog");
    const dismiss = await mcp.call("dialog", { accept: false });
    expect(structured(dismiss).outcome).toBe("dom_changed");
    expect(await reported("delete")).toMatchObject({ result: "kept" });

    text = textOf(await mcp.call("snapshot", { goal: "rename item 43" }));
    const rename = await mcp.call("click", { id: idOf(text, /"Rename item 43"/) });
    expect(structured(rename).dialog).toEqual({ type: "prompt", message: "New name for item 43?", default_value: "Item 43" });
    expect(textOf(rename)).toMatch(/default "Item 43"/);
    expect(structured(await mcp.call("dialog", { accept: true, text: "Spare parts" })).outcome).toBe("dom_changed");
    expect(await reported("rename")).toMatchObject({ result: "Spare parts" });

    text = textOf(await mcp.call("snapshot", { goal: "show notice" }));
    const notify = await mcp.call("click", { id: idOf(text, /"Show notice"/) });
    expect(structured(notify).dialog).toEqual({ type: "alert", message: "Your items are saved." });
    await mcp.call("dialog", { accept: true });
    expect(await reported("notify")).toMatchObject({ result: "read" });
  });

  it("leaving a page with unsaved changes: beforeunload is reported; accepting leaves", async () => {
    const text = await open("/tasks/editor.html", "leave the editor");
    await mcp.call("type", { id: idOf(text, /textbox/), text: "half a thought" });
    const leave = await mcp.call("click", { id: idOf(text, /"Leave the editor"/) });
    expect(structured(leave).outcome).toBe("dialog");
    expect((structured(leave).dialog as { type: string }).type).toBe("beforeunload");
    const accept = await mcp.call("dialog", { accept: true });
    expect(structured(accept).outcome).toBe("navigated");
    expect(structured(accept).url).toBe(site.url("/next.html"));
  });

  it("bad input: no dialog open, text for a confirm, wrong types", async () => {
    await open("/tasks/delete.html", "delete item 42");
    const none = await mcp.call("dialog", { accept: true });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/^no_dialog: no dialog is open on this tab/);
    const wrong = await mcp.call("dialog", { accept: "yes" });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/accept/);

    const text = textOf(await mcp.call("snapshot", { goal: "delete item 42" }));
    await mcp.call("click", { id: idOf(text, /"Delete item"/) });
    const textForConfirm = await mcp.call("dialog", { accept: true, text: "hi" });
    expect(textOf(textForConfirm)).toMatch(/^bad_arguments: text answers a prompt; this dialog is a confirm/);
    // The dialog is still open, and still answerable.
    expect(structured(await mcp.call("dialog", { accept: false })).outcome).toBe("dom_changed");
  });
});
