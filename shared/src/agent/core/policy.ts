// How risky an agent's action is, and the one line the person reads before approving it. One
// home for the tiers (issue 17): observe never asks, act asks unless the person let act run on
// the site, sensitive always asks. Isomorphic: the extension's approval card and anything that
// replays or audits a log use the same rules.
import type { ActionTarget, AgentAction, DialogInfo, Tier } from "./actions.js";
import type { TargetFacts } from "../perform/page-calls.js";
import { isSecretField, isSecretTarget } from "./secrets.js";
import { assessToolAction, isToolAction } from "./policy-tools.js";

export type RiskTier = Tier;

export interface RiskContext {
  /** The page the action starts on. */
  pageUrl: string;
  /** The element as the agent saw it (its last snapshot). */
  target: ActionTarget | null;
  /** What the page says about the element now (page agent `describe`), when it has an id. */
  facts: TargetFacts | null;
  /** The dialog open on the tab, for the dialog action (issue 33). */
  dialog?: DialogInfo | null;
  /** What the page says about each field of a fill_form, by id (issue 33). */
  fieldFacts?: ReadonlyMap<number, TargetFacts | null>;
  /** An upload's file size in bytes (issue 33). */
  fileSize?: number;
}

export interface RiskAssessment {
  tier: RiskTier;
  /** Why it is sensitive, in words ("it submits the checkout form"); empty otherwise. */
  reasons: string[];
  /** "Type 'alice@example.com' into Email [18]" (secrets masked). */
  summary: string;
  /** The action types into a secret field: its text must never be shown or logged. */
  secret: boolean;
}

/** Words that make a button, link or form sensitive when its name or form carries them. */
export const SENSITIVE_WORDS = /\b(pay|payment|buy|order|purchase|checkout|delete|remove|send|publish|transfer|confirm)\b/i;

export function maskSecret(text: string): string {
  return "•".repeat(Math.max(6, Math.min(12, text.length)));
}

/** Same site: equal host, or one a subdomain of the other's last two labels (www.a.com ~ a.com). */
export function sameSite(a: string, b: string): boolean {
  let ha: string;
  let hb: string;
  try {
    ha = new URL(a).hostname.toLowerCase();
    hb = new URL(b).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (ha === hb) return true;
  const base = (h: string) => (/^[\d.]+$|:/.test(h) ? h : h.split(".").slice(-2).join("."));
  return base(ha) === base(hb);
}

const quote = (s: string, max = 60) => {
  const t = s.replace(/\s+/g, " ").trim();
  return `'${t.length > max ? `${t.slice(0, max - 1)}…` : t}'`;
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function formWords(facts: TargetFacts | null): string {
  const f = facts?.form;
  return f ? `${f.name} ${f.action} ${f.submitLabel}` : "";
}

function formName(facts: TargetFacts | null): string {
  const n = facts?.form?.name.replace(/[-_]+/g, " ").trim();
  return n ? `the ${n} form` : "a form";
}

export function assessAction(action: AgentAction, ctx: RiskContext): RiskAssessment {
  // The tools of issue 33 (hover, drag, dialog, fill_form, forward): their rules in one file.
  if (isToolAction(action)) return assessToolAction(action, ctx, SENSITIVE_WORDS);
  const { target, facts } = ctx;
  const id = "id" in action && action.id !== undefined ? action.id : null;
  const name = (target?.name || "").trim();
  const el = id === null ? "" : name ? `${name} [${id}]` : `[${id}]`;
  const reasons: string[] = [];
  // One rule (secrets.ts): the page's own facts, or what the agent saw of the element.
  const secretTarget =
    id !== null &&
    (!!facts?.secret ||
      (!!facts && isSecretField({ tag: facts.tag, type: facts.inputType, autocomplete: facts.autocomplete, label: target?.name })) ||
      isSecretTarget(target));
  let tier: RiskTier = "act";
  let summary: string;
  let secret = false;

  switch (action.kind) {
    case "scroll":
      tier = "observe";
      summary = id !== null ? `Scroll to ${el}` : `Scroll ${action.direction ?? "down"}`;
      break;
    case "click": {
      summary = `Click ${name ? quote(name) : "element"} [${action.id}]`;
      if (secretTarget) reasons.push("it is a secret field (a password, one-time code, PIN or card)");
      if (facts?.download) reasons.push("it downloads a file");
      const submits = !!facts?.submits;
      if (submits && (SENSITIVE_WORDS.test(name) || SENSITIVE_WORDS.test(formWords(facts)))) reasons.push(`it submits ${formName(facts)}`);
      // A button's words are what it does; a link's only say where it goes (same-site links
      // that leave the site or download are caught below).
      else if (!facts?.href && SENSITIVE_WORDS.test(name)) reasons.push(`its name says ${quote(SENSITIVE_WORDS.exec(name)![0])}`);
      if (facts?.href && !facts.download && !sameSite(ctx.pageUrl, facts.href)) reasons.push(`it opens another site (${hostOf(facts.href)})`);
      break;
    }
    case "type": {
      secret = secretTarget;
      const shown = secret ? maskSecret(action.text) : quote(action.text, 80);
      summary = `Type ${shown} into ${el || "the element"}${action.submit ? " and press Enter" : ""}`;
      if (secret) reasons.push("it fills a secret field (a password, one-time code, PIN or card)");
      if (action.submit && facts?.form && SENSITIVE_WORDS.test(formWords(facts))) reasons.push(`Enter submits ${formName(facts)}`);
      break;
    }
    case "select":
      summary = `Choose ${quote(action.value)} in ${el}`;
      if (secretTarget) reasons.push("it is a card field");
      break;
    case "press":
      summary = `Press ${action.key}`;
      break;
    case "navigate":
      summary = `Open ${action.url}`;
      if (!sameSite(ctx.pageUrl, action.url)) reasons.push(`it leaves ${hostOf(ctx.pageUrl)} for another site (${hostOf(action.url)})`);
      break;
    case "back":
      summary = "Go back to the previous page";
      break;
  }
  if (reasons.length) {
    tier = "sensitive";
    summary += `, a sensitive action: ${reasons.join("; ")}`;
  }
  return { tier, reasons, summary, secret };
}
