import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig, parseBytes } from "../../src/config.js";

describe("loadConfig", () => {
  test("defaults: 127.0.0.1:8787, ./data, cap 100, 10 MB body", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: "127.0.0.1", port: 8787, snapshotCap: 100, bodyLimitBytes: 10 * 1024 * 1024, logLevel: "info", devKey: true });
    expect(c.dataDir).toBe(`${process.cwd()}/data`);
  });
  test("environment variables are read and typed", () => {
    const c = loadConfig({ HOST: "0.0.0.0", PORT: "9000", SIGHTLINE_DATA_DIR: "/tmp/x", SIGHTLINE_SNAPSHOT_CAP: "20", SIGHTLINE_RATE_LIMIT: "0", SIGHTLINE_BODY_LIMIT: "512kb", SIGHTLINE_LOG_LEVEL: "WARN", SIGHTLINE_ML_RERANK: "1", SIGHTLINE_REFINE_WORKERS: "0", SIGHTLINE_PUBLIC_URL: "https://api.example.com" });
    expect(c).toMatchObject({ host: "0.0.0.0", port: 9000, dataDir: "/tmp/x", snapshotCap: 20, rateLimitPerMinute: 0, bodyLimitBytes: 512 * 1024, logLevel: "warn", mlRerank: "on", refineWorkers: 0 });
  });
  test("the limits and names of issue 30 (items 7, 9)", () => {
    const c = loadConfig({
      SIGHTLINE_AUTH_FAILURE_LIMIT: "0",
      SIGHTLINE_MCP_SESSIONS: "4",
      SIGHTLINE_BRIDGE_MAX_MESSAGE: "2mb",
      SIGHTLINE_ALLOWED_HOSTS: "Sightline.internal, .corp.example, 10.0.0.5:8787, [::2]",
      SIGHTLINE_ALLOWED_ORIGINS: "https://App.example/",
    });
    expect(c).toMatchObject({ authFailuresPerMinute: 0, mcpSessionsPerAccount: 4, bridgeMaxMessageBytes: 2 * 1024 * 1024 });
    expect(c.allowedHosts).toEqual(["sightline.internal", ".corp.example", "10.0.0.5:8787", "[::2]"]);
    expect(c.allowedOrigins).toEqual(["https://app.example"]);
    expect(() => loadConfig({ SIGHTLINE_ALLOWED_HOSTS: "http://a.example" })).toThrow(/SIGHTLINE_ALLOWED_HOSTS/);
    expect(() => loadConfig({ SIGHTLINE_ALLOWED_ORIGINS: "app.example" })).toThrow(/SIGHTLINE_ALLOWED_ORIGINS/);
    // Every interface: the name clients use must be configured.
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/SIGHTLINE_PUBLIC_URL/);
    expect(() => loadConfig({ HOST: "::" })).toThrow(/SIGHTLINE_PUBLIC_URL/);
    expect(loadConfig({ HOST: "10.0.0.5" }).host).toBe("10.0.0.5");
  });
  test("overrides win over the environment", () => {
    expect(loadConfig({ PORT: "9000" }, { port: 0 }).port).toBe(0);
  });
  test.each([
    ["PORT", "http"],
    ["PORT", "70000"],
    ["SIGHTLINE_SNAPSHOT_CAP", "0"],
    ["SIGHTLINE_SNAPSHOT_CAP", "1.5"],
    ["SIGHTLINE_RATE_LIMIT", "-1"],
    ["SIGHTLINE_BODY_LIMIT", "lots"],
    ["SIGHTLINE_LOG_LEVEL", "loud"],
    ["SIGHTLINE_ML_RERANK", "maybe"],
    ["SIGHTLINE_REFINE_WORKERS", "-1"],
  ])("a malformed %s=%s is refused with the variable's name", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name === "SIGHTLINE_BODY_LIMIT" ? /size/ : name);
  });
  test("parseBytes", () => {
    expect(parseBytes("10mb")).toBe(10485760);
    expect(parseBytes("1.5KB")).toBe(1536);
    expect(parseBytes("42")).toBe(42);
  });
});
