// The compact agent prompt: one line per element, best first, within a token budget
// (the SDK's toPrompt, so the extension, the SDK and the CLI write the same format). Loaded
// on first use: the tokenizer is large and the panel should open fast.
import type { PromptResult } from "@sightline/shared/prompt";
import type { RankedSnapshot } from "./engine.js";

export const PROMPT_TOKEN_BUDGET = 1000;

export async function formatPrompt(snap: RankedSnapshot, goal: string): Promise<PromptResult> {
  const { toPrompt } = await import("@sightline/shared/prompt");
  const res = toPrompt(snap, { tokenBudget: PROMPT_TOKEN_BUDGET });
  return goal ? { ...res, text: `Goal: ${goal}\n${res.text}` } : res;
}
