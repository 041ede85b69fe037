// Observe settings read from the environment: SIGHTLINE_BROWSER_SPARES (spare contexts).
import { describe, expect, it } from "vitest";
import { readObserveConfig } from "../../server/src/observe/index.js";

describe("SIGHTLINE_BROWSER_SPARES", () => {
  it("keeps two spares by default, none with 0, and refuses what is not a small count", () => {
    expect(readObserveConfig({}).spares).toBe(2);
    expect(readObserveConfig({ SIGHTLINE_BROWSER_SPARES: "0" }).spares).toBe(0);
    expect(readObserveConfig({ SIGHTLINE_BROWSER_SPARES: " 1 " }).spares).toBe(1);
    for (const bad of ["-1", "yes", "1.5", "9"]) {
      expect(() => readObserveConfig({ SIGHTLINE_BROWSER_SPARES: bad })).toThrow(/SIGHTLINE_BROWSER_SPARES must be an integer between 0 and 8/);
    }
  });
});
