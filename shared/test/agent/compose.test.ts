// The MCP server composeAgentServer builds, over a fake backend (no browser): what a client gets
// back. Text is what the model reads; structured content only for clients that ask (issue 32:
// clients that hand both to the model paid for every answer twice).
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { composeAgentServer, LOCAL_PRICES, STRUCTURED_META, TOOLS, type AgentBackend, type AgentServerParts } from "@sightline/shared/agent";
import { localRefine } from "@sightline/shared/agent/headless";
import type { Sightline } from "@sightline/shared/client";
import type { RefineResult, SnapshotRequest } from "@sightline/shared/contract";

const TABS = [{ tab: "t1", url: "https://shop.example/", title: "Shop", active: true }];

/** A backend with one tab that nothing but `tabs` is asked of. */
const backend: AgentBackend = {
  tabs: async () => TABS,
  capture: async () => {
    throw new Error("not in this test");
  },
  read: async () => {
    throw new Error("not in this test");
  },
  screenshot: async () => {
    throw new Error("not in this test");
  },
  act: async () => {
    throw new Error("not in this test");
  },
  wait: async () => true,
};

let clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

async function connect(parts: Partial<AgentServerParts> = {}): Promise<Client> {
  const { server } = composeAgentServer({
    backend,
    refine: async () => {
      throw new Error("not in this test");
    },
    prices: LOCAL_PRICES,
    where: "headless",
    ...parts,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "compose-test", version: "1.0.0" });
  await client.connect(b);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;

describe("composeAgentServer: text, and structured content for clients that ask", () => {
  it("answers text only by default, results and tool errors alike", async () => {
    const client = await connect();
    const tabs = await call(client, "tabs", {});
    expect(tabs.content).toEqual([{ type: "text", text: 't1 (active) https://shop.example/ "Shop"' }]);
    expect(tabs.structuredContent).toBeUndefined();
    const bad = await call(client, "scroll", { direction: "down", id: 3 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toEqual([{ type: "text", text: "bad_arguments: give either direction or id, not both" }]);
    expect(bad.structuredContent).toBeUndefined();
  });

  it("adds the structured answer to a call that asks in its _meta", async () => {
    const client = await connect();
    const tabs = await call(client, "tabs", {}, { [STRUCTURED_META]: true });
    expect(tabs.structuredContent).toEqual({ tabs: TABS });
    const bad = await call(client, "scroll", { direction: "down", id: 3 }, { [STRUCTURED_META]: true });
    expect(bad.structuredContent).toMatchObject({ error: "bad_arguments" });
    // The next call without it is text only again.
    expect((await call(client, "tabs", {})).structuredContent).toBeUndefined();
  });

  it("adds it to every answer of a session opened with structuredContent", async () => {
    const client = await connect({ structuredContent: true });
    expect((await call(client, "tabs", {})).structuredContent).toEqual({ tabs: TABS });
  });

  it("declares no outputSchema, which would oblige structured content on every call", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.length).toBe(TOOLS.length);
    expect(tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name)).toEqual([]);
  });
});

describe("one price list: what an API-backed session sends to the API", () => {
  const page: SnapshotRequest = { url: "https://shop.example/", viewport: { width: 800, height: 600 }, raw_elements: [] } as unknown as SnapshotRequest;

  it("a screenshot's marks are refined as a priced call (purpose screenshot), not an internal one", async () => {
    const purposes: string[] = [];
    const client = await connect({
      backend: { ...backend, capture: async () => page, screenshot: async () => "iVBORw0KGgo=" },
      refine: async (_req, _opts, purpose) => {
        purposes.push(purpose);
        return { elements: [] } as unknown as RefineResult;
      },
    });
    const shot = await call(client, "screenshot", {});
    expect(shot.isError).toBeFalsy();
    expect(purposes).toEqual(["screenshot"]);
  });

  it("sightline mcp --headless --api sends the agent's snapshots and screenshot marks to /v1/snapshot, never the internal pictures", async () => {
    const sent: SnapshotRequest[] = [];
    const api = { snapshot: async (body: SnapshotRequest) => (sent.push(body), { elements: [] }) } as unknown as Sightline;
    const refine = localRefine(api);
    await refine(page, { goal: "buy" }, "snapshot");
    await refine(page, {}, "screenshot");
    expect(sent.map((b) => b.goal ?? null)).toEqual(["buy", null]);
    await refine(page, {}, "internal");
    expect(sent.length).toBe(2);
  });
});
