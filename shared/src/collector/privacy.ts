// Fields whose values must never leave the page: the facts of a field as the DOM tells them,
// for the one rule of shared/src/agent/secrets.ts (the collector's redaction, the page agent's
// screenshot masks and approval facts all read them here), and the values such fields hold.
import { isSecretField, MIN_SECRET_LENGTH, type FieldFacts } from "../agent/secrets.js";

/** Which of type/autocomplete/name/id an element carries, when the caller scanned them already. */
export interface AttrPresence {
  type: boolean;
  autocomplete: boolean;
  name: boolean;
  id: boolean;
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/**
 * The words that label a field, for a caller without its accessible name: aria-label, the
 * aria-labelledby elements, its <label>s, then placeholder and title.
 */
export function fieldLabel(el: Element): string {
  const aria = clean(el.getAttribute("aria-label"));
  if (aria) return aria;
  const by = el.getAttribute("aria-labelledby");
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = clean(by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? "").join(" "));
    if (text) return text;
  }
  const labels = (el as HTMLInputElement).labels;
  if (labels?.length) {
    const text = clean(Array.from(labels, (l) => l.textContent ?? "").join(" "));
    if (text) return text;
  }
  return clean(el.getAttribute("placeholder")) || clean(el.getAttribute("title"));
}

/** The page draws the field's characters as discs (the CSS way to make a password box). */
function obscured(el: Element, cs?: CSSStyleDeclaration): boolean {
  const style = cs ?? el.ownerDocument.defaultView?.getComputedStyle(el);
  const v = style?.getPropertyValue("-webkit-text-security");
  return !!v && v !== "none";
}

/**
 * True for a form control whose value is a secret (secrets.ts decides). `label`: its accessible
 * name when the caller computed it (else fieldLabel); `attrs`: which attributes it carries, so
 * absent ones are not read; `cs`: its computed style, when the caller has it.
 */
export function isSecretElement(el: Element, label?: string, attrs?: AttrPresence, cs?: CSSStyleDeclaration): boolean {
  const tag = el.localName;
  if (tag !== "input" && tag !== "textarea") return false;
  const facts: FieldFacts = {
    tag,
    type: !attrs || attrs.type ? el.getAttribute("type") : null,
    autocomplete: !attrs || attrs.autocomplete ? el.getAttribute("autocomplete") : null,
    name: !attrs || attrs.name ? el.getAttribute("name") : null,
    id: !attrs || attrs.id ? el.id : null,
    label: label ?? fieldLabel(el),
    obscured: obscured(el, cs),
  };
  return isSecretField(facts);
}

/**
 * The values the secret fields of `root` hold now (typed, pre-filled or autofilled), for
 * masking wherever the page shows them again. Open shadow roots included.
 */
export function secretValuesIn(root: Document | ShadowRoot | Element, out: string[] = []): string[] {
  for (const el of Array.from(root.querySelectorAll("input, textarea"))) {
    const v = (el as HTMLInputElement).value;
    if (v && v.length >= MIN_SECRET_LENGTH && isSecretElement(el)) out.push(v);
  }
  for (const host of Array.from(root.querySelectorAll("*"))) if (host.shadowRoot) secretValuesIn(host.shadowRoot, out);
  return out;
}
