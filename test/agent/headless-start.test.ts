// `sightline mcp --headless` answers an MCP client before its browser is up: initialize and
// tools/list never wait for Chromium, and a browser that cannot start is the first browser
// call's error (a tool error the client shows), not a server that never answers.
import { afterEach, describe, expect, it } from "vitest";
import { stdioClient, textOf, type McpClient } from "./mcp-client.js";

let mcp: McpClient | null = null;

afterEach(async () => {
  await mcp?.close();
  mcp = null;
});

describe("sightline mcp --headless: the browser starts after initialize", () => {
  it("answers initialize and tools/list with no browser, then names the missing browser on the first call", async () => {
    mcp = await stdioClient(["--headless"], { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(mcp.client.getServerVersion()?.name).toBe("sightline");
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toContain("navigate");

    const nav = await mcp.call("navigate", { url: "https://example.com/" });
    expect(nav.isError).toBe(true);
    expect(textOf(nav)).toMatch(/^failed: the browser could not start: Chromium not found at \/nonexistent\/chromium\b.*CHROMIUM_PATH/);

    // The server stays up and says so again, rather than hanging or exiting.
    const tabs = await mcp.call("tabs", {});
    expect(tabs.isError).toBe(true);
    expect(textOf(tabs)).toMatch(/the browser could not start/);
  });

  it("starts the browser it has on the first call that needs it", async () => {
    mcp = await stdioClient(["--headless"]);
    const tabs = await mcp.call("tabs", {}, { structured: false });
    expect(tabs.isError).toBeFalsy();
    expect(textOf(tabs)).toMatch(/^h1 \(active\) about:blank/);
  });
});
