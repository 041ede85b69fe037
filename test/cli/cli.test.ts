// The built `sightline` CLI (shared/dist/cli/main.js, what `npx sightline` runs), spawned as a
// user would: output, messages and exit codes against the real server and real Chromium.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSightline, type Sightline as TestServer } from "../support/sightline-server.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { CHROMIUM_PATH } from "../support/chromium.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(root, "shared/dist/cli/main.js");
const fixtures = fileURLToPath(new URL("../sdk/fixtures/", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let cwd: string;
/** Runs the CLI with only the variables given (no developer SIGHTLINE_* leaks in) in an empty dir. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", CHROMIUM_PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let sl: TestServer;
let site: StaticServer;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "sightline-cli-"));
  [sl, site] = await Promise.all([
    startSightline({ env: { SIGHTLINE_ALLOW_PRIVATE_HOSTS: "127.0.0.1" } }),
    serveStatic(fixtures),
  ]);
});
afterAll(async () => {
  await Promise.all([sl?.close(), site?.close()]);
  await rm(cwd, { recursive: true, force: true });
});

describe("sightline CLI: usage", () => {
  it("--help lists the commands and the exit codes (exit 0); no command is a usage error (exit 2)", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/observe URL/);
    expect(help.stdout).toMatch(/4 {2}server unreachable/);
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(["frobnicate"]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it("rejects bad flags and URLs with exit 2 before doing any work", async () => {
    for (const args of [["snapshot"], ["observe", "--mode", "bogus", "https://a.test"], ["observe", "--limit", "abc", "https://a.test"], ["snapshot", "--wat", "https://a.test"], ["observe", "ftp://a.test/x"]]) {
      const r = await cli(args, { SIGHTLINE_API_KEY: "k" });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^sightline: /);
    }
  });
});

describe("sightline CLI: failures a user meets", () => {
  it("no key → exit 3 naming SIGHTLINE_API_KEY", async () => {
    const r = await cli(["observe", "https://a.test"], { SIGHTLINE_BASE_URL: sl.origin });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/SIGHTLINE_API_KEY is not set/);
  });

  it("server not running → exit 4 'connection refused'", async () => {
    const probe = createServer();
    await new Promise<void>((res) => probe.listen(0, "127.0.0.1", res));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((res) => probe.close(() => res()));
    const r = await cli(["observe", "https://a.test"], { SIGHTLINE_BASE_URL: `http://127.0.0.1:${port}`, SIGHTLINE_API_KEY: "k" });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/cannot reach Sightline at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
  });

  it("401, 402, 403 → exit 3 with a message for each", async () => {
    const env = (key: string) => ({ SIGHTLINE_BASE_URL: sl.origin, SIGHTLINE_API_KEY: key });
    const bad = await cli(["observe", site.url("/form.html")], env("sk_invalid"));
    expect(bad).toMatchObject({ code: 3 });
    expect(bad.stderr).toMatch(/API key was rejected \(401/);
    const broke = await cli(["observe", site.url("/form.html")], env(await sl.createKey(0)));
    expect(broke).toMatchObject({ code: 3 });
    expect(broke.stderr).toMatch(/out of credits \(402\) \(0 credits left\)/);
    const inactive = await cli(["observe", site.url("/form.html")], env(await sl.createKey(5, { active: false })));
    expect(inactive).toMatchObject({ code: 3 });
    expect(inactive.stderr).toMatch(/inactive \(403/);
  });

  it("429 with a long Retry-After → exit 6 and when to try again", async () => {
    const limited = await startSightline({ config: { rateLimitPerMinute: 2 } });
    try {
      const key = await limited.createKey(10);
      const tiny = JSON.stringify({ url: "https://a.test/", raw_elements: [] });
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${limited.origin}/v1/snapshot`, { method: "POST", headers: limited.headers(key), body: tiny });
        await res.arrayBuffer();
      }
      const r = await cli(["observe", "https://a.test"], { SIGHTLINE_BASE_URL: limited.origin, SIGHTLINE_API_KEY: key });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/rate limited \(429\) after 1 attempt\. Try again in \d+ s/);
    } finally {
      await limited.close();
    }
  });
});

describe("sightline CLI: output", () => {
  it("snapshot --local prints the ranked table without a server or key; nothing but text on a non-TTY stderr", async () => {
    const r = await cli(["snapshot", site.url("/form.html"), "--local", "--goal", "type your email"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^\s*#\s+id\s+role\s+label/);
    expect(lines[2]).toMatch(/textbox\[email\]\s+Email/); // the goal's field ranks first
    expect(r.stdout).toMatch(/Create account/);
    expect(r.stderr).toMatch(/local mode, goal "type your email"/);
    expect(r.stderr).not.toMatch(/\x1b\[/); // no spinner escape codes when stderr is not a terminal
  });

  it("snapshot --json through the API charges one credit", async () => {
    const key = await sl.createKey(3);
    const r = await cli(["snapshot", site.url("/change.html"), "--json", "--limit", "3"], { SIGHTLINE_BASE_URL: sl.origin, SIGHTLINE_API_KEY: key });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { status: string; elements: unknown[]; credits_remaining: number; mode: string };
    expect(body).toMatchObject({ status: "success", credits_remaining: 2, mode: "api" });
    expect(body.elements).toHaveLength(3);
    expect(await sl.credits(key)).toBe(2);
  });

  it("observe read prints Markdown, map a table, visual --out saves a PNG", async () => {
    const key = await sl.createKey(50);
    const env = { SIGHTLINE_BASE_URL: sl.origin, SIGHTLINE_API_KEY: key };
    const read = await cli(["observe", site.url("/form.html")], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toMatch(/# Sign up/);
    const map = await cli(["observe", site.url("/form.html"), "--mode", "map", "--limit", "5"], env);
    expect(map.code, map.stderr).toBe(0);
    expect(map.stdout.split("\n")[0]).toMatch(/^id\s+role\s+text\s+box/);
    expect(map.stdout.trim().split("\n")).toHaveLength(2 + 5);
    const out = join(cwd, "shot.png");
    const visual = await cli(["observe", site.url("/form.html"), "--mode", "visual", "--out", out], env);
    expect(visual.code, visual.stderr).toBe(0);
    expect(visual.stderr).toMatch(/saved png screenshot \(\d+ bytes\)/);
    const png = await readFile(out);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
  });
});
