// The compact agent prompt: one line per element, best first.
// (A local formatter; the SDK's toPrompt replaces it when it lands in @sightline/shared/prompt.)
import type { RefinedElement } from "@sightline/shared/contract";
import type { RankedSnapshot } from "./engine.js";

function clip(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function elementLine(e: RefinedElement): string {
  const label = clip(e.name || e.text || e.nearby_text || "", 80);
  const parts = [`[${e.id}]`, e.role];
  if (label) parts.push(JSON.stringify(label));
  if (e.input_type && e.input_type !== "text") parts.push(`type=${e.input_type}`);
  if (e.value && !e.value_redacted) parts.push(`value=${JSON.stringify(clip(e.value, 40))}`);
  if (e.checked !== null) parts.push(e.checked ? "checked" : "unchecked");
  if (e.disabled) parts.push("disabled");
  if (e.href) parts.push(`href=${clip(e.href, 60)}`);
  if (!e.in_viewport) parts.push("offscreen");
  if (e.is_occluded) parts.push("occluded");
  return parts.join(" ");
}

export function formatPrompt(snap: RankedSnapshot, goal: string): string {
  const head = [`Page: ${snap.url}`, goal ? `Goal: ${goal}` : null, `Elements (${snap.elements.length}, best first):`];
  return [...head.filter((x): x is string => !!x), ...snap.elements.map(elementLine)].join("\n");
}
