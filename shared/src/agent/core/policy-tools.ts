// The risk tier and approval line of the tools real tasks need (issue 33): hover, drag, the
// dialog answer, fill_form and forward. policy.ts's assessAction hands these actions here, so
// there is still one entry point for "is the person asked, and what do they read". Isomorphic.
import type { ActionTarget, AgentAction, DialogInfo, FormField, Tier } from "./actions.js";
import type { TargetFacts } from "../perform/page-calls.js";
import { isSecretField, MASK } from "./secrets.js";

export type ToolAction = Extract<AgentAction, { kind: "hover" | "drag" | "dialog" | "fill_form" | "forward" | "upload" }>;

/** What of policy.ts's RiskContext these rules read (declared here: policy.ts imports this file). */
export interface ToolRiskContext {
  target: ActionTarget | null;
  dialog?: DialogInfo | null;
  fieldFacts?: ReadonlyMap<number, TargetFacts | null>;
  /** An upload's file size in bytes, when known. */
  fileSize?: number;
}

/** "12.3 kB", "1.2 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** policy.ts's RiskAssessment but whether to ask, which policy.ts decides for every action. */
export interface ToolRisk {
  tier: Tier;
  reasons: string[];
  summary: string;
  secret: boolean;
}

const TOOL_KINDS = new Set<AgentAction["kind"]>(["hover", "drag", "dialog", "fill_form", "forward", "upload"]);

export function isToolAction(action: AgentAction): action is ToolAction {
  return TOOL_KINDS.has(action.kind);
}

const quote = (s: string, max = 60) => {
  const t = s.replace(/\s+/g, " ").trim();
  return `'${t.length > max ? `${t.slice(0, max - 1)}…` : t}'`;
};

/** A field of fill_form is secret when the agent saw it so, or the page says so now. */
export function fieldIsSecret(f: FormField, facts: TargetFacts | null | undefined): boolean {
  if (f.secret) return true;
  if (!facts) return false;
  return facts.secret || isSecretField({ tag: facts.tag, type: facts.inputType, autocomplete: facts.autocomplete, label: f.label });
}

/** "Email [3] = 'a@b.c'", a secret field's value masked, a checkbox ticked or not. */
export function fieldLine(f: FormField, facts: TargetFacts | null | undefined): string {
  const el = f.label ? `${f.label} [${f.id}]` : `[${f.id}]`;
  if (fieldIsSecret(f, facts)) return `${el} = ${MASK}`;
  const type = facts?.inputType ?? null;
  if (type === "checkbox" || f.role === "checkbox" || f.role === "switch") return `${el} ${/^(false|off|no|0|)$/i.test(f.value.trim()) ? "unticked" : "ticked"}`;
  if (type === "radio" || f.role === "radio") return `${el} chosen`;
  return `${el} = ${quote(f.value, 80)}`;
}

/** `words`: policy.ts's SENSITIVE_WORDS (passed in: this file does not import policy.ts back). */
export function assessToolAction(action: ToolAction, ctx: ToolRiskContext, words: RegExp): ToolRisk {
  const name = (ctx.target?.name || "").trim();
  const reasons: string[] = [];
  let tier: Tier = "act";
  let summary: string;
  let secret = false;
  switch (action.kind) {
    case "hover":
      summary = `Hover over ${name ? quote(name) : "element"} [${action.id}]`;
      break;
    case "drag": {
      const to = action.to !== undefined ? `element [${action.to}]` : `by (${action.dx ?? 0}, ${action.dy ?? 0}) px`;
      summary = `Drag ${name ? quote(name) : "element"} [${action.id}] to ${to}`;
      if (words.test(name)) reasons.push(`its name says ${quote(words.exec(name)![0])}`);
      break;
    }
    case "dialog": {
      const d = ctx.dialog;
      const what = d ? `the ${d.type} dialog ${quote(d.message || "(no text)")}` : "the dialog";
      if (!action.accept) summary = `Dismiss ${what}`;
      else if (d?.type === "prompt") summary = `Answer ${what} with ${quote(action.text ?? d.default_value ?? "")}`;
      else summary = `Accept ${what}`;
      // A confirm guards what the page thinks needs a second yes (a delete, a payment); leaving a
      // page with beforeunload throws away what the person typed there.
      if (action.accept && d?.type === "confirm") reasons.push("it confirms what the page asked to be sure of");
      if (action.accept && d?.type === "beforeunload") reasons.push("it leaves a page that warns of unsaved changes");
      break;
    }
    case "fill_form": {
      const lines = action.fields.map((f) => fieldLine(f, ctx.fieldFacts?.get(f.id)));
      summary = `Fill ${action.fields.length} field${action.fields.length === 1 ? "" : "s"}: ${lines.join("; ")}`;
      secret = action.fields.some((f) => fieldIsSecret(f, ctx.fieldFacts?.get(f.id)));
      if (secret) reasons.push("it fills a secret field (a password, one-time code, PIN or card)");
      break;
    }
    case "forward":
      summary = "Go forward to the next page";
      break;
    case "upload": {
      const file = action.path.split(/[\\/]/).pop() || action.path;
      summary = `Upload ${quote(file)}${ctx.fileSize !== undefined ? ` (${sizeText(ctx.fileSize)})` : ""} into ${name ? quote(name) : "element"} [${action.id}]`;
      reasons.push("it sends a file to the site");
      break;
    }
  }
  if (reasons.length) {
    tier = "sensitive";
    summary += `, a sensitive action: ${reasons.join("; ")}`;
  }
  return { tier, reasons, summary, secret };
}

/** fill_form as it may be logged or shown: the values of fields the agent saw as secret replaced by MASK. */
export function loggableFields<A extends AgentAction>(action: A, facts?: ReadonlyMap<number, TargetFacts | null>): A {
  if (action.kind !== "fill_form") return action;
  return { ...action, fields: action.fields.map((f) => (fieldIsSecret(f, facts?.get(f.id)) ? { ...f, value: MASK } : f)) };
}
