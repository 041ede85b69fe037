// One pass over each raw element's loosely shaped objects. Collectors omit empty keys, so
// attribute/style objects come in many shapes, and looking up ~30 mostly absent keys on
// each is slow (megamorphic misses). Walking the keys actually present once, into a
// fixed-shape record, keeps per-element work small and the rest of the engine monomorphic.
import type { RawElement } from "../contract/index.js";

export type AttrValue = string | number | boolean | null | undefined;

/** The attributes the engine reads (spec 2.7 plus Sightline collector additions). */
export class Attrs {
  role: AttrValue = null;
  type_: AttrValue = null;
  aria_label: AttrValue = null;
  /** Computed accessible name; `undefined` when the collector did not send one. */
  accessible_name: AttrValue = undefined;
  label: AttrValue = null;
  aria_labelledby_text: AttrValue = null;
  href: AttrValue = null;
  nearby_text: AttrValue = null;
  inferred_name: AttrValue = null;
  name: AttrValue = null;
  input_type: AttrValue = null;
  value: AttrValue = null;
  value_redacted: AttrValue = null;
  checked: AttrValue = null;
  disabled: AttrValue = null;
  aria_checked: AttrValue = null;
  aria_disabled: AttrValue = null;
  aria_expanded: AttrValue = null;
  aria_modal: AttrValue = null;
  placeholder: AttrValue = null;
  title: AttrValue = null;
  alt: AttrValue = null;
  id: AttrValue = null;
  class_name: AttrValue = null;
  tabindex: AttrValue = null;
  list: AttrValue = null;
  multiple: AttrValue = null;
  size: AttrValue = null;
  /** A click-handler flag: onclick, has_click_handler, is_clickable, clickable, has_onclick. */
  clickFlag = false;
}

/** Styles the engine reads. */
export class Styles {
  z_index: AttrValue = null;
  cursor: AttrValue = null;
  background_color: AttrValue = null;
  font_size: AttrValue = null;
  font_weight: AttrValue = null;
  opacity: AttrValue = null;
  visibility: AttrValue = null;
  display: AttrValue = null;
  position: AttrValue = null;
}

const isFlag = (v: unknown) => v !== undefined && v !== null && v !== false && v !== "false" && v !== 0 && v !== "0";

export function readAttrs(a: RawElement["attributes"]): Attrs {
  const out = new Attrs();
  if (!a || typeof a !== "object") return out;
  for (const k in a) {
    const v = a[k] as AttrValue;
    switch (k) {
      case "role": out.role = v; break;
      case "type_": out.type_ = v; break;
      case "aria_label": out.aria_label = v; break;
      case "accessible_name": out.accessible_name = v; break;
      case "label": out.label = v; break;
      case "aria_labelledby_text": out.aria_labelledby_text = v; break;
      case "href": out.href = v; break;
      case "nearby_text": out.nearby_text = v; break;
      case "inferred_name": out.inferred_name = v; break;
      case "name": out.name = v; break;
      case "input_type": out.input_type = v; break;
      case "value": out.value = v; break;
      case "value_redacted": out.value_redacted = v; break;
      case "checked": out.checked = v; break;
      case "disabled": out.disabled = v; break;
      case "aria_checked": out.aria_checked = v; break;
      case "aria_disabled": out.aria_disabled = v; break;
      case "aria_expanded": out.aria_expanded = v; break;
      case "aria_modal": out.aria_modal = v; break;
      case "placeholder": out.placeholder = v; break;
      case "title": out.title = v; break;
      case "alt": out.alt = v; break;
      case "id": out.id = v; break;
      case "class_name": out.class_name = v; break;
      case "tabindex": out.tabindex = v; break;
      case "list": out.list = v; break;
      case "multiple": out.multiple = v; break;
      case "size": out.size = v; break;
      case "onclick":
      case "has_click_handler":
      case "has_onclick":
      case "is_clickable":
      case "clickable":
        if (isFlag(v)) out.clickFlag = true;
        break;
    }
  }
  return out;
}

export function readStyles(s: RawElement["styles"]): Styles {
  const out = new Styles();
  if (!s || typeof s !== "object") return out;
  for (const k in s) {
    const v = s[k] as AttrValue;
    switch (k) {
      case "z_index": out.z_index = v; break;
      case "cursor": out.cursor = v; break;
      case "background_color": out.background_color = v; break;
      case "font_size": out.font_size = v; break;
      case "font_weight": out.font_weight = v; break;
      case "opacity": out.opacity = v; break;
      case "visibility": out.visibility = v; break;
      case "display": out.display = v; break;
      case "position": out.position = v; break;
    }
  }
  return out;
}

/** The raw element's own fields, read in one pass. */
export class RawView {
  id = 0;
  tag = "";
  rect: RawElement["rect"] | null = null;
  text: string | null = null;
  in_viewport: boolean | null = null;
  is_occluded: boolean | null = null;
  scroll_y: unknown = null;
  center_x: unknown = null;
  center_y: unknown = null;
  doc_y: unknown = null;
  group_key: string | null = null;
  parent_id: unknown = null;
  clickFlag = false;
  attributes: RawElement["attributes"] = null;
  styles: RawElement["styles"] = null;
  iframe_content: unknown[] | null = null;
  /** Has a numeric id and a rect object: anything else is skipped (local mode is unvalidated). */
  valid = false;
}

export function readRaw(raw: RawElement): RawView {
  const out = new RawView();
  let hasId = false;
  for (const k in raw) {
    const v = raw[k];
    switch (k) {
      case "id": if (typeof v === "number" && Number.isFinite(v)) { out.id = v; hasId = true; } break;
      case "tag": if (typeof v === "string") out.tag = v.toLowerCase(); break;
      case "rect": if (v !== null && typeof v === "object") out.rect = v as RawElement["rect"]; break;
      case "text": if (typeof v === "string") out.text = v; break;
      case "in_viewport": if (typeof v === "boolean") out.in_viewport = v; break;
      case "is_occluded": if (typeof v === "boolean") out.is_occluded = v; break;
      case "scroll_y": out.scroll_y = v; break;
      case "center_x": out.center_x = v; break;
      case "center_y": out.center_y = v; break;
      case "doc_y": out.doc_y = v; break;
      case "group_key": if (typeof v === "string" && v !== "") out.group_key = v; break;
      case "parent_id": out.parent_id = v; break;
      case "attributes": out.attributes = v as RawElement["attributes"]; break;
      case "styles": out.styles = v as RawElement["styles"]; break;
      case "iframe_content": if (Array.isArray(v) && v.length > 0) out.iframe_content = v; break;
      case "has_click_handler":
      case "is_clickable":
      case "clickable":
        if (v === true) out.clickFlag = true;
        break;
    }
  }
  out.valid = hasId && out.rect !== null;
  return out;
}
