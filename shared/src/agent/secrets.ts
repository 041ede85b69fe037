// What is secret, for every consumer (issue 30): one rule decides from a field's facts whether
// its value is a secret (a password, a one-time code, a PIN, a payment card's number, code or
// expiry, an API key), and one function masks secret values wherever they turn up in text.
// The collector's redaction, the page agent's screenshot masks and approval facts, the
// extension's log, the activity log, and every answer of an agent session all use these two.
// Isomorphic: the in-page code reads the facts from the DOM (collector/privacy.ts) and asks
// this rule; the session and the extension's supervisor ask it of what the agent saw.
import { AgentError, isAgentError } from "./actions.js";

/** What replaces a secret value (in logs, answers, snapshots, Markdown, titles, URLs). */
export const MASK = "•••";

/**
 * Values shorter than this are not remembered or masked: one or two characters say almost
 * nothing and would mask half the page.
 */
export const MIN_SECRET_LENGTH = 3;

/** What is known of a field. The page knows everything; the agent's picture knows role, type and label. */
export interface FieldFacts {
  /** Lower-case tag name; absent when only the agent's picture of the element is known. */
  tag?: string | null;
  /** Its role, when the tag is not known (textbox, searchbox, combobox, spinbutton). */
  role?: string | null;
  /** The input type (the attribute or the element's `type`). */
  type?: string | null;
  /** The autocomplete attribute (tokens: "section-a billing cc-number"). */
  autocomplete?: string | null;
  /** The name and id attributes. */
  name?: string | null;
  id?: string | null;
  /** The words that label it: the accessible name, or its label's text. */
  label?: string | null;
  /** The page draws its characters as discs (`-webkit-text-security`), as for a password. */
  obscured?: boolean;
}

/** Roles of a field one can type into, when only the role is known. */
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton"]);
/** Input types whose value is not typed text: never a secret field. */
const NOT_TEXT = new Set(["checkbox", "radio", "submit", "button", "reset", "image", "file", "hidden", "range", "color"]);
/** Autocomplete tokens of secrets (WHATWG autofill): credentials, one-time codes, every cc-* field. */
const SECRET_TOKEN = /^(?:one-time-code|current-password|new-password|cc-.+)$/;

/**
 * Words (of a normalised name, id or label: lower case, camelCase and punctuation split) that
 * say a field holds a secret. Deliberately not "code" alone (zip, promo, coupon codes) nor
 * "pass" alone in labels ("boarding pass").
 */
const SECRET_WORDS = new RegExp(
  "\\b(?:" +
    [
      "passw(?:or)?d", "passphrase", "passcode", "pwd",
      "pin", "pin ?code", "pin ?number",
      "otp", "totp", "one ?time ?(?:code|password|passcode|pin)",
      "(?:verification|security|auth(?:entication)?|login|sms|2fa|mfa) code",
      "card ?(?:number|num|no)", "credit ?card", "card ?verification", "cvv2?", "cvc2?", "csc",
      "cc ?(?:num|number|csc|cvv|cvc|exp|expiry)", "expiry ?date", "exp ?date",
      "secret", "api ?key", "access ?token", "private ?key",
    ].join("|") +
    ")\\b",
);
/** Extra words a name or id may use for a password ("pass", "pw"): too loose for label text. */
const SECRET_NAME_WORDS = /\b(?:pass|pw|pword)\b/;

/** "newPassword", "user[pin_code]", "CVV2" → "new password", "user pin code", "cvv2". */
function words(s: string): string {
  return s
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ");
}

/** True when a field's value is a secret. Any one fact suffices; none can take another back. */
export function isSecretField(f: FieldFacts): boolean {
  const tag = f.tag ? f.tag.toLowerCase() : null;
  if (tag !== null) {
    if (tag !== "input" && tag !== "textarea") return false;
  } else if (f.role && !FIELD_ROLES.has(f.role)) return false;
  const type = (f.type ?? "").trim().toLowerCase();
  if (type === "password") return true;
  if (tag !== "textarea" && NOT_TEXT.has(type)) return false;
  if (f.obscured) return true;
  if (f.autocomplete) {
    for (const token of f.autocomplete.toLowerCase().split(/\s+/)) if (SECRET_TOKEN.test(token)) return true;
  }
  for (const attr of [f.name, f.id]) {
    if (!attr) continue;
    const w = words(attr);
    if (SECRET_WORDS.test(w) || SECRET_NAME_WORDS.test(w)) return true;
  }
  return !!f.label && SECRET_WORDS.test(words(f.label));
}

/** The element an action aims at, as the agent saw it (ActionTarget's shape). */
export interface SeenTarget {
  role: string;
  name: string;
  input_type: string | null;
  /** The page's own facts said secret when it was captured (the collector redacted its value). */
  secret?: boolean;
}

/** A target whose typed value is a secret: the page said so, or its role, type and label do. */
export function isSecretTarget(target: SeenTarget | null | undefined): boolean {
  if (!target) return false;
  return target.secret === true || isSecretField({ role: target.role, type: target.input_type, label: target.name });
}

// ---- masking values ---------------------------------------------------------------------

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The forms a secret takes in text: itself, and as a URL or a form would encode it. */
function formsOf(secret: string): string[] {
  const out = new Set([secret]);
  try {
    const uri = encodeURIComponent(secret);
    out.add(uri);
    out.add(uri.replace(/%20/g, "+"));
    out.add(encodeURI(secret));
  } catch {
    // a lone surrogate: only the text form
  }
  return [...out];
}

/**
 * One pattern for a set of secrets. A code of digits also matches with spaces, dots or dashes
 * between its digits ("4111 1111 1111 1111"), and only where it is not part of a longer number.
 */
function patternOf(secrets: Iterable<string>): RegExp | null {
  const alts: string[] = [];
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const digits = secret.replace(/[\s.-]/g, "");
    if (/^\d+$/.test(digits) && digits.length >= MIN_SECRET_LENGTH) {
      alts.push(`(?<!\\d)${digits.split("").join("[\\s.-]?")}(?!\\d)`);
    } else {
      for (const form of formsOf(secret)) alts.push(escape(form));
    }
  }
  if (!alts.length) return null;
  // Longest first: a secret that contains another is masked whole.
  alts.sort((a, b) => b.length - a.length);
  return new RegExp(alts.join("|"), "g");
}

/** `text` with every occurrence of the secrets (in any of their forms) replaced by MASK. */
export function scrubText(text: string, secrets: readonly string[] | SecretValues): string {
  const re = secrets instanceof SecretValues ? secrets.pattern() : patternOf(secrets);
  return re && text ? text.replace(re, MASK) : text;
}

/**
 * The secret values an agent session has typed (or a page holds): kept in memory only, never
 * logged, never sent anywhere. `scrub` masks them in any answer before it goes out.
 */
export class SecretValues {
  private readonly values = new Set<string>();
  private re: RegExp | null | undefined = null;

  /** Remembers a value typed into a secret field (too short ones are ignored). */
  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.re = undefined;
  }

  get size(): number {
    return this.values.size;
  }

  /** The one pattern of every remembered secret (null: none). */
  pattern(): RegExp | null {
    if (this.re === undefined) this.re = patternOf(this.values);
    return this.re;
  }

  /** A string, or every string inside an answer (objects and arrays copied, never changed in place). */
  scrub<T>(value: T): T {
    const re = this.pattern();
    return re ? (scrubDeep(value, re) as T) : value;
  }

  /** The error with its message (and an AgentError's detail) masked; an AgentError keeps its code. */
  scrubError(err: unknown): unknown {
    const re = this.pattern();
    if (!re || !(err instanceof Error)) return err;
    const message = err.message.replace(re, MASK);
    if (isAgentError(err)) return new AgentError(err.code, message, err.detail && (scrubDeep(err.detail, re) as Record<string, unknown>));
    if (message === err.message) return err;
    return Object.assign(new Error(message), { name: err.name });
  }
}

function scrubDeep(v: unknown, re: RegExp): unknown {
  if (typeof v === "string") return v.replace(re, MASK);
  if (Array.isArray(v)) return v.map((x) => scrubDeep(x, re));
  if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = scrubDeep(x, re);
    return out;
  }
  return v;
}
