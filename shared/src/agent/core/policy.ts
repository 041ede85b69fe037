// How risky an agent's action is, whether the person is asked before it runs, and the one line
// they read on the card. One home for the tiers and the asking (issue 17, 32): observe never
// asks, act asks unless the person let act run on the site, sensitive always asks. Isomorphic:
// the extension's supervisor only calls assessAction; anything that replays or audits a log
// uses the same rules. The issue-33 tools' tiers are in policy-tools.ts, called from here.
import type { ActionTarget, AgentAction, DialogInfo, Tier } from "./actions.js";
import type { TargetFacts } from "../perform/page-calls.js";
import { isSecretField, isSecretTarget } from "./secrets.js";
import { assessToolAction, isToolAction } from "./policy-tools.js";

export interface RiskContext {
  /** The page the action starts on. */
  pageUrl: string;
  /** The element as the agent saw it (its last snapshot). */
  target: ActionTarget | null;
  /** What the page says about the element now (page agent `describe`), when it has an id. */
  facts: TargetFacts | null;
  /** The person let act run on this page's site without asking (Allow on this site). */
  siteAllowed?: boolean;
  /** The dialog open on the tab, for the dialog action (issue 33). */
  dialog?: DialogInfo | null;
  /** What the page says about each field of a fill_form, by id (issue 33). */
  fieldFacts?: ReadonlyMap<number, TargetFacts | null>;
  /** An upload's file size in bytes (issue 33). */
  fileSize?: number;
}

export interface RiskAssessment {
  tier: Tier;
  /** The person approves (or rejects) it before it runs: sensitive, or act on a site not allowed. */
  ask: boolean;
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

/**
 * A link opens a page when it leads somewhere else than this document: an http(s) address that
 * is not only a fragment of the page it is on. "#", "#top", javascript: and a missing href do not.
 */
function opensPage(href: string, pageUrl: string): boolean {
  let to: URL;
  try {
    to = new URL(href, pageUrl);
  } catch {
    return false;
  }
  if (to.protocol !== "http:" && to.protocol !== "https:") return to.protocol !== "javascript:";
  let here: URL | null = null;
  try {
    here = new URL(pageUrl);
  } catch {
    here = null;
  }
  const bare = (u: URL) => `${u.origin}${u.pathname}${u.search}`;
  return !(here && bare(here) === bare(to) && href.includes("#"));
}

/** File types a browser saves rather than shows (archives, installers, office files, PDFs, data). */
const DOWNLOAD_TYPES = /\.(pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|pkg|deb|rpm|apk|iso|img|bin|jar|csv|tsv|xls|xlsx|doc|docx|ppt|pptx|odt|ods|odp|rtf|epub|ics|vcf)$/i;

/**
 * A click is judged likely to download (issue 33) when its link says so (the `download`
 * attribute) or leads to a file of a type browsers save: the person is asked before a file
 * lands on their machine. A download no markup announces (an attachment response) is only
 * known after: the action's answer names it.
 */
export function likelyDownload(facts: TargetFacts | null): boolean {
  if (!facts) return false;
  if (facts.download) return true;
  if (!facts.href) return false;
  try {
    const u = new URL(facts.href);
    return (u.protocol === "http:" || u.protocol === "https:") && DOWNLOAD_TYPES.test(u.pathname);
  } catch {
    return false;
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

/** Whether the person is asked: sensitive always, act unless they allowed act on the site. */
function asks(tier: Tier, ctx: RiskContext): boolean {
  return tier === "sensitive" || (tier === "act" && !ctx.siteAllowed);
}

export function assessAction(action: AgentAction, ctx: RiskContext): RiskAssessment {
  // The tools of issue 33 (hover, drag, dialog, fill_form, forward): their rules in one file.
  if (isToolAction(action)) {
    const judged = assessToolAction(action, ctx, SENSITIVE_WORDS);
    return { ...judged, ask: asks(judged.tier, ctx) };
  }
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
  let tier: Tier = "act";
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
      const downloads = likelyDownload(facts);
      if (downloads) reasons.push("it downloads a file");
      const submits = !!facts?.submits;
      const page = facts?.href && !downloads ? opensPage(facts.href, ctx.pageUrl) : false;
      if (submits && (SENSITIVE_WORDS.test(name) || SENSITIVE_WORDS.test(formWords(facts)))) reasons.push(`it submits ${formName(facts)}`);
      // A button's words are what it does; a link that opens a page is a way to that page,
      // whatever its words: a same-site 'Checkout' link opens the checkout page, and what buys
      // is the button that places the order. A "link" that runs script in place ("#",
      // javascript:) is a button and is judged by its words.
      else if (!page && SENSITIVE_WORDS.test(name)) reasons.push(`its name says ${quote(SENSITIVE_WORDS.exec(name)![0])}`);
      if (page && !sameSite(ctx.pageUrl, facts!.href!)) reasons.push(`it opens another site (${hostOf(facts!.href!)})`);
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
  return { tier, ask: asks(tier, ctx), reasons, summary, secret };
}
