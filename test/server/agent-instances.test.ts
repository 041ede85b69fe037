// The agent path across two instances on one PostgreSQL (issue 35): two `server/dist/main.js`
// processes, the real extension in Chromium connected through a loopback TCP balancer (to A
// while A lives), real MCP clients (@modelcontextprotocol/sdk) on B and on A.
// - On B: tabs, a snapshot, an approved click (the approval's progress comes back) and a
//   rejected one, all relayed to A, which holds the extension.
// - A session opened on one instance whose requests alternate between both: one session.
// - A second agent on A acting on the tab the first one drives: busy.
// - A killed with SIGKILL mid-call: the call fails with not_connected (retry), the extension
//   reconnects to B through the balancer by itself, the same tab handle works, the session
//   opened on A is re-established on B, and the credits are exact (nothing for failed calls).
// Needs Debian's PostgreSQL (skipped loudly without), Chromium and the built server and extension.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PgLedger } from "@sightline/server";
import { startPostgres, type PgServer } from "../support/postgres.js";
import { startBalancer, type Balancer } from "../support/balancer.js";
import { launchWithExtension, saveBackendSettings, type ExtensionBrowser } from "../extension/harness.js";
import { serveAgentSite, type AgentSite } from "../agent/site.js";
import { idOf, STRUCTURED, textOf } from "../agent/mcp-client.js";
import { exited, SKIP_UNBUILT, startChild, type ChildServer } from "./process.js";

const pgServer: PgServer | null = SKIP_UNBUILT ? null : await startPostgres();

interface Agent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>, progress?: string[]): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A real MCP client whose every HTTP request goes to `target()` (an instance, or a balancer's choice). */
async function agent(target: () => string, key: string): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL("http://agent.invalid/mcp"), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (url, init) => fetch(new URL(new URL(String(url)).pathname, target()), init),
  });
  const client = new Client({ name: "sightline-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args = {}, progress) =>
      (await client.callTool({ name, arguments: args, _meta: STRUCTURED }, undefined, progress ? { onprogress: (p) => void progress.push(String(p.message)) } : undefined)) as CallToolResult,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

const structured = (r: CallToolResult) => (r.structuredContent ?? {}) as Record<string, unknown>;

describe.skipIf(!pgServer)("the agent path on two instances (extension on A, agent on B)", () => {
  let url: string;
  let admin: PgLedger;
  let lb: Balancer;
  let A: ChildServer;
  let B: ChildServer;
  let site: AgentSite;
  let ext: ExtensionBrowser;
  let page: Page;
  let panel: Page;
  let tabId: number;
  let key: string;
  let accountId: string;
  let onB: Agent;
  let onA: Agent;
  let aAlive = true;
  /** Credits the account should have: 100 less one per snapshot that answered. */
  let expected = 100;
  const dirs: string[] = [];

  const start = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "sightline-agent-inst-"));
    dirs.push(dataDir);
    return startChild(dataDir, {
      SIGHTLINE_DATABASE_URL: url,
      SIGHTLINE_PUBLIC_URL: lb.url, // the name the extension reaches them by, through the balancer
      SIGHTLINE_REFINE_WORKERS: "0",
      SIGHTLINE_BROWSER_SPARES: "0",
      SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
      SIGHTLINE_DEV_CREDITS: "0",
    });
  };
  const hostOf = (c: ChildServer) => new URL(c.origin).host;
  const balance = async () => (await admin.authenticate(key))!.credits;
  /** Which instance holds the extension, from the presence rows. */
  const holder = async () => {
    const { rows } = await admin.database.query<{ url: string }>(
      "SELECT i.url FROM bridge_presence p JOIN cluster_instances i ON i.id = p.instance WHERE p.account_id = $1",
      [accountId],
    );
    return rows.map((r) => r.url);
  };

  async function decide(summary: RegExp, how: "approve" | "reject"): Promise<void> {
    const card = panel.locator(".approval").first();
    await card.waitFor({ timeout: 20_000 });
    expect((await card.locator(".approval-summary").textContent()) ?? "").toMatch(summary);
    await card.locator(`button.${how}`).click();
  }

  beforeAll(async () => {
    url = await pgServer!.database();
    lb = await startBalancer();
    [site, A, B, ext] = await Promise.all([serveAgentSite(), start(), start(), launchWithExtension()]);
    lb.backends.push(hostOf(A), hostOf(B));
    admin = await PgLedger.connect({ url, poolSize: 2 });
    const made = await admin.createAccount({ credits: 100 });
    key = made.key;
    accountId = made.account.id;
    page = ext.context.pages()[0] ?? (await ext.context.newPage());
    await page.goto(site.url("/signup.html"));
    await ext.clickAction(page);
    tabId = await ext.tabIdOf(page);
    panel = await ext.openPanel(tabId);
    await saveBackendSettings(panel, lb.url, key);
    await panel.check("#share-toggle");
    await panel.waitForSelector('#agent-conn[data-status="connected"]', { timeout: 20_000 });
    onB = await agent(() => B.origin, key);
  }, 120_000);

  afterAll(async () => {
    await onB?.close();
    await onA?.close();
    await ext?.close();
    for (const c of [A, B]) c?.proc.kill("SIGKILL");
    await Promise.all([A, B].filter(Boolean).map((c) => exited(c.proc)));
    await lb?.close();
    await admin?.close();
    await site?.close();
    await pgServer?.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  // A test that failed midway leaves no card behind for the next one.
  afterEach(async () => {
    for (const b of await panel.locator(".approval button.reject").all()) await b.click().catch(() => undefined);
  });

  test("the extension is on A; tabs and a snapshot on B are relayed to it (the snapshot charged once)", async () => {
    await expect.poll(holder, { timeout: 10_000 }).toEqual([A.origin]);
    const tabs = structured(await onB.call("tabs")).tabs as { tab: string; url: string }[];
    expect(tabs).toEqual([expect.objectContaining({ tab: `b1.${tabId}`, url: site.url("/signup.html") })]);
    const text = textOf(await onB.call("snapshot", { goal: "create an account" }));
    expect(text).toMatch(/textbox.*"Email"/);
    expect(await balance()).toBe(--expected);
  });

  test("a tab the person shares just after a relayed call is reachable through B at once", async () => {
    await onB.call("tabs"); // B has routed to A lately (the test above): its route may be cached
    const second = await ext.context.newPage();
    try {
      await second.goto(site.url("/signup.html?second=1"));
      await ext.clickAction(second);
      const secondId = await ext.tabIdOf(second);
      const secondPanel = await ext.openPanel(secondId);
      await secondPanel.click('.tabs button[data-view="agent"]');
      await secondPanel.check("#share-toggle");
      const handle = `b1.${secondId}`;
      // As soon as the person's share is recorded, B reaches the new tab (no stale route).
      await expect.poll(async () => (structured(await onB.call("tabs")).tabs as { tab: string }[]).map((t) => t.tab), { timeout: 10_000 }).toContain(handle);
      const r = await onB.call("snapshot", { tab: handle });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(textOf(r)).toMatch(/textbox.*"Email"/);
      expect(await balance()).toBe(--expected);
      await secondPanel.close();
    } finally {
      await second.close(); // the share is back to the one tab the later tests drive
    }
    await expect.poll(async () => (structured(await onB.call("tabs")).tabs as unknown[]).length, { timeout: 10_000 }).toBe(1);
  });

  test("a session whose requests alternate between A and B is one session (ids, approvals, its end frees the tab)", async () => {
    let n = 0;
    const both = await agent(() => (n++ % 2 ? B.origin : A.origin), key);
    try {
      const text = textOf(await both.call("snapshot", {}));
      expect(await balance()).toBe(--expected);
      // The click names an id of the snapshot taken through the other instance.
      const progress: string[] = [];
      const [r] = await Promise.all([both.call("click", { id: idOf(text, /checkbox/) }, progress), decide(/^Click 'I accept the terms'/, "approve")]);
      expect(textOf(r)).not.toMatch(/no_snapshot|unknown_id/);
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(await page.isChecked('input[name="terms"]')).toBe(true);
      expect(progress.join("\n")).toMatch(/waiting for the person's approval/);
    } finally {
      await both.close(); // its lease on the tab goes with it, on the instance holding the tab
    }
  });

  test("an approved click through B: the approval's progress comes back, the page changes", async () => {
    const text = textOf(await onB.call("snapshot", {}));
    expect(await balance()).toBe(--expected);
    const progress: string[] = [];
    const [r] = await Promise.all([onB.call("click", { id: idOf(text, /checkbox/) }, progress), decide(/^Click 'I accept the terms'/, "approve")]);
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(structured(r).outcome).toBe("dom_changed");
    expect(await page.isChecked('input[name="terms"]')).toBe(false);
    expect(progress.join("\n")).toMatch(/waiting for the person's approval/);
  });

  test("a rejected click through B: rejected, nothing submitted", async () => {
    const text = textOf(await onB.call("snapshot", {}));
    expect(await balance()).toBe(--expected);
    const before = site.submissions.length;
    const [r] = await Promise.all([onB.call("click", { id: idOf(text, /button "Create account"/) }), decide(/^Click 'Create account'/, "reject")]);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^rejected: rejected by the person/);
    expect(site.submissions.length).toBe(before);
  });

  test("a second agent on A acting on the tab the agent on B drives gets busy", async () => {
    onA = await agent(() => (aAlive ? A.origin : B.origin), key); // as a balancer would send it
    const text = textOf(await onA.call("snapshot", {})); // looking is fine
    expect(await balance()).toBe(--expected);
    const r = await onA.call("click", { id: idOf(text, /checkbox/) });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^busy: tab "b1\.\d+" is being driven by another agent session/);
    expect(await panel.locator(".approval").count()).toBe(0);
  });

  test("A killed with SIGKILL mid-call: not_connected, the extension reconnects to B by itself, the next calls work, credits exact", async () => {
    const text = textOf(await onB.call("snapshot", {}));
    expect(await balance()).toBe(--expected);
    // A click waiting for the person's approval on A's socket when A dies.
    const pending = onB.call("click", { id: idOf(text, /checkbox/) });
    await panel.locator(".approval").first().waitFor({ timeout: 20_000 });
    A.proc.kill("SIGKILL");
    aAlive = false;
    await exited(A.proc);
    const failed = await pending;
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^not_connected: .*(went away|not running).*retry/);
    expect(await page.isChecked('input[name="terms"]')).toBe(false);

    // Until the extension is back, calls fail cleanly and charge nothing.
    const early = await onB.call("snapshot", {});
    if (early.isError) expect(textOf(early)).toMatch(/^not_connected/);
    else expected--;
    expect(await balance()).toBe(expected);

    // The extension reconnects through the balancer, now to B, by itself.
    await expect.poll(holder, { timeout: 30_000, interval: 250 }).toEqual([B.origin]);
    await panel.waitForSelector('#agent-conn[data-status="connected"]', { timeout: 20_000 });
    for (const b of await panel.locator(".approval button.reject").all()) await b.click().catch(() => undefined);
    await expect.poll(async () => (structured(await onB.call("tabs")).tabs as { tab: string }[] | undefined)?.map((t) => t.tab), { timeout: 10_000 }).toEqual([`b1.${tabId}`]);

    // The next calls work, on the same tab handle.
    const again = textOf(await onB.call("snapshot", { tab: `b1.${tabId}` }));
    expect(await balance()).toBe(--expected);
    const [r] = await Promise.all([onB.call("click", { id: idOf(again, /checkbox/) }), decide(/^Click 'I accept the terms'/, "approve")]);
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(await page.isChecked('input[name="terms"]')).toBe(true);

    // The session opened on A is re-established on B (same id): its next request just works.
    const id = onA.transport.sessionId;
    const tabs = await onA.call("tabs");
    expect(tabs.isError, textOf(tabs)).toBeFalsy();
    expect(onA.transport.sessionId).toBe(id);
    expect(textOf(await onA.call("snapshot", {}))).toMatch(/checkbox/);
    expect(await balance()).toBe(--expected);

    // Every charge is a snapshot that answered; every failed one was refunded.
    const { rows } = await admin.database.query<{ charged: number; refunded: number }>(
      `SELECT coalesce(sum(c.credits), 0)::int AS charged, coalesce(sum(c.credits) FILTER (WHERE r.key IS NOT NULL), 0)::int AS refunded
       FROM charges c LEFT JOIN refunds r ON r.key = c.key WHERE c.account_id = $1`,
      [accountId],
    );
    expect(rows[0].charged - rows[0].refunded).toBe(100 - expected);
    expect(await balance()).toBe(expected);
  });
});
