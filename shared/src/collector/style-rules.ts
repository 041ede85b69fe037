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
            for (const part of sel.split(",")) {
              if (!part.includes(":hover")) continue;
              const stripped = part.replace(/:hover\b/g, "").trim();
              if (stripped) hover.push(stripped);
            }
          }
          if (hasPseudo && generated && pseudo.length < MAX_SELECTORS) {
            for (const part of sel.split(",")) {
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

/** No quotes or escapes, and brackets balanced: joining it with others cannot change its meaning. */
function selfContained(sel: string): boolean {
  let paren = 0;
  let square = 0;
  for (let i = 0; i < sel.length; i++) {
    const c = sel.charCodeAt(i);
    if (c === 40) paren++;
    else if (c === 41) paren--;
    else if (c === 91) square++;
    else if (c === 93) square--;
    else if (c === 34 || c === 39 || c === 92) return false; // " ' \
    if (paren < 0 || square < 0) return false;
  }
  return paren === 0 && square === 0;
}

function addMatches(root: Document | ShadowRoot, selectors: string[], into: Set<Element>): void {
  if (!selectors.length) return;
  // One pass over the tree for the whole list (it matches the union of its selectors); one
  // query per selector when some selector is invalid (that fails the whole list) or could
  // merge with its neighbour once joined (the naive split on "," cuts `:is(a, b)` in two).
  if (selectors.every(selfContained)) {
    try {
      root.querySelectorAll(selectors.join(", ")).forEach((el) => into.add(el));
      return;
    } catch {
      // fall through
    }
  }
  for (const sel of selectors) {
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
