// Synthetic /v1/snapshot payloads shaped like a collector's output on a real page: mostly
// links and text blocks, some buttons and inputs, a nav, a footer, a few images.
import type { RawElement, SnapshotRequest } from "@sightline/shared/contract";

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296;
  };
}

const WORDS = ["shoes", "sale", "account", "cart", "search", "new", "women", "men", "kids", "help", "shipping", "returns", "size", "color", "price", "brand", "view", "more", "details", "sign", "in"];

export function makePayload(n: number, seed = 1): SnapshotRequest {
  const r = rng(seed);
  const word = () => WORDS[Math.floor(r() * WORDS.length)];
  const phrase = (k: number) => Array.from({ length: 1 + Math.floor(r() * k) }, word).join(" ");
  const els: RawElement[] = [];
  for (let i = 0; i < n; i++) {
    const kind = r();
    const y = Math.floor((i / n) * 12_000);
    const base = { id: i + 1, in_viewport: y < 900, is_occluded: r() < 0.05, scroll_y: 0, styles: { z_index: "auto", cursor: "auto" } } as const;
    if (kind < 0.45) {
      els.push({ ...base, tag: "a", text: phrase(4), rect: { x: 20 + (i % 4) * 300, y, width: 120 + r() * 100, height: 20 }, styles: { z_index: "auto", cursor: "pointer" }, attributes: { href: `/p/${i}`, nearby_text: phrase(6) } });
    } else if (kind < 0.6) {
      els.push({ ...base, tag: "button", text: phrase(2), rect: { x: 20 + (i % 6) * 200, y, width: 90, height: 36 }, styles: { z_index: "1", cursor: "pointer", background_color: "rgb(0, 102, 204)" }, attributes: { type_: "button" } });
    } else if (kind < 0.68) {
      els.push({ ...base, tag: "input", text: "", rect: { x: 200, y, width: 300, height: 32 }, attributes: { input_type: r() < 0.2 ? "search" : "text", placeholder: phrase(3), name: word(), aria_label: phrase(2) } });
    } else if (kind < 0.8) {
      els.push({ ...base, tag: "h2", text: phrase(5), rect: { x: 20, y, width: 600, height: 30 } });
    } else if (kind < 0.9) {
      els.push({ ...base, tag: "li", text: phrase(8), rect: { x: 40, y, width: 500, height: 22 } });
    } else {
      els.push({ ...base, tag: "img", text: "", rect: { x: 20, y, width: 200, height: 150 }, attributes: { alt: phrase(3) } });
    }
  }
  return {
    url: "https://shop.example/catalog",
    viewport: { width: 1280, height: 900 },
    raw_elements: els,
    goal: "search for shoes",
    client_metrics: { ready_state: "complete", quiet_ms: 250, node_count: n * 3 },
  };
}
