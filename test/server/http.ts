// Small HTTP helpers for the server tests.
import { ErrorBodySchema, ERROR_CODES, type ErrorBody, type RawElement, type SnapshotRequest } from "@sightline/shared/contract";
import { expect } from "vitest";

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function call(origin: string, path: string, init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${origin}${path}`, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Asserts the contract's error body (7.2 on snapshot) and the status its error_code maps to. */
export function expectError(r: Reply, status: number, messageStart?: string): ErrorBody {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  const parsed = ErrorBodySchema.parse(r.body);
  expect(ERROR_CODES[parsed.error_code]).toBe(status);
  expect(parsed.request_id).toBe(r.headers.get("x-request-id"));
  if (messageStart !== undefined) expect(parsed.error.startsWith(messageStart), parsed.error).toBe(true);
  return parsed;
}

export function el(id: number, extra: Partial<RawElement> = {}): RawElement {
  return { id, tag: "button", text: `Button ${id}`, rect: { x: 10, y: 10 + id * 40, width: 120, height: 32 }, in_viewport: true, is_occluded: false, ...extra };
}

export function page(n: number, extra: Partial<SnapshotRequest> = {}): SnapshotRequest {
  return { url: "https://shop.example/", viewport: { width: 1280, height: 800 }, raw_elements: Array.from({ length: n }, (_, i) => el(i + 1)), ...extra };
}

