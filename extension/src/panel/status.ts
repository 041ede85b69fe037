// The panel's status line: what is happening (with step counts for long work) or what failed.
import { $ } from "./dom.js";

export function busy(text: string, step?: [number, number]): void {
  const el = $("#status");
  el.hidden = false;
  el.className = "status busy";
  el.textContent = step ? `Step ${step[0]} of ${step[1]}: ${text}` : text;
}

export function failed(err: unknown): void {
  const el = $("#status");
  el.hidden = false;
  el.className = "status error";
  el.textContent = err instanceof Error ? err.message : String(err);
}

export function done(text = ""): void {
  const el = $("#status");
  el.className = "status";
  el.textContent = text;
  el.hidden = !text;
}

/** Shows where ranking happened: the API badge, or the local badge and why. */
export function showMode(mode: "api" | "local" | null, note: string | null): void {
  const badge = $("#mode-badge");
  badge.className = `mode ${mode ?? ""}`;
  badge.textContent = mode === "api" ? "API mode" : mode === "local" ? "Local mode" : "—";
  const n = $("#mode-note");
  n.hidden = !note;
  n.textContent = note ?? "";
}
