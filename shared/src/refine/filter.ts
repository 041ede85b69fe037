// options.filter (spec 2.3) and options.limit (spec 4.2 rule 3). Filtering runs on every
// candidate before ordering and selection; the limit is applied to the ordered list.
import { SNAPSHOT_DEFAULT_CAP, SNAPSHOT_DEFAULT_LIMIT, type Filter } from "../contract/index.js";

/** Filter roles that name a family rather than one ARIA role (the tier table of 2.5 uses them). */
const ROLE_ALIASES: Record<string, string[]> = {
  input: ["textbox", "searchbox", "combobox", "spinbutton", "slider", "checkbox", "radio", "switch"],
  submit: ["button"],
};

export interface CompiledFilter {
  /** True when nothing is filtered (fast path). */
  none: boolean;
  test(role: string, tag: string, area: number, inputType: string | null): boolean;
}

/**
 * Compile the filter once. An empty or absent whitelist means "no restriction" (a caller that
 * sends `allowed_roles: []` has not asked for an empty answer). Role and tag names compare
 * case-insensitively; `min_area` keeps elements with width x height >= min_area.
 */
export function compileFilter(f: Filter | undefined | null): CompiledFilter {
  // Local mode (extension) calls the engine without validation: tolerate any shape.
  const obj = f !== null && typeof f === "object" ? f : null;
  const minArea = obj && typeof obj.min_area === "number" && obj.min_area > 0 ? obj.min_area : 0;
  const roleList = obj && Array.isArray(obj.allowed_roles) ? obj.allowed_roles.map((r) => String(r).trim().toLowerCase()) : [];
  const tagList = obj && Array.isArray(obj.allowed_tags) ? obj.allowed_tags.map((t) => String(t).trim().toLowerCase()) : [];
  const roles = roleList.length > 0 ? new Set<string>() : null;
  if (roles) {
    for (const k of roleList) {
      roles.add(k);
      for (const x of Object.hasOwn(ROLE_ALIASES, k) ? ROLE_ALIASES[k] : []) roles.add(x); // own keys only: "constructor" is a role name too
    }
  }
  // "submit" alone means submit buttons, not every button.
  const submitOnly = roles !== null && roles.has("submit") && !roleList.includes("button");
  const tags = tagList.length > 0 ? new Set(tagList) : null;
  const none = minArea === 0 && roles === null && tags === null;
  return {
    none,
    test(role, tag, area, inputType) {
      if (area < minArea) return false;
      if (tags !== null && !tags.has(tag)) return false;
      if (roles !== null) {
        if (!roles.has(role)) return false;
        if (submitOnly && role === "button" && inputType !== "submit") return false;
      }
      return true;
    },
  };
}

/** options.limit → effective limit: default 50, at least 1, at most the server cap. */
export function effectiveLimit(limit: unknown, cap: number = SNAPSHOT_DEFAULT_CAP): number {
  const c = Number.isFinite(cap) && cap >= 1 ? Math.floor(cap) : SNAPSHOT_DEFAULT_CAP;
  const l = typeof limit === "number" && Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : SNAPSHOT_DEFAULT_LIMIT;
  return Math.min(l, c);
}
