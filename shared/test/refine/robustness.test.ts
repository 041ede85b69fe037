// Local mode (the extension) runs the engine on unvalidated input: junk must never throw,
// and what comes out must still match the contract.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { RefinedElementSchema, type SnapshotRequest } from "@sightline/shared/contract";

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296;
  };
}

const JUNK: unknown[] = [null, undefined, 0, -1, NaN, Infinity, "", "x", "constructor", "__proto__", true, [], {}, [1, 2], { a: 1 }, "rgb(", "#zz", "1e400", "pointer"];

describe("robustness", () => {
  it("never throws on junk fields and keeps the output valid", () => {
    const r = rng(7);
    const pick = () => JUNK[Math.floor(r() * JUNK.length)];
    const keys = ["role", "href", "aria_label", "accessible_name", "checked", "disabled", "aria_checked", "value", "value_redacted", "input_type", "type_", "tabindex", "class_name", "aria_modal"];
    for (let round = 0; round < 150; round++) {
      const els: unknown[] = [];
      for (let i = 0; i < 20; i++) {
        const attributes: Record<string, unknown> = {};
        for (const k of keys) if (r() < 0.3) attributes[k] = pick();
        els.push(r() < 0.05 ? pick() : {
          id: r() < 0.05 ? pick() : i + 1,
          tag: r() < 0.2 ? pick() : ["div", "a", "input", "button", "constructor", "circle", "canvas"][i % 7],
          rect: r() < 0.05 ? pick() : { x: r() < 0.1 ? pick() : r() * 1500, y: r() * 2000, width: r() < 0.1 ? pick() : r() * 300, height: r() * 100 },
          styles: r() < 0.1 ? pick() : { z_index: pick(), cursor: pick(), background_color: pick(), font_weight: pick(), opacity: pick(), position: pick() },
          attributes: r() < 0.1 ? pick() : attributes,
          text: r() < 0.2 ? pick() : "text " + i,
          in_viewport: r() < 0.2 ? pick() : r() < 0.7,
          is_occluded: pick(),
          iframe_content: r() < 0.05 ? [{ id: 1000 + i, rect: { x: 0, y: 0, width: 10, height: 10 } }, pick()] : r() < 0.05 ? pick() : undefined,
          scroll_y: pick(), center_x: pick(), doc_y: pick(), group_key: pick(), parent_id: pick(),
        });
      }
      const req = {
        url: "https://x.test/",
        viewport: r() < 0.3 ? undefined : r() < 0.1 ? pick() : r() < 0.1 ? { width: pick(), height: 800 } : { width: 1280, height: 800 },
        raw_elements: els,
        goal: r() < 0.3 ? "click the first link" : r() < 0.1 ? pick() : undefined,
        options: r() < 0.3 ? { limit: pick(), filter: r() < 0.5 ? pick() : { allowed_roles: pick(), allowed_tags: pick(), min_area: pick() } } : undefined,
        client_metrics: r() < 0.2 ? pick() : { ready_state: pick(), quiet_ms: pick(), node_count: pick() },
      } as unknown as SnapshotRequest;
      const out = refineSnapshot(req);
      for (const e of out.elements) {
        const parsed = RefinedElementSchema.safeParse(e);
        if (!parsed.success) throw new Error(`invalid element ${JSON.stringify(e)}: ${parsed.error.message}`);
      }
      expect(out.viewport.width).toBeGreaterThan(0);
    }
  }, 60_000);
});
