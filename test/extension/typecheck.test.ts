// The extension's TypeScript (strict) typechecks: `tsc -b` covers shared/ and server/, and
// WXT's build does not typecheck, so this is where a type error in extension/ shows up.
// `npm test` runs the check once before the suite (.ci/typecheck.mjs --record); its result is
// reused only while the sources it checked are unchanged, else the check runs here.
import { describe, expect, it } from "vitest";
import { checkOutput } from "../../.ci/typecheck.mjs";

describe("extension: typecheck", () => {
  it("extension/ typechecks (strict, DOM, the shared sources it imports)", () => {
    expect(checkOutput("extension")).toBe("");
  }, 120_000);
});
