// One pass over a root's style sheets (once per collect(), per document or shadow root):
//  - elements that get `cursor: pointer` only while hovered (`circle:hover {cursor:pointer}`)
//    look inert to getComputedStyle; matching the rule's selector with `:hover` stripped finds
//    them in one querySelectorAll per rule;
//  - elements with CSS generated text (`::before/::after { content: "…" }`), the only ones
//    whose pseudo-element styles the accessible-name computation needs to read (reading a
//    pseudo-element's computed style is costly, and most elements have none).

const MAX_SELECTORS = 400;

export interface RuleSets {
  hoverPointer: Set<Element>;
  generatedContent: Set<Element>;
}

export function emptyRuleSets(): RuleSets {
  return { hoverPointer: new Set(), generatedContent: new Set() };
}

/**
 * The selectors of a selector list: split on its top-level commas only, so the commas inside
 * `:is(a, b)`, `:not(a, b)`, `[title="a,b"]` or an escaped comma stay in their selector.
 */
export function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "\\") {
      i++; // the escaped character, whatever it is
    } else if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "(" || c === "[") {
      depth++;
    } else if (c === ")" || c === "]") {
      depth = Math.max(0, depth - 1);
    } else if (c === "," && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

function selectorsOf(sheets: Iterable<CSSStyleSheet>): { hover: string[]; pseudo: string[] } {
  const hover: string[] = [];
  const pseudo: string[] = [];
  const visitRules = (rules: CSSRuleList | undefined): void => {
    if (!rules) return;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      // Declarations first: only rules that set cursor:pointer or generated content matter, and
      // reading two declarations is far cheaper than serialising every rule's selectorText.
      const style = (rule as CSSStyleRule).style;
      if (style) {
        const pointer = style.cursor === "pointer";
        const content = style.content;
        const generated = !!content && content !== "none" && content !== "normal" && content !== '""' && content !== "''";
        const sel = pointer || generated ? (rule as CSSStyleRule).selectorText : "";
        if (sel) {
          const hasHover = sel.includes(":hover");
          const hasPseudo = sel.includes(":before") || sel.includes(":after");
          if (hasHover && !hasPseudo && pointer && hover.length < MAX_SELECTORS) {
            for (const part of splitSelectorList(sel)) {
              if (!part.includes(":hover")) continue;
              const stripped = part.replace(/:hover\b/g, "").trim();
              if (stripped) hover.push(stripped);
            }
          }
          if (hasPseudo && generated && pseudo.length < MAX_SELECTORS) {
            for (const part of splitSelectorList(sel)) {
              if (!/:(?::)?(?:before|after)\b/.test(part)) continue;
              const stripped = part.replace(/::?(?:before|after)\b/g, "").replace(/:hover\b|:focus(?:-visible|-within)?\b|:active\b/g, "").trim();
              if (stripped) pseudo.push(stripped);
            }
          }
        }
      }
      // Grouping rules (@media, @supports, @layer, nesting) carry their own cssRules.
      const nested = (rule as CSSGroupingRule).cssRules;
      if (nested && nested.length) visitRules(nested);
    }
  };
  for (const sheet of sheets) {
    let rules: CSSRuleList | undefined;
    try {
      rules = sheet.cssRules; // throws for cross-origin sheets
    } catch {
      continue;
    }
    visitRules(rules);
  }
  return { hover, pseudo };
}

function addMatches(root: Document | ShadowRoot, selectors: string[], into: Set<Element>): void {
  // One query per distinct selector, not one query for the joined list: Chromium matches a
  // list by trying every selector on every element, while a single selector takes its fast
  // paths (an id, a rightmost class or tag rejects most elements at once). On a 6,400-element
  // page with 28 distinct generated-content selectors (56 with repeats): 12.3 ms joined, 1.1 ms
  // one by one. Same elements either way: the union of what each valid selector matches.
  for (const sel of new Set(selectors)) {
    try {
      root.querySelectorAll(sel).forEach((el) => into.add(el));
    } catch {
      // a selector left invalid by the stripping (e.g. `:is(:hover)`): ignore that rule
    }
  }
}

/** Adds the hover-pointer and generated-content elements of `root` to `sets`. */
export function scanStyleRules(root: Document | ShadowRoot, sets: RuleSets): void {
  const sheets: CSSStyleSheet[] = Array.from(root.styleSheets);
  const adopted = (root as { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets;
  if (adopted) for (const s of adopted) sheets.push(s);
  if (!sheets.length) return;
  const { hover, pseudo } = selectorsOf(sheets);
  addMatches(root, hover, sets.hoverPointer);
  addMatches(root, pseudo, sets.generatedContent);
}
