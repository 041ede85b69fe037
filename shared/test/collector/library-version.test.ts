// The accessible-name fast paths (name.ts) and per-tag role caches (role.ts) restate what one
// version of dom-accessibility-api answers. An upgrade must re-check them, so this fails when the
// installed or pinned version is not the one they were checked against.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOM_ACCESSIBILITY_API_CHECKED } from "../../src/collector/name.js";

const shared = join(import.meta.dirname, "../..");

/** The installed package's version, found from where shared/ resolves it. */
function installedVersion(): string {
  const entry = createRequire(join(shared, "package.json")).resolve("dom-accessibility-api");
  // Walk up from the entry file to the package's own package.json.
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "dom-accessibility-api") return pkg.version ?? "";
    } catch {
      // no package.json here: keep walking up
    }
  }
  throw new Error(`no package.json above ${entry}`);
}

describe("dom-accessibility-api: the version the collector's fast paths were checked against", () => {
  it("is the installed version", () => {
    expect(installedVersion()).toBe(DOM_ACCESSIBILITY_API_CHECKED);
  });

  it("is pinned exactly in shared/package.json (no range)", () => {
    const pkg = JSON.parse(readFileSync(join(shared, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    expect(pkg.dependencies?.["dom-accessibility-api"]).toBe(DOM_ACCESSIBILITY_API_CHECKED);
  });
});
