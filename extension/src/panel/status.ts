// The panel's status line: what is happening (with step counts and, for long work, the seconds
// it has taken so far) or what failed.
import { $ } from "./dom.js";

let ticker: ReturnType<typeof setInterval> | undefined;

function stopTicker(): void {
  if (ticker !== undefined) clearInterval(ticker);
  ticker = undefined;
}

export function busy(text: string, step?: [number, number]): void {
  stopTicker();
  const el = $("#status");
  el.hidden = false;
  el.className = "status busy";
  const base = step ? `Step ${step[0]} of ${step[1]}: ${text}` : text;
  el.textContent = base;
  const started = Date.now();
  // A long capture or a slow backend should visibly still be working.
  ticker = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    if (s >= 2) el.textContent = `${base} (${s} s)`;
  }, 1000);
}

export function failed(err: unknown): void {
  stopTicker();
  const el = $("#status");
  el.hidden = false;
  el.className = "status error";
  el.textContent = err instanceof Error ? err.message : String(err);
}

export function done(text = ""): void {
  stopTicker();
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
