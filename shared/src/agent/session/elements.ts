// The element as an agent is given it: the few fields it needs to pick one, and its name.
import type { RefinedElement } from "../../contract/index.js";

/** The structured element an agent gets: what it needs to pick one, nothing more. */
export interface CompactElement {
  id: number;
  role: string;
  name: string;
  value?: string;
  checked?: boolean;
  disabled?: boolean;
  href?: string;
  in_viewport: boolean;
  /** The person cannot see its text: "all" of it, or a "part" (decided in the page, from layout). */
  text_hidden?: "all" | "part";
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
/** What the element is called: its accessible name, else its text, whitespace folded. */
export const nameOf = (el: RefinedElement) => clean(el.name) || clean(el.text);

export function compact(el: RefinedElement): CompactElement {
  const out: CompactElement = { id: el.id, role: el.role, name: nameOf(el).slice(0, 120), in_viewport: el.in_viewport };
  if (el.value) out.value = el.value;
  if (el.checked != null) out.checked = el.checked;
  if (el.disabled) out.disabled = true;
  if (el.href) out.href = el.href;
  return out;
}
