// Token counting with the o200k_base encoding (GPT-4o and later) from gpt-tokenizer: a real BPE
// tokenizer, because chars/4 is off by 2x on the punctuation- and number-heavy lines we emit.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

/** Number of o200k_base tokens in `text`. */
export function countTokens(text: string): number {
  return text ? countO200k(text) : 0;
}
