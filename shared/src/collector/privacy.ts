// Fields whose values must never leave the page: passwords, one-time codes, payment cards.

const SECRET_NAME = /(?:^|[^a-z])(?:cvv2?|cvc2?|csc|card[-_ ]?(?:number|num|no)|cc[-_ ]?(?:num|number|csc|exp)|otp|one[-_ ]?time[-_ ]?(?:code|password)|passw(?:or)?d|pin[-_ ]?code)(?:$|[^a-z])/i;

/**
 * True for a form control whose value is a secret (type, autocomplete tokens, or name).
 * `attrs` (optional): which of type/autocomplete/name/id the element carries, when the caller
 * has scanned them; an absent attribute reads as null, so it is not asked for.
 */
export function isSensitiveField(el: Element, attrs?: { type: boolean; autocomplete: boolean; name: boolean; id: boolean }): boolean {
  const tag = el.localName;
  if (tag !== "input" && tag !== "textarea") return false;
  const type = !attrs || attrs.type ? (el.getAttribute("type") ?? "").toLowerCase() : "";
  if (type === "password") return true;
  const ac = !attrs || attrs.autocomplete ? (el.getAttribute("autocomplete") ?? "").toLowerCase() : "";
  if (ac) {
    for (const token of ac.split(/\s+/)) {
      if (token === "one-time-code" || token.startsWith("cc-") || token === "current-password" || token === "new-password") return true;
    }
  }
  if (attrs && !attrs.name && !attrs.id) return false; // " " cannot match
  const named = `${el.getAttribute("name") ?? ""} ${el.id}`;
  return SECRET_NAME.test(named);
}

/**
 * Removes secret values from strings that are built from the page (an accessible name can
 * embed a textbox's value): every occurrence of a secret of 3+ characters becomes "•••".
 */
export function scrubSecrets(s: string, secrets: string[]): string {
  if (!s || !secrets.length) return s;
  let out = s;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join("•••");
  return out;
}
