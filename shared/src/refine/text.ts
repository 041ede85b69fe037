// Small string helpers shared by the refine modules: reading loosely typed raw attribute
// values and keeping echoed text compact.
import type { AttrValue } from "./fields.js";

/** Longest text/name/nearby_text echoed back (characters), to keep responses compact. */
export const TEXT_CAP = 200;
/** Longest accessible name echoed back (the collector clips names at 300 too). */
export const NAME_CAP = 300;
/** Longest href echoed back (data: URLs can be megabytes). */
export const HREF_CAP = 1000;

// ASCII whitespace only (as accname/WPT normalise names): a no-break space is content.
const WS = /[\t\n\f\r ]+/g;
const NEEDS_WORK = /[\t\n\f\r]|  |^ | $/;

/** Collapse ASCII whitespace runs to one space, trim, cap at `cap` characters ("…" marks a cut). */
export function compact(s: string | null | undefined, cap = TEXT_CAP): string {
  if (!s) return "";
  // Bound the regex work on huge strings: only the head can survive the cap anyway.
  let t = s.length > cap * 4 ? s.slice(0, cap * 4) : s;
  if (NEEDS_WORK.test(t)) {
    t = t.replace(WS, " ");
    if (t.charCodeAt(0) === 32) t = t.slice(1);
    if (t.charCodeAt(t.length - 1) === 32) t = t.slice(0, -1);
  }
  return t.length > cap ? t.slice(0, cap - 1) + "…" : t;
}

/** An attribute value as a string, or null when absent/null. Numbers and booleans are stringified. */
export function str(v: AttrValue): string | null {
  if (typeof v === "string") return v;
  // Objects/arrays are junk from an unvalidated (local-mode) request: treated as absent.
  return typeof v === "number" || typeof v === "boolean" ? String(v) : null;
}

/** Like str, but compacted and null when empty. */
export function textOf(v: AttrValue, cap = TEXT_CAP): string | null {
  const s = str(v);
  if (s === null) return null;
  const t = compact(s, cap);
  return t === "" ? null : t;
}

/**
 * Boolean reading of an attribute: HTML boolean attributes arrive as "" (present) or the
 * attribute name; ARIA ones as "true"/"false". Absent → null.
 */
export function boolOf(v: AttrValue): boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v !== "string") return null;
  const s = v.trim().toLowerCase();
  return !(s === "false" || s === "0" || s === "no" || s === "off" || s === "undefined" || s === "null");
}

/** A finite number from a number or a CSS-ish string ("12px", "700", "auto" → null). */
export function toNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string" || v === "") return null;
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : null;
}

/** A finite number or null (raw numeric fields may be missing or junk in local mode). */
export function finiteOr(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}
