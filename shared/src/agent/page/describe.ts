// Facts about an action's target for its risk tier and the approval card: is it a secret
// field (the one rule of shared/src/agent/core/secrets.ts), does it submit a form, which values
// would that form send (secrets masked here, in the page, so they never leave it).
import type { FormFacts, TargetFacts } from "../perform/page-calls.js";
import { SecretValues } from "../core/secrets.js";
import { isSecretElement, secretValuesIn } from "../../collector/privacy.js";
import { elementById } from "./locate.js";
import { isButton, isForm, isInput, isSelect, isTextArea } from "./dom.js";

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

function labelOf(el: Element): string {
  const aria = clean(el.getAttribute("aria-label"));
  if (aria) return aria;
  const labels = (el as HTMLInputElement).labels;
  if (labels?.length) {
    // A label wrapping its control: its own words, not the control's options or value.
    const copy = labels[0].cloneNode(true) as HTMLElement;
    copy.querySelectorAll("select, input, textarea, button").forEach((n) => n.remove());
    const own = clean(copy.textContent);
    if (own) return own;
  }
  return clean((el as HTMLInputElement).placeholder) || clean(el.getAttribute("name")) || clean(el.id);
}

function submitsForm(el: Element): boolean {
  if (isButton(el)) return !!el.form && (el.type || "submit") === "submit";
  if (isInput(el)) {
    if (el.type === "submit" || el.type === "image") return !!el.form;
    return false;
  }
  return false;
}

function formFacts(form: HTMLFormElement): FormFacts {
  const action = form.getAttribute("action") ? form.action : "";
  const tail = (() => {
    try {
      return new URL(action || location.href).pathname.split("/").filter(Boolean).pop() ?? "";
    } catch {
      return "";
    }
  })();
  const name = clean(form.getAttribute("aria-label")) || clean(form.getAttribute("name")) || clean(form.id) || tail.replace(/\.[a-z]+$/i, "");
  const submit = form.querySelector<HTMLElement>('button:not([type]), button[type="submit"], input[type="submit"]');
  const fields: FormFacts["fields"] = [];
  // A secret the page copied into another field (a "confirm" box, a hidden echo) is masked too.
  const secrets = new SecretValues();
  for (const v of secretValuesIn(form)) secrets.add(v);
  for (const el of Array.from(form.elements)) {
    if (!(isInput(el) || isSelect(el) || isTextArea(el))) continue;
    if (!el.name || el.disabled) continue;
    if (isInput(el)) {
      if (["submit", "button", "reset", "image", "file", "hidden"].includes(el.type)) continue;
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) continue;
    }
    const secret = isSecretElement(el);
    const value = isSelect(el) ? clean(el.selectedOptions[0]?.text ?? el.value) : el.value;
    fields.push({ label: labelOf(el) || el.name, value: secret ? (value ? "•".repeat(8) : "") : secrets.scrub(value).slice(0, 200), secret });
    if (fields.length >= 30) break;
  }
  const submitLabel = submit ? clean(isInput(submit) ? submit.value : submit.textContent) : "";
  return { name, action, submitLabel, fields };
}

export function describe(args: { id: number }): TargetFacts | null {
  const el = elementById(args.id);
  if (!el) return null;
  const form = (el as HTMLInputElement).form ?? el.closest("form");
  const anchor = el.closest("a");
  return {
    tag: el.tagName.toLowerCase(),
    inputType: isInput(el) ? el.type : null,
    autocomplete: isInput(el) ? (el.autocomplete || "").toLowerCase() : "",
    secret: isSecretElement(el),
    submits: submitsForm(el),
    download: !!anchor?.hasAttribute("download"),
    href: anchor?.href || null,
    form: isForm(form) ? formFacts(form) : null,
  };
}
