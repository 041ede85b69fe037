// A file input is an upload control an agent can act on: a button (Chromium's tree, named by its
// label), never generic[file], also when a collector computed "generic" for it (the library the
// collector uses gives input type=file no role; older collectors sent that).
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { implicitRole } from "../../src/collector/role-fixes.js";
import { raw, request } from "./factory.js";

describe("file inputs", () => {
  it("are buttons with input_type file, named by their label, whatever role the collector computed", () => {
    for (const role of [undefined, "generic"]) {
      const r = refineSnapshot(request([raw("input", { attributes: { input_type: "file", accessible_name: "Your CV", ...(role ? { role } : {}) } })]));
      expect(r.elements[0], String(role)).toMatchObject({ role: "button", input_type: "file", name: "Your CV" });
    }
  });

  it("an authored role still wins, and a hidden input stays out of reach", () => {
    expect(refineSnapshot(request([raw("input", { attributes: { input_type: "file", role: "link", accessible_name: "Attach" } })])).elements[0]?.role).toBe("link");
    expect(refineSnapshot(request([raw("input", { attributes: { input_type: "hidden", role: "generic" } })])).elements.map((e) => e.role)).not.toContain("button");
  });

  it("the collector's own role for input type=file is button, as in Chromium", () => {
    const fileInput = { localName: "input", type: "file", hasAttribute: () => false } as unknown as Element;
    expect(implicitRole(fileInput, () => null)).toBe("button");
  });
});
