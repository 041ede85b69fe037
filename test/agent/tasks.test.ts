// The tools real tasks need (issue 33), on the headless backend: fixture task sites
// (fixtures/tasks/) completed by a real MCP client over stdio (`sightline mcp --headless`), each
// asserting the site's own state at the end (the pages POST what they did to the test server).
import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

describe("hover, drag, fill_form, forward", () => {
  it("a hover-only menu: hover opens it, its item can then be clicked", async () => {
    let text = await open("/tasks/menu.html", "choose the laptops category");
    expect(text).not.toMatch(/"Laptops"/);
    const hover = await mcp.call("hover", { id: idOf(text, /"Products"/) });
    expect(hover.isError, textOf(hover)).toBeFalsy();
    expect(structured(hover).outcome).toBe("dom_changed");
    expect(textOf(hover)).toMatch(/\+ \[\d+\] link "Laptops"/);
    text = textOf(await mcp.call("snapshot", { goal: "choose the laptops category" }));
    await mcp.call("click", { id: idOf(text, /link "Laptops"/) });
    expect(await reported("menu")).toMatchObject({ result: "laptops" });
  });

  it("kanban: a pointer-event card and a native draggable card are dragged to Done; a slider moved by offset", async () => {
    site.submissions.length = 0;
    const text = await open("/tasks/kanban.html", "move cards to done");
    const done = idOf(text, /"Done"/);
    const d1 = await mcp.call("drag", { id: idOf(text, /"Card: Write report"/), to: done });
    expect(d1.isError, textOf(d1)).toBeFalsy();
    expect(await reported("kanban")).toMatchObject({ card: "c1", column: "done" });
    site.submissions.length = 0;
    const d2 = await mcp.call("drag", { id: idOf(text, /"Card: Call Bob"/), to: done });
    expect(d2.isError, textOf(d2)).toBeFalsy();
    expect(await reported("kanban")).toMatchObject({ card: "c2", column: "done" });

    const slider = textOf(await mcp.call("snapshot", { goal: "set the max price" }));
    const moved = await mcp.call("drag", { id: idOf(slider, /slider|"Max price"/), dx: 100 });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    const v = Number((await reported("slider"))?.value);
    // From the middle of a 400 px, 0–1000 slider, 100 px right: about 750.
    expect(v).toBeGreaterThan(600);
    expect(v).toBeLessThan(900);
  });

  it("fill_form: text, password, select, radio and checkboxes in one call; the site receives them", async () => {
    site.submissions.length = 0;
    const text = await open("/tasks/apply.html", "apply for the job");
    const fill = await mcp.call("fill_form", {
      fields: [
        { id: idOf(text, /"Full name"/), value: "Ada Lovelace" },
        { id: idOf(text, /"Email"/), value: "ada@example.com" },
        { id: idOf(text, /"Password"/), value: "n0t-shown" },
        { id: idOf(text, /"Country"/), value: "Germany" },
        { id: idOf(text, /radio "Part time"/), value: "true" },
        { id: idOf(text, /"Send me job news"/), value: "false" },
        { id: idOf(text, /"I accept the terms"/), value: "true" },
      ],
    });
    expect(fill.isError, textOf(fill)).toBeFalsy();
    expect(structured(fill).outcome).toBe("dom_changed");
    expect(textOf(fill)).not.toContain("n0t-shown");
    await mcp.call("click", { id: idOf(text, /"Send application"/) });
    expect(await reported("apply")).toEqual({ task: "apply", name: "Ada Lovelace", email: "ada@example.com", password: "n0t-shown", country: "de", contract: "part", terms: "yes" });
  });

  it("back then forward returns to the page", async () => {
    await open("/signup.html", "sign up");
    await mcp.call("navigate", { url: site.url("/next.html") });
    expect(structured(await mcp.call("back")).url).toBe(site.url("/signup.html"));
    const fwd = await mcp.call("forward");
    expect(structured(fwd).outcome).toBe("navigated");
    expect(structured(fwd).url).toBe(site.url("/next.html"));
  });

  it("bad input gets a clear error: unknown ids, both to and dx, wrong types, a missing option, an empty form", async () => {
    const text = await open("/tasks/kanban.html", "move cards");
    const card = idOf(text, /"Card: Write report"/);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["hover", { id: 9999 }, /^unknown_id: element \[9999\]/],
      ["drag", { id: card, to: 9999 }, /^unknown_id: element \[9999\]/],
      ["drag", { id: card, to: card }, /^bad_arguments: to is the element being dragged/],
      ["drag", { id: card, to: idOf(text, /"Done"/), dx: 10 }, /^bad_arguments: give either to/],
      ["drag", { id: card }, /^bad_arguments: give either to/],
      ["drag", { id: card, dx: 99999 }, /dx/],
      ["hover", { id: "x" }, /id/],
      ["fill_form", { fields: [] }, /fields/],
      ["fill_form", { fields: [{ id: 9999, value: "a" }] }, /^unknown_id: element \[9999\]/],
      ["fill_form", { fields: [{ id: card, value: 3 }] }, /value/],
    ];
    for (const [tool, args, want] of cases) {
      const r = await mcp.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`).toBe(true);
      expect(textOf(r)).toMatch(want);
    }
    const form = await open("/tasks/apply.html", "apply");
    const r = await mcp.call("fill_form", { fields: [{ id: idOf(form, /"Country"/), value: "Mars" }] });
    expect(textOf(r)).toMatch(/^not_actionable: no option "Mars".*France, Germany/);
  });
});

describe("upload: only from the upload folder", () => {
  let dir: string;
  let up: McpClient;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-upload-"));
    await mkdir(join(dir, "files"));
    await writeFile(join(dir, "files", "cv.txt"), "Ada Lovelace, analyst");
    await writeFile(join(dir, "secret.txt"), "not for the site");
    await symlink(join(dir, "secret.txt"), join(dir, "files", "link.txt"));
    up = await stdioClient(["--headless"], { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1", SIGHTLINE_UPLOAD_DIR: join(dir, "files") });
  });

  afterAll(async () => {
    await up?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("attaches a CV to the job application; the site reads the file", async () => {
    await up.call("navigate", { url: site.url("/tasks/apply.html") });
    const text = textOf(await up.call("snapshot", { goal: "attach your CV" }));
    const r = await up.call("upload", { id: idOf(text, /"Your CV"/), path: "cv.txt" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(structured(r).outcome).toBe("dom_changed");
    expect(await reported("cv")).toEqual({ task: "cv", name: "cv.txt", size: "21", text: "Ada Lovelace, analyst" });
  });

  it("refuses a path outside the folder, a symlink out of it, a missing file, and a non-file element", async () => {
    const text = textOf(await up.call("snapshot", { goal: "attach your CV" }));
    const cv = idOf(text, /"Your CV"/);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ id: cv, path: "../secret.txt" }, /^bad_arguments: "..\/secret.txt" is outside the upload folder/],
      [{ id: cv, path: join(dir, "secret.txt") }, /^bad_arguments: .* is outside the upload folder/],
      [{ id: cv, path: "link.txt" }, /^bad_arguments: "link.txt" is outside the upload folder/],
      [{ id: cv, path: "nope.pdf" }, /^bad_arguments: no file "nope.pdf" in the upload folder/],
      [{ id: 9999, path: "cv.txt" }, /^unknown_id: /],
      [{ id: idOf(text, /"Full name"/), path: "cv.txt" }, /^not_actionable: element \[\d+\] \(input text\) opened no file chooser/],
      [{ id: cv }, /path/],
    ];
    for (const [args, want] of cases) {
      const r = await up.call("upload", args);
      expect(r.isError, `${JSON.stringify(args)}: ${textOf(r)}`).toBe(true);
      expect(textOf(r)).toMatch(want);
    }
  });

  it("without an upload folder, uploads are off", async () => {
    await open("/tasks/apply.html", "attach your CV");
    const text = textOf(await mcp.call("snapshot", { goal: "attach your CV" }));
    const r = await mcp.call("upload", { id: idOf(text, /"Your CV"/), path: "cv.txt" });
    expect(textOf(r)).toMatch(/^bad_arguments: uploads are off: .*SIGHTLINE_UPLOAD_DIR/);
    // Inline bytes need no folder: what a remote agent sends.
    site.submissions.length = 0;
    const inline = await mcp.call("upload", { id: idOf(text, /"Your CV"/), path: "ada.txt", content: Buffer.from("Ada, inline").toString("base64") });
    expect(inline.isError, textOf(inline)).toBeFalsy();
    expect(await reported("cv")).toEqual({ task: "cv", name: "ada.txt", size: "11", text: "Ada, inline" });
    expect(textOf(await mcp.call("upload", { id: idOf(text, /"Your CV"/), path: "x.txt", content: "%%%" }))).toMatch(/^bad_arguments: content is not base64/);
  });
});

describe("find", () => {
  it("finds the one control among 3,000 that a goal-free snapshot misses, in a short answer", async () => {
    site.submissions.length = 0;
    const snap = await open("/tasks/big.html", "");
    expect(snap).not.toMatch(/Export invoices/);
    const f = await mcp.call("find", { text: "export invoices" });
    expect(f.isError, textOf(f)).toBeFalsy();
    expect(textOf(f)).toMatch(/^1 element matches "export invoices":\n\[\d+\] button "Export invoices as CSV"/);
    expect(textOf(f).length).toBeLessThan(400);
    const click = await mcp.call("click", { id: idOf(textOf(f), /"Export invoices as CSV"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    expect(await reported("export")).toMatchObject({ result: "csv" });

    expect(textOf(await mcp.call("find", { text: "no such words here" }))).toBe('nothing on the page matches "no such words here"');
    const many = await mcp.call("find", { text: "record 14", limit: 3 });
    expect(textOf(many).split("\n")).toHaveLength(4);
    expect(textOf(many)).toMatch(/^\d+ elements match "record 14"; the best 3:/);
    const bad = await mcp.call("find", { text: "" });
    expect(bad.isError).toBe(true);
  });
});

describe("tabs", () => {
  it("a link that opens a new tab is named in the answer; the agent works there, opens, selects and closes tabs", async () => {
    site.submissions.length = 0;
    const text = await open("/tasks/links.html", "open the invoice");
    const click = await mcp.call("click", { id: idOf(text, /"Open the invoice"/) });
    expect(click.isError, textOf(click)).toBeFalsy();
    const opened = structured(click).opened as { tab: string; url: string }[];
    expect(opened).toEqual([{ tab: expect.stringMatching(/^h\d+$/), url: site.url("/tasks/invoice.html") }]);
    expect(textOf(click)).toMatch(new RegExp(`opened a new tab ${opened[0].tab} .*invoice\\.html`));
    const invoice = textOf(await mcp.call("snapshot", { tab: opened[0].tab, goal: "mark as paid" }));
    await mcp.call("click", { tab: opened[0].tab, id: idOf(invoice, /"Mark as paid"/) });
    expect(await reported("invoice")).toMatchObject({ result: "paid" });

    const made = await mcp.call("tab_open", { url: site.url("/next.html") });
    expect(made.isError, textOf(made)).toBeFalsy();
    const third = structured(made).tab as string;
    let tabs = structured(await mcp.call("tabs")).tabs as { tab: string; active: boolean }[];
    expect(tabs.find((t) => t.active)?.tab).toBe(third);
    const sel = await mcp.call("tab_select", { tab: opened[0].tab });
    expect(textOf(sel)).toMatch(new RegExp(`^${opened[0].tab} \\(active\\)`, "m"));
    const closed = await mcp.call("tab_close", { tab: third });
    expect(closed.isError, textOf(closed)).toBeFalsy();
    tabs = structured(await mcp.call("tabs")).tabs as { tab: string; active: boolean }[];
    expect(tabs.map((t) => t.tab)).not.toContain(third);
    await mcp.call("tab_close", { tab: opened[0].tab });

    expect(textOf(await mcp.call("tab_close", { tab: "h999" }))).toMatch(/^no_tab: /);
    expect(textOf(await mcp.call("tab_open", { url: "file:///etc/passwd" }))).toMatch(/^bad_url: /);
    expect((await mcp.call("tab_select", {})).isError).toBe(true);
  });
});
