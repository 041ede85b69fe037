// collectJSON() serialises big snapshots in chunks (snapshot-json.ts, faster when some text
// is outside Latin-1); the string must be exactly JSON.stringify's.
import { expect, it } from "vitest";
import { snapshotJSON } from "../../shared/src/collector/snapshot-json.js";
import type { CollectResult } from "@sightline/shared/collector";

function snapshot(n: number, url: string): CollectResult {
  const raw_elements = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    tag: i % 3 ? "a" : "button",
    rect: { x: i * 0.5, y: i * 21.3, width: 40, height: 21 },
    styles: { z_index: "auto", cursor: "pointer", position: "static" },
    attributes: { role: "link", accessible_name: i === 7 ? "Café – “quoted” …" : `Item ${i}`, href: `https://x.test/${i}?q="a"` },
    text: i % 500 === 3 ? "日本語 \u2028 text" : `Item ${i}`,
    in_viewport: i < 40,
    is_occluded: false,
    scroll_y: 0,
    center_x: 20,
    center_y: i * 21.3 + 10.5,
    doc_y: i * 21.3 + 10.5,
    group_key: `4|link|x${i % 7}`,
    ...(i === 5 ? { iframe_content: [{ id: 9999, tag: "button", text: "inner" }] } : {}),
  }));
  return {
    url,
    viewport: { width: 1280, height: 900 },
    raw_elements,
    client_metrics: { ready_state: "complete", quiet_ms: 12, node_count: n * 2 },
    client_diagnostics: { captcha: { detected: false, confidence: 0, evidence: { text_hits: [], selector_hits: [], iframe_src_hits: [], url_hits: [] } } },
  } as unknown as CollectResult;
}

it("gives exactly JSON.stringify's text, for small and big snapshots", () => {
  // Up to 256 elements take the plain JSON.stringify shortcut; above, the chunked path and its
  // chunk boundaries.
  for (const n of [0, 1, 256, 257, 511, 512, 513, 1000, 4104]) {
    const s = snapshot(n, "https://x.test/page");
    expect(snapshotJSON(s), `n=${n}`).toBe(JSON.stringify(s));
  }
});

it("is not fooled by a URL that spells the raw_elements key", () => {
  const s = snapshot(600, 'https://x.test/?a="raw_elements":[]&b=[]');
  expect(snapshotJSON(s)).toBe(JSON.stringify(s));
  expect(JSON.parse(snapshotJSON(s)).raw_elements).toHaveLength(600);
});
