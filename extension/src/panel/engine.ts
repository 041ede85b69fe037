// Where a capture is refined: the configured backend (API mode) or, when none is configured or
// it cannot be reached, the very same refinement engine running here (local mode).
import { Sightline, SightlineError } from "@sightline/shared/client";
import type { RefineResult, SnapshotRequest } from "@sightline/shared/contract";
import { refineSnapshot } from "@sightline/shared/refine";
import type { ReadResult } from "../messages.js";
import { localReranker } from "./local-reranker.js";
import { isApiConfigured, type Settings } from "./settings.js";

export type EngineMode = "api" | "local";

export interface RankedSnapshot extends RefineResult {
  url: string;
  timestamp: string;
  credits_used: number;
  /** null in local mode (no account involved). */
  credits_remaining: number | null;
}

export interface Outcome<T> {
  result: T;
  mode: EngineMode;
  /** Why local mode was used, in words for the person; null in API mode. */
  note: string | null;
}

export function client(s: Settings): Sightline {
  // Retries only for 429/503, few and short: a person is waiting.
  return new Sightline({ baseUrl: s.backendUrl, apiKey: s.apiKey, timeoutMs: 30_000, retry: { retries: 2 } });
}

/** True when the failure means "no backend answered", so local mode is the right fallback. */
function unreachable(err: unknown): boolean {
  return err instanceof SightlineError && (err.kind === "network" || err.kind === "timeout");
}

/** A sentence for a person, from any error the client raises. */
export function explainApiError(err: unknown): string {
  if (!(err instanceof SightlineError)) return err instanceof Error ? err.message : String(err);
  const detail = err.error && err.error !== err.message ? ` (${err.error})` : "";
  switch (err.status) {
    case 401:
      return `The backend refused the API key (401 Unauthorized)${detail}. Check the key in Settings.`;
    case 402:
      return `The account is out of credits (402)${err.credits_remaining !== null ? `: ${err.credits_remaining} left` : ""}.`;
    case 403:
      return `The account is inactive (403 Forbidden)${detail}.`;
    case 429:
      return `Rate limit exceeded (429)${err.retryAfter ? `: retry in ${err.retryAfter} s` : ""}.`;
  }
  if (err.kind === "network") return `Cannot reach the backend: ${err.message.replace(/^Sightline: /, "")}`;
  if (err.kind === "timeout") return `The backend did not answer in time: ${err.message.replace(/^Sightline: /, "")}`;
  return err.message.replace(/^Sightline: /, "");
}

function localNote(s: Settings, err?: unknown): string {
  if (!isApiConfigured(s)) return "Local mode: no backend configured, ranked inside the extension.";
  return `Local mode: backend unreachable (${explainApiError(err)}), ranked inside the extension.`;
}

export function rankLocally(req: SnapshotRequest): RankedSnapshot {
  const refined = refineSnapshot(req, { reranker: localReranker() });
  return { ...refined, url: req.url, timestamp: new Date().toISOString(), credits_used: 0, credits_remaining: null };
}

/** Ranks a capture (with an optional goal): API mode when configured and reachable, else local. */
export async function rank(capture: SnapshotRequest, goal: string, s: Settings): Promise<Outcome<RankedSnapshot>> {
  const req: SnapshotRequest = {
    url: capture.url,
    viewport: capture.viewport,
    raw_elements: capture.raw_elements,
    client_metrics: capture.client_metrics ?? undefined,
    client_diagnostics: capture.client_diagnostics ?? undefined,
    options: { limit: s.limit },
    ...(goal.trim() ? { goal: goal.trim() } : {}),
  };
  if (isApiConfigured(s)) {
    try {
      const res = await client(s).snapshot(req);
      return { result: res, mode: "api", note: null };
    } catch (err) {
      if (!unreachable(err)) throw new Error(explainApiError(err));
      return { result: rankLocally(req), mode: "local", note: localNote(s, err) };
    }
  }
  return { result: rankLocally(req), mode: "local", note: localNote(s) };
}

/** Read: the backend's observe read on the captured page (API mode), else the capture as is. */
export async function readPage(url: string, capture: ReadResult, s: Settings): Promise<Outcome<ReadResult>> {
  if (isApiConfigured(s)) {
    try {
      const res = await client(s).observe({
        url,
        mode: "read",
        format: "markdown",
        capture: { title: capture.title, description: capture.description, content: capture.content },
      });
      return {
        result: { title: res.title ?? capture.title, description: res.description ?? capture.description, content: res.content ?? "" },
        mode: "api",
        note: null,
      };
    } catch (err) {
      // A backend without /v1/observe (404) is treated like one that is not there for reading.
      const missing = err instanceof SightlineError && err.status === 404;
      if (!unreachable(err) && !missing) throw new Error(explainApiError(err));
      return { result: capture, mode: "local", note: localNote(s, err) };
    }
  }
  return { result: capture, mode: "local", note: localNote(s) };
}

/**
 * "Test connection" without spending a credit: an authenticated request the server rejects as
 * incomplete (400) is free and its error body still carries the account's credits_remaining.
 * 401/403 come back as they are, which is exactly what a person needs to see.
 */
export async function testConnection(s: Settings): Promise<{ credits: number | null; message: string }> {
  if (!s.backendUrl) throw new Error("Enter a backend URL first.");
  if (!s.apiKey) throw new Error("Enter an API key first.");
  try {
    const res = await client({ ...s }).snapshot({} as SnapshotRequest, { timeoutMs: 10_000 });
    return { credits: res.credits_remaining ?? null, message: `Connected. ${res.credits_remaining} credits left.` };
  } catch (err) {
    if (err instanceof SightlineError && err.status === 400 && err.credits_remaining !== null) {
      return { credits: err.credits_remaining, message: `Connected. ${err.credits_remaining} credits left.` };
    }
    throw new Error(explainApiError(err));
  }
}

export interface SharedShot {
  url: string;
  expiresAt: string | null;
  elements: number;
  creditsRemaining: number | null;
}

/**
 * Visual through the backend: the screenshot and elements of the real tab go to /v1/observe
 * (`mode: visual` with `capture`), which stores the picture and answers a signed link valid 24 h
 * that an agent or a colleague can open. 10 credits; there is no local equivalent.
 */
export async function shareVisual(
  url: string,
  capture: { title: string; viewport?: { width: number; height: number }; raw_elements: SnapshotRequest["raw_elements"]; pngBase64: string },
  s: Settings,
): Promise<SharedShot> {
  if (!isApiConfigured(s)) throw new Error("Sharing needs a backend: set its URL and API key in Settings.");
  try {
    const res = await client(s).observe({
      url,
      mode: "visual",
      options: { screenshot_delivery: "url", limit: s.limit },
      capture: {
        title: capture.title,
        viewport: capture.viewport,
        raw_elements: capture.raw_elements,
        screenshot: { format: "png", data: capture.pngBase64 },
      },
    });
    const link = res.screenshot?.url ?? "";
    if (!/^https?:\/\//.test(link)) throw new Error("The backend answered without a screenshot link.");
    return {
      url: link,
      expiresAt: res.screenshot?.expires_at ?? null,
      elements: res.interactable_elements?.length ?? 0,
      creditsRemaining: res.credits_remaining ?? null,
    };
  } catch (err) {
    throw new Error(explainApiError(err));
  }
}
