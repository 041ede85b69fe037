// Normalised states (checked, disabled, expanded), the accessible name, and the value with
// its privacy rule: a password's value, or any value the collector marked redacted, is never
// echoed back.
import type { Attrs } from "./fields.js";
import { CHECKABLE_ROLES } from "./roles.js";
import { HREF_CAP, NAME_CAP, boolOf, compact, str, textOf } from "./text.js";

export interface States {
  checked: boolean | null;
  disabled: boolean | null;
  expanded: boolean | null;
  aria_checked: string | null;
  aria_disabled: string | null;
  aria_expanded: string | null;
}

/** "true"/"false" → boolean; anything else (including "mixed", "undefined") → null. */
function ariaBool(s: string | null): boolean | null {
  if (s === null) return null;
  const t = s.trim().toLowerCase();
  return t === "true" ? true : t === "false" ? false : null;
}

/**
 * - checked: aria_checked "true"/"false" wins; "mixed" (indeterminate) → null, with the raw
 *   "mixed" kept in aria_checked so the third state stays visible. Otherwise the native
 *   `checked` attribute/property. A checkable role with no state at all → false.
 * - disabled: aria_disabled "true" or the native `disabled` → true; interactive elements
 *   default to false, others to null (the state does not apply).
 * - expanded: aria_expanded "true"/"false", else null.
 */
export function readStates(a: Attrs, role: string, interactive: boolean): States {
  const aria_checked = str(a.aria_checked);
  const aria_disabled = str(a.aria_disabled);
  const aria_expanded = str(a.aria_expanded);

  let checked: boolean | null;
  const ac = aria_checked === null ? "" : aria_checked.trim().toLowerCase();
  if (ac === "mixed") checked = null;
  else if (ac === "true" || ac === "false") checked = ac === "true";
  else {
    checked = boolOf(a.checked);
    if (checked === null && CHECKABLE_ROLES.has(role)) checked = false;
  }

  const disabled = ariaBool(aria_disabled) === true || boolOf(a.disabled) === true
    ? true
    : interactive ? false : null;

  return { checked, disabled, expanded: ariaBool(aria_expanded), aria_checked, aria_disabled, aria_expanded };
}

/**
 * Accessible name. A name the collector computed (`accessible_name`, present even when "")
 * is authoritative: the accname algorithm already weighed labels, text and title, and ""
 * means "no name" (null), not "use the text". Without it: aria_label, label, alt, title,
 * placeholder, then the visible text, and last the form-field `name` attribute.
 */
export function accessibleName(a: Attrs, text: string): string | null {
  const computed = a.accessible_name;
  if (typeof computed === "string") return computed === "" ? null : compact(computed, NAME_CAP) || null;
  const v = textOf(a.aria_label, NAME_CAP) ?? textOf(a.label, NAME_CAP) ?? textOf(a.aria_labelledby_text, NAME_CAP) ??
    textOf(a.alt, NAME_CAP) ?? textOf(a.title, NAME_CAP) ?? textOf(a.placeholder, NAME_CAP);
  if (v !== null) return v;
  if (text !== "") return text;
  return textOf(a.name);
}

export interface ValueInfo {
  value: string | null;
  value_redacted: boolean | null;
}

/** Any `value_redacted` that is not an explicit no. */
function redactedFlag(v: Attrs["value_redacted"]): boolean {
  if (v === null || v === undefined || v === false || v === 0) return false;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    return !(t === "" || t === "false" || t === "0" || t === "no");
  }
  return true;
}

/** The value to echo; passwords and redacted values become null with value_redacted true. */
export function readValue(a: Attrs, inputType: string | null): ValueInfo {
  const typeAttr = typeof a.type_ === "string" ? a.type_.trim().toLowerCase() : "";
  if (inputType === "password" || typeAttr === "password" || redactedFlag(a.value_redacted)) return { value: null, value_redacted: true };
  const v = str(a.value);
  if (v === null) return { value: null, value_redacted: null };
  return { value: compact(v), value_redacted: false };
}

/** href, capped (data: URLs can be huge). */
export function readHref(a: Attrs): string | null {
  const h = str(a.href);
  if (h === null) return null;
  const t = h.trim();
  if (t === "") return null;
  return t.length > HREF_CAP ? t.slice(0, HREF_CAP) : t;
}
