// Raw-element fixtures for the refinement tests: small builders, no corpus data.
import type { RawElement, SnapshotRequest } from "@sightline/shared/contract";

let nextId = 1;

export interface RawOpts {
  id?: number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  text?: string;
  attributes?: RawElement["attributes"];
  styles?: RawElement["styles"];
  in_viewport?: boolean;
  is_occluded?: boolean;
  scroll_y?: number;
  group_key?: string;
  iframe_content?: RawElement[];
  [extra: string]: unknown;
}

/** A raw element with a tag; geometry defaults to a 100x30 box at the origin, visible. */
export function raw(tag: string, o: RawOpts = {}): RawElement {
  const { id, x = 0, y = 0, width = 100, height = 30, ...rest } = o;
  const e: RawElement = {
    id: id ?? nextId++,
    tag,
    rect: { x, y, width, height },
    in_viewport: true,
    is_occluded: false,
    text: "",
    ...rest,
  };
  return e;
}

export const link = (text: string, o: RawOpts = {}) =>
  raw("a", { text, ...o, attributes: { href: `/${text.toLowerCase().replace(/\s+/g, "-")}`, ...o.attributes } });
export const button = (text: string, o: RawOpts = {}) => raw("button", { text, ...o });
export const input = (type: string, o: RawOpts = {}) =>
  raw("input", { width: 300, ...o, attributes: { input_type: type, ...o.attributes } });

/** A request at 1280x800 unless the caller passes viewport: undefined. */
export function request(raw_elements: RawElement[], extra: Partial<SnapshotRequest> = {}): SnapshotRequest {
  return { url: "https://example.test/", viewport: { width: 1280, height: 800 }, raw_elements, ...extra };
}

/** A listing page: header search box, `n` result links, a footer link; returns the page. */
export function listingPage(n: number): { elements: RawElement[]; search: RawElement; footer: RawElement } {
  const search = input("search", { x: 400, y: 20, width: 400, height: 36, attributes: { placeholder: "Search products" } });
  const elements: RawElement[] = [search];
  for (let i = 0; i < n; i++) {
    const top = 100 + i * 40;
    elements.push(link(`Result ${i + 1}`, { x: 40, y: top, width: 300, height: 20, in_viewport: top < 800 }));
  }
  const footer = link("Terms of service", { x: 40, y: 2000, width: 120, height: 16, in_viewport: false });
  elements.push(footer);
  return { elements, search, footer };
}
