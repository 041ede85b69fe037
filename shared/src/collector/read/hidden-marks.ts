// Read with `markHidden`: every text run of the copy whose live twin the person cannot see gets
// the provenance sentinels around its hidden characters, before any extraction runs. The
// sentinels are characters inside the text, so whatever Readability, the main-content
// extractor and turndown keep of a run, they keep its marks with it (Readability even rebuilds
// parts of its copy from HTML); agent/provenance.ts turns them into ⟦hidden⟧ marks afterwards.
// Pages without hidden text get no sentinel, so their output is the same as without the option.
import { RUN_END, RUN_START, stripRunSentinels } from "../../agent/provenance.js";
import type { VisibilityJudge } from "../visibility/judge.js";

const SKIP = new Set(["script", "style", "template", "noscript", "head"]);
/** Attributes turndown writes out (image alt text, link titles). */
const WRITTEN = ["alt", "title"];

function wrap(value: string, ranges: Array<[number, number]>): string {
  let out = "";
  let at = 0;
  for (const [a0, b0] of ranges) {
    let a = a0;
    let b = b0;
    while (a < b && /\s/.test(value[a])) a++;
    while (b > a && /\s/.test(value[b - 1])) b--;
    if (a >= b) continue;
    out += stripRunSentinels(value.slice(at, a)) + RUN_START + stripRunSentinels(value.slice(a, b)) + RUN_END;
    at = b;
  }
  return out + stripRunSentinels(value.slice(at));
}

/** Marks `copy` (a clone of `live`, same shape) where the person cannot see `live`'s text. */
export function markHiddenRuns(live: Node, copy: Node, judge: VisibilityJudge): void {
  let c = copy.firstChild;
  for (let l = live.firstChild; l && c; l = l.nextSibling, c = c.nextSibling) {
    if (l.nodeType === 3 && c.nodeType === 3) {
      // The copy's text is the live text (a clone); offsets of the verdict are the live node's.
      const v = l.nodeValue ?? "";
      const r = judge.run(l as Text);
      const next = r && r.length ? wrap(v, r) : stripRunSentinels(v);
      if (next !== c.nodeValue) c.nodeValue = next;
    } else if (l.nodeType === 1 && c.nodeType === 1) {
      const ce = c as Element;
      for (const a of WRITTEN) {
        const v = ce.getAttribute(a);
        if (v && v !== stripRunSentinels(v)) ce.setAttribute(a, stripRunSentinels(v));
      }
      if (!SKIP.has((l as Element).localName)) markHiddenRuns(l, c, judge);
    }
  }
}
