// toPrompt: a snapshot as a compact, budgeted block of text for an LLM prompt. Elements are
// taken best-ranked first until the token budget is spent; the count is exact (o200k_base).
import type { RefinedElement, SnapshotResponse } from "../contract/index.js";
import { formatElement, type LineOptions } from "./format.js";
import { countTokens } from "./tokens.js";

export const DEFAULT_TOKEN_BUDGET = 1000;

export interface ToPromptOptions extends LineOptions {
  /** Most o200k tokens the whole text may use (header and footer included). Default 1000. */
  tokenBudget?: number;
  /** Line order of the kept elements: `rank` (best first, default) or `page` (top to bottom). */
  order?: "rank" | "page";
  /** First line naming the page and viewport. Default true. */
  header?: boolean;
  /** Most elements written, however much budget is left (e.g. 10 with a goal). Default no cap. */
  maxElements?: number;
  /**
   * Keep layout containers (generic, list, listitem, form, section...) that are not
   * clickable. Default false: their text repeats their children's and they cannot be acted on.
   */
  structural?: boolean;
}

/** Roles that only group other elements; written only when clickable or asked for. */
const STRUCTURAL_ROLES = new Set([
  "generic", "group", "list", "listitem", "form", "region", "section", "article", "navigation",
  "banner", "main", "contentinfo", "complementary", "presentation", "none", "paragraph", "table",
  "row", "rowgroup", "cell", "figure", "document", "application", "toolbar", "menu", "menubar", "tablist",
]);

function isStructural(el: RefinedElement): boolean {
  return STRUCTURAL_ROLES.has(el.role) && !el.visual_cues?.is_clickable && !el.href;
}

export interface PromptResult {
  text: string;
  /** o200k_base tokens of `text`. */
  tokens: number;
  /** Ids of the elements written, in the order written. */
  included: number[];
  /** Ids left out (for the budget or the element cap, best-ranked first; then skipped containers). */
  omitted: number[];
}

export type PromptSource = Pick<SnapshotResponse, "elements"> & Partial<Pick<SnapshotResponse, "url" | "viewport">>;

/** Rank order: fused_rank_index when the server reranked, else the order given (importance). */
function byRank(elements: RefinedElement[]): RefinedElement[] {
  return elements
    .map((el, i) => ({ el, i, r: el.fused_rank_index ?? i }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.el);
}

function pageOrder(a: RefinedElement, b: RefinedElement): number {
  const ay = a.doc_y ?? a.center_y ?? a.bbox.y;
  const by = b.doc_y ?? b.center_y ?? b.bbox.y;
  // Same visual row (within 8 px): left to right.
  if (Math.abs(ay - by) > 8) return ay - by;
  return (a.center_x ?? a.bbox.x) - (b.center_x ?? b.bbox.x);
}

export function toPrompt(snapshot: PromptSource, opts: ToPromptOptions = {}): PromptResult {
  const budget = opts.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const all = byRank(snapshot.elements ?? []);
  const ranked = opts.structural ? all : all.filter((el) => !isStructural(el));
  const skipped = all.filter((el) => !ranked.includes(el)).map((el) => el.id);
  const head: string[] = [];
  if (opts.header !== false) {
    const where = snapshot.url ? ` ${snapshot.url}` : "";
    const vp = snapshot.viewport ? ` viewport ${snapshot.viewport.width}x${snapshot.viewport.height}` : "";
    head.push(`Page${where}${vp}`);
  }
  const footer = (n: number) => (n > 0 ? `(${n} more elements omitted)` : "");

  // Greedy by line cost; the sum of per-line counts is within a few tokens of the real count
  // (BPE merges rarely cross a newline), and the exact count below settles it.
  const lines = ranked.map((el) => formatElement(el, opts));
  const cost = lines.map((l) => countTokens(`${l}\n`));
  const headCost = head.length ? countTokens(`${head[0]}\n`) : 0;
  const footCost = countTokens(footer(all.length)) + 1;
  const cap = Math.min(ranked.length, opts.maxElements ?? Infinity);
  let used = headCost;
  const keep: number[] = [];
  for (let i = 0; i < cap; i++) {
    const reserve = i < all.length - 1 ? footCost : 0;
    if (used + cost[i] + reserve > budget) break;
    used += cost[i];
    keep.push(i);
  }

  const render = (k: number[]) => {
    const idx = opts.order === "page" ? [...k].sort((a, b) => pageOrder(ranked[a], ranked[b])) : k;
    const body = idx.map((i) => lines[i]);
    const tail = footer(all.length - k.length);
    return [...head, ...body, ...(tail ? [tail] : [])].join("\n");
  };
  let text = render(keep);
  let tokens = countTokens(text);
  while (tokens > budget && keep.length) {
    keep.pop();
    text = render(keep);
    tokens = countTokens(text);
  }
  const kept = new Set(keep);
  const orderIdx = opts.order === "page" ? [...keep].sort((a, b) => pageOrder(ranked[a], ranked[b])) : keep;
  return {
    text,
    tokens,
    included: orderIdx.map((i) => ranked[i].id),
    omitted: [...ranked.filter((_, i) => !kept.has(i)).map((el) => el.id), ...skipped],
  };
}
