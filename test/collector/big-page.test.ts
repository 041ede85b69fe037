// The 5,000-element generated page: everything collected (rows below the fold included),
// one JSON string out of the page, occlusion only where boxes can overlap.
import { expect, it } from "vitest";
import { useFixturePage, collectIn, flatten } from "./support.js";

const fx = useFixturePage("/collector/big.html");

it("collects every row of a 5,000-element page with its shadow rows, in view or not", async () => {
  const body = await collectIn(fx.page);
  expect(body.client_metrics.node_count).toBeGreaterThanOrEqual(5000);
  const all = flatten(body.raw_elements);
  const buttons = all.filter((e) => e.tag === "button");
  expect(buttons).toHaveLength(1050);
  expect(all.filter((e) => e.attributes?.role === "spinbutton")).toHaveLength(1000);
  const last = buttons.find((b) => b.text === "Add 999")!;
  expect(last.in_viewport).toBe(false);
  expect(last.doc_y!).toBeGreaterThan(900);
  expect(all.find((e) => e.text === "Shadow 49")!.attributes!.in_shadow).toBe("true");
  // rows share one list container group, so ordinals ("the third Add button") can be resolved
  const groups = new Set(buttons.slice(0, 1000).map((b) => b.group_key));
  expect(groups.size).toBe(1);
  // the fixed header covers nothing that is visible below it
  expect(all.filter((e) => e.in_viewport && e.is_occluded)).toEqual([]);
});
