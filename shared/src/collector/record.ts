// Emitting a record: what the collector reports of one candidate element (RawElement), read
// once the walk (collect.ts) has decided the element is a visible candidate.
import type { RawElement } from "../contract/index.js";
import { nameOf } from "./name.js";
import { roleOf } from "./role.js";
import { Attr, Kind, type AttrScan } from "./candidates.js";
import { nearbyText } from "./nearby-text.js";
import { contextText } from "./context-text.js";
import { inferIconName } from "./icon-names.js";
import { purposeOf } from "./purpose.js";
import { FOUND_BY_NAMES, FoundBy, type Visual } from "./listeners.js";
import { isSecretElement } from "./privacy.js";
import { MIN_SECRET_LENGTH } from "../agent/core/secrets.js";
import { idFor } from "./state.js";
import { clip, flat, shortText, squash } from "./text.js";
import type { Ctx, Frame, Inherited } from "./walk-state.js";

const TEXT_INPUT_BUTTONS = new Set(["submit", "button", "reset", "image"]);
const VALUE_MAX = 200;
/** A label that may be an icon font's ligature ("delete", "star_border"). */
const LOWER_WORD = /^[a-z]+(?:_[a-z]+)*$/;
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch", "listbox"]);

const r1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Styles of 2.7. Colours and fonts (for visual cues) are read for elements within about two
 * screens of the viewport only: far below the fold they cost more than they tell.
 */
function stylesOf(cs: CSSStyleDeclaration, cursor: string, position: string, near: boolean): RawElement["styles"] {
  // z-index only applies to positioned boxes (and flex/grid items, rare for controls).
  const z_index = position === "static" ? "auto" : cs.zIndex;
  if (!near) return { z_index, cursor, position };
  // One literal, not a spread of the short form (one allocation, no property copying).
  return {
    z_index,
    cursor,
    position,
    background_color: cs.backgroundColor,
    color: cs.color,
    font_size: cs.fontSize,
    font_weight: cs.fontWeight,
    opacity: cs.opacity,
  };
}

const flatOrNull = (s: string | null): string | null => (s === null ? null : flat(s));

function putIf(attrs: Record<string, string | null>, k: string, v: string | null | undefined): void {
  if (v !== null && v !== undefined && v !== "") attrs[k] = v;
}

/**
 * A candidate the walk found displayed, visible and with an area, and what it read of it
 * already (each computed-style read or layout query costs about a µs).
 */
export interface Candidate {
  el: Element;
  tag: string;
  kind: Kind;
  scan: AttrScan;
  cs: CSSStyleDeclaration;
  /** Cursor ("pointer" for a :hover pointer) and position as the walk read them. */
  cursor: string;
  position: string;
  /** The element's border box (getBoundingClientRect) in its frame's viewport. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Its pointer cursor comes from a :hover rule. */
  hoverPointer: boolean;
  /** Which path made it a candidate when its markup did not (listener records, looks). */
  found: FoundBy;
  look: Visual | null;
}

/**
 * The element's record (RawElement): role, accessible name, text, attributes, styles and box,
 * appended to its frame's output (and to the occlusion queue when in the viewport). Null when
 * only the viewport is collected and the element is outside it.
 */
export function emitRecord(c: Candidate, ctx: Ctx, f: Frame, inh: Inherited): RawElement | null {
  const { el, tag, kind, scan, cs, cursor, position, left, top, width: w, height: h, hoverPointer, found, look } = c;
  const x = left + f.offX;
  const y = top + f.offY;
  // Visible part: inside the top viewport and inside every frame on the way.
  const inViewport =
    x < Math.min(ctx.vw, f.clip.r) && x + w > Math.max(0, f.clip.l) && y < Math.min(ctx.vh, f.clip.b) && y + h > Math.max(0, f.clip.t);
  if (ctx.viewportOnly && !inViewport) return null;

  const has = scan.has;
  const role = roleOf(el, has);
  const isInput = tag === "input";
  const inputType = isInput ? (el as HTMLInputElement).type : null;
  let text: string;
  if (isInput) text = inputType && TEXT_INPUT_BUTTONS.has(inputType) ? squash((el as HTMLInputElement).value || (has & Attr.Alt ? el.getAttribute("alt") : "") || "") : "";
  else if (tag === "textarea") text = "";
  else if (tag === "select") {
    const sel = el as HTMLSelectElement;
    const opt = sel.selectedIndex >= 0 ? sel.options[sel.selectedIndex] : null;
    text = opt ? squash(opt.text) : "";
  } else text = shortText(el, ctx.textMax);
  text = flat(text);

  // Candidates reach emit() only when displayed and visible (isVisible()).
  const name = flat(clip(nameOf(el, role, ctx.names, true, has), 300));
  // Secret or not (secrets.ts), from its attributes, its computed style and its name.
  const sensitive =
    (isInput || tag === "textarea") &&
    isSecretElement(el, name, { type: (has & Attr.Type) !== 0, autocomplete: (has & Attr.Autocomplete) !== 0, name: (has & Attr.Name) !== 0, id: (has & Attr.Id) !== 0 }, cs);
  let value: string | null = null;
  let redacted: string | null = null;
  if (isInput || tag === "textarea" || tag === "select") {
    const v = (el as HTMLInputElement).value ?? "";
    if (sensitive) {
      redacted = "true";
      if (v.length >= MIN_SECRET_LENGTH) ctx.secrets.push(v);
    } else value = flat(clip(v, VALUE_MAX));
  }
  const isToggle = inputType === "checkbox" || inputType === "radio";
  const nativeDisabled = (el as HTMLButtonElement).disabled;
  // Keys without a value are left out (the contract allows null or absent): on a big page
  // most of them are empty and moving the JSON out of the page is the costly part.
  const attrs: Record<string, string | null> = { role };
  // Attributes the element does not carry (scan.has) are not read at all.
  if (has & Attr.Type) putIf(attrs, "type_", el.getAttribute("type"));
  putIf(attrs, "aria_label", name);
  // The computed name verbatim, also when empty ("" is an answer: no name), so a consumer
  // need not fall back to text or title for elements the algorithm leaves unnamed.
  attrs.accessible_name = name;
  if (has & Attr.Href) putIf(attrs, "href", tag === "a" || tag === "area" ? ctx.hrefs.resolve(el as HTMLAnchorElement) : el.getAttribute("href"));
  // Labels matter for fields; for other controls only when they have no words of their own.
  if (kind === Kind.Interactive && (FIELD_ROLES.has(role) || (!name && !text))) putIf(attrs, "nearby_text", flatOrNull(nearbyText(el, ctx.labels?.labelsFor)));
  // Icon-only controls: what the icon says it is (class tokens, SVG, image file, glyph), beside
  // the unchanged accessible name. Only short or empty labels are looked at (rare on any page).
  let inferred: string | null = null;
  if (kind === Kind.Interactive) {
    const lbl = name || text;
    if (lbl.length <= 3 || (lbl.length <= 30 && LOWER_WORD.test(lbl))) {
      const inf = inferIconName(el, name, text, () => cs.backgroundImage);
      if (inf) {
        inferred = inf.name;
        attrs.inferred_name = inf.name;
        attrs.inferred_from = inf.from;
      } else if (look !== null && look.hint !== null && !lbl) {
        // A swatch or a drawn shape: what it looks like is all it says ("blue square").
        inferred = look.hint;
        attrs.inferred_name = look.hint;
        attrs.inferred_from = look.kind;
      }
    }
  }
  if (found !== FoundBy.None) attrs.found_by = FOUND_BY_NAMES[found];
  if (look !== null) attrs.visual_kind = look.kind;
  if (kind === Kind.Interactive && (role === "button" || role === "link" || inferred !== null || found !== FoundBy.None) && (text || name || inferred || found !== FoundBy.None)) {
    putIf(attrs, "context_text", flatOrNull(contextText(el, text || name || "")));
  }
  // What a form control is for (its form's label and the words of its markup): purpose.ts.
  if (kind === Kind.Interactive && (isInput || tag === "select" || tag === "textarea" || tag === "button")) {
    // The page owns its DOM (a form's properties can be its fields): a purpose that cannot be read is none.
    let p: ReturnType<typeof purposeOf> = null;
    try {
      p = purposeOf(el, ctx.purposes, has);
    } catch {
      p = null;
    }
    if (p) {
      putIf(attrs, "purpose", p.label === null ? null : flat(p.label));
      putIf(attrs, "purpose_words", p.words === null ? null : flat(p.words));
    }
  }
  if (has & Attr.Name) putIf(attrs, "name", el.getAttribute("name"));
  putIf(attrs, "input_type", inputType);
  if (value !== null) attrs.value = value;
  if (redacted) {
    attrs.value = null;
    attrs.value_redacted = redacted;
  }
  if (isToggle) attrs.checked = String((el as HTMLInputElement).checked);
  if (typeof nativeDisabled === "boolean") attrs.disabled = String(nativeDisabled);
  if (has) {
    if (has & Attr.AriaChecked) putIf(attrs, "aria_checked", el.getAttribute("aria-checked"));
    if (has & Attr.AriaDisabled) putIf(attrs, "aria_disabled", el.getAttribute("aria-disabled"));
    if (has & Attr.AriaExpanded) putIf(attrs, "aria_expanded", el.getAttribute("aria-expanded"));
    if (has & Attr.Placeholder) putIf(attrs, "placeholder", el.getAttribute("placeholder"));
    if (has & Attr.Title) putIf(attrs, "title", el.getAttribute("title"));
    if (has & Attr.Alt) putIf(attrs, "alt", el.getAttribute("alt"));
    if (has & Attr.Id) putIf(attrs, "id", el.id);
  }
  const cls = has & Attr.Class ? el.getAttribute("class") : null;
  if (cls) attrs.class_name = flat(clip(cls.trim(), 100));
  // Sightline additions, only when they carry something.
  if (scan.handler) attrs.has_click_handler = "true";
  if (kind === Kind.Interactive && cursor === "pointer") attrs.is_clickable = "true";
  if (hoverPointer) attrs.cursor_on_hover = "pointer";
  if (scan.tabindex !== null) attrs.tabindex = String(scan.tabindex);
  if (scan.editable) attrs.contenteditable = "true";
  if (inh.shadow) attrs.in_shadow = "true";
  const ac = has & Attr.Autocomplete ? el.getAttribute("autocomplete") : null;
  if (ac) attrs.autocomplete = ac;
  if (tag.length === 2 && tag[0] === "h" && tag[1] >= "1" && tag[1] <= "6") attrs.level = tag[1];
  if (f.depth > 0) attrs.frame_depth = String(f.depth);

  const id = idFor(el, ctx.state);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const raw: RawElement = {
    id,
    tag,
    rect: { x: r1(x), y: r1(y), width: r1(w), height: r1(h) },
    styles: stylesOf(cs, cursor, position, y + h > -ctx.vh && y < 3 * ctx.vh),
    attributes: attrs,
    text,
    in_viewport: inViewport,
    is_occluded: false,
    scroll_y: r1(ctx.scrollY),
    center_x: r1(cx),
    center_y: r1(cy),
    doc_y: r1(cy + ctx.scrollY),
    // Joined, not concatenated: a flat string (see flat()).
    group_key: inh.sequence ? [inh.container, role].join("|") : [inh.container, role, `x${Math.round(x / 16)}`].join("|"),
  };
  f.out.push(raw);
  ctx.count++;
  if (inViewport) ctx.pending.push({ el, raw, frame: f });
  if (ctx.judged) ctx.judged.push({ el, raw, frame: f });
  return raw;
}
