// The MCP tools on the headless backend, as an MCP client sees them: the built CLI
// (`sightline mcp --headless`) over stdio, driving Debian's Chromium, against fixture pages
// on loopback whose server records what a form really submitted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idOf, stdioClient, textOf, type McpClient } from "./mcp-client.js";
import { serveAgentSite, type AgentSite } from "./site.js";

let site: AgentSite;
let mcp: McpClient;

beforeAll(async () => {
  site = await serveAgentSite();
  mcp = await stdioClient(["--headless"]);
});

afterAll(async () => {
  await mcp?.close();
  await site?.close();
});

type Structured = Record<string, unknown>;
const structured = (r: { structuredContent?: unknown }) => (r.structuredContent ?? {}) as Structured;

describe("sightline mcp --headless (stdio)", () => {
  it("offers the tools every client can rely on", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["back", "click", "navigate", "press", "read", "screenshot", "scroll", "select", "snapshot", "tabs", "type", "wait"].sort(),
    );
    // Local refinement: the descriptions say nothing is charged.
    expect(tools.find((t) => t.name === "snapshot")?.description).toMatch(/Free/);
  });

  it("fills and submits a form: the site receives the typed, selected and ticked values", async () => {
    const nav = await mcp.call("navigate", { url: site.url("/signup.html") });
    expect(structured(nav).outcome).toBe("navigated");
    const snap = await mcp.call("snapshot", { goal: "create an account" });
    const text = textOf(snap);
    expect(text).toMatch(/textbox.*"Email"/);

    const typed = await mcp.call("type", { id: idOf(text, /"Email"/), text: "alice@example.com" });
    expect(typed.isError).toBeFalsy();
    expect(structured(typed).outcome).toBe("dom_changed");
    // The answer is a diff, not a page: the field's new value in a line or two.
    expect(textOf(typed)).toMatch(/~ \[\d+\].*alice@example\.com/);
    expect(textOf(typed).split("\n").length).toBeLessThan(6);

    await mcp.call("type", { id: idOf(text, /"Password"/), text: "s3cret-pass" });
    const sel = await mcp.call("select", { id: idOf(text, /combobox|"Plan"/), value: "Pro" });
    expect(structured(sel).outcome).toBe("dom_changed");
    const tick = await mcp.call("click", { id: idOf(text, /checkbox/) });
    expect(structured(tick).outcome).toBe("dom_changed");

    const submit = await mcp.call("click", { id: idOf(text, /button "Create account"/) });
    expect(structured(submit).outcome).toBe("navigated");
    expect(textOf(submit)).toMatch(/Account created|Check your email/);
    expect(site.submissions.at(-1)).toEqual({ email: "alice@example.com", password: "s3cret-pass", plan: "pro", terms: "yes" });
  });

  it("clicks and types with trusted input (a page that ignores synthetic events sees a person)", async () => {
    await mcp.call("navigate", { url: site.url("/trusted.html") });
    const text = textOf(await mcp.call("snapshot", {}));
    await mcp.call("click", { id: idOf(text, /"Press me"/) });
    const waited = await mcp.call("wait", { text: "pressed by a person", timeout_ms: 3000 });
    expect(structured(waited).found).toBe(true);
    await mcp.call("type", { id: idOf(text, /"Code"/), text: "42" });
    expect(structured(await mcp.call("wait", { text: "trusted keys: 2", timeout_ms: 3000 })).found).toBe(true);
  });

  it("refuses a stale id and names the closest current element instead of guessing", async () => {
    await mcp.call("navigate", { url: site.url("/rerender.html") });
    const text = textOf(await mcp.call("snapshot", {}));
    const archive = idOf(text, /"Archive"/);
    await mcp.call("click", { id: idOf(text, /"Refresh"/) }); // replaces the Archive button
    const stale = await mcp.call("click", { id: archive });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/^stale: element \[\d+\] button "Archive" is no longer on the page; the closest current element is \[\d+\] button "Archive"/);
    const closest = structured(stale).closest as { id: number };
    expect(closest.id).not.toBe(archive);
    // The named element is the live one: clicking it works.
    expect((await mcp.call("click", { id: closest.id })).isError).toBeFalsy();
  });

  it("answers bad input with a clear MCP error and acts on nothing", async () => {
    await mcp.call("navigate", { url: site.url("/signup.html") });
    const before = structured(await mcp.call("tabs")).tabs;
    await expect(mcp.call("no_such_tool", {})).resolves.toMatchObject({ isError: true });
    const missing = await mcp.call("click", {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/id/);
    expect((await mcp.call("type", { id: "seven", text: "x" })).isError).toBe(true);
    const unknown = await mcp.call("click", { id: 987654 });
    expect(textOf(unknown)).toMatch(/^(no_snapshot|unknown_id):/);
    for (const url of ["file:///etc/passwd", "chrome://settings", "javascript:alert(1)", "not a url"]) {
      const r = await mcp.call("navigate", { url });
      expect(r.isError, url).toBe(true);
      expect(textOf(r), url).toMatch(/^bad_url:/);
    }
    expect(structured(await mcp.call("tabs")).tabs).toEqual(before);
  });

  it("reads Markdown and takes a set-of-mark screenshot", async () => {
    await mcp.call("navigate", { url: site.url("/signup.html") });
    expect(textOf(await mcp.call("read", {}))).toMatch(/Create your account/);
    const shot = await mcp.call("screenshot", {});
    const image = shot.content.find((c) => c.type === "image") as { data: string; mimeType: string } | undefined;
    expect(image?.mimeType).toBe("image/png");
    expect(Buffer.from(image!.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(textOf(shot)).toMatch(/^\d+ elements marked/);
  });
});
