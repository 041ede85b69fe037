// Field state fill_form needs before it acts: a checkbox is clicked only when it is not already
// as asked (a click toggles).
import { located } from "./locate.js";
import { isInput } from "./dom.js";

export function checkedState(): boolean | null {
  const t = located();
  if (!t) return null;
  if (isInput(t) && (t.type === "checkbox" || t.type === "radio")) return t.checked;
  const aria = t.getAttribute("aria-checked");
  if (aria === "true" || aria === "false") return aria === "true";
  const inner = t.querySelector?.("input[type=checkbox], input[type=radio]");
  return isInput(inner) ? inner.checked : null;
}
