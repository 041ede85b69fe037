// Role: dom-accessibility-api's getRole() (the html-aam / wai-aria role rules), with the
// correction layer of role-fixes.ts where it departs from WPT. The library's answers that
// depend on the tag alone (or the input type) are kept per tag: they assume the library
// version pinned in shared/package.json (DOM_ACCESSIBILITY_API_CHECKED in name.ts).
import { getRole } from "dom-accessibility-api";
import { fixRole, roleFromTagAlone, validRoleToken } from "./role-fixes.js";
import { Attr } from "./candidates.js";

function libRole(el: Element): string | null {
  try {
    return getRole(el);
  } catch {
    return null;
  }
}

/**
 * Tags whose library role (without a role attribute) depends on more than the tag: href, alt,
 * type, list, multiple/size. For every other tag getRole() answers from the tag alone, so
 * its answer is kept per tag (the library is pure: same tag, same role).
 */
const ATTRIBUTE_DEPENDENT = new Set(["a", "area", "link", "img", "input", "select"]);
const implicitByTag = new Map<string, string | null>();

/**
 * The library's implicit roles of <input> by type, and by type for inputs with a `list`
 * attribute: getRole() reads nothing else of an input (text-like types with a list are
 * comboboxes), so each answer is computed once and then looked up.
 */
const inputByType = new Map<string, string | null>();
const inputWithListByType = new Map<string, string | null>();

/**
 * The library's role for the element as if it had no role attribute. `has`: the element's
 * Attr bits, when the caller has them (saves reading href).
 */
function libImplicit(el: Element, has?: number): string | null {
  const tag = el.localName;
  // The library's rule for these tags: a link when there is an href, else no role.
  if (tag === "a" || tag === "area" || tag === "link") return (has === undefined ? el.hasAttribute("href") : (has & Attr.Href) !== 0) ? "link" : null;
  if (tag === "input" && !el.hasAttribute("role")) {
    const byType = el.hasAttribute("list") ? inputWithListByType : inputByType;
    const type = (el as HTMLInputElement).type;
    let role = byType.get(type);
    if (role === undefined) {
      role = libRole(el);
      byType.set(type, role);
    }
    return role;
  }
  const byTag = !ATTRIBUTE_DEPENDENT.has(tag);
  if (byTag) {
    const known = implicitByTag.get(tag);
    if (known !== undefined) return known;
  }
  let role: string | null;
  if (el.hasAttribute("role")) {
    // A detached shallow copy without the attribute (costly: only once per tag, or for the
    // attribute-dependent tags).
    const copy = el.cloneNode(false) as Element;
    copy.removeAttribute("role");
    role = libRole(copy);
  } else role = libRole(el);
  if (byTag) implicitByTag.set(tag, role);
  return role;
}

/** getRole(el): with no role attribute it is the implicit role. */
function libRoleOf(el: Element, hasRole = el.hasAttribute("role"), has?: number): string | null {
  return hasRole ? libRole(el) : libImplicit(el, has);
}

/** Role of an ancestor, for required-context checks: valid explicit token, else native role. */
function ancestorRole(a: Element): string {
  const explicit = validRoleToken(a.getAttribute("role"));
  if (explicit) return explicit === "presentation" ? "none" : explicit === "directory" ? "list" : explicit;
  const tag = a.localName;
  if (tag === "ul" || tag === "ol" || tag === "menu" || tag === "dir") return "list";
  return libRoleOf(a) ?? "generic";
}

/**
 * Roles of elements without a role attribute that follow from the tag alone (roleFromTagAlone),
 * keyed by tag, and by tag for links with an href (the one attribute their role reads).
 */
const roleByTag = new Map<string, string>();
const linkRoleByTag = new Map<string, string>();

/** `has`: the element's Attr bits (scanAttributes), when the caller has them. */
export function roleOf(el: Element, has?: number): string {
  const hasRole = has === undefined ? el.hasAttribute("role") : (has & Attr.Role) !== 0;
  if (hasRole) return fixRole(el, libRoleOf(el, hasRole, has), () => libImplicit(el, has), ancestorRole, hasRole);
  const tag = el.localName;
  const linkLike = tag === "a" || tag === "area" || tag === "link";
  let byTag: Map<string, string> | null = roleByTag;
  if (linkLike) byTag = (has === undefined ? el.hasAttribute("href") : (has & Attr.Href) !== 0) ? linkRoleByTag : null;
  else if (ATTRIBUTE_DEPENDENT.has(tag)) byTag = null;
  const known = byTag?.get(tag);
  if (known !== undefined) return known;
  const role = fixRole(el, libRoleOf(el, false, has), () => libImplicit(el, has), ancestorRole, false);
  if (byTag && roleFromTagAlone(tag, role)) byTag.set(tag, role);
  return role;
}
