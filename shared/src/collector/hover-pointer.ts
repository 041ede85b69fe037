// Elements that get `cursor: pointer` only while hovered (e.g. `circle:hover {cursor:pointer}`)
// look inert to getComputedStyle. Reading the style sheets once per collect() and matching the
// rule's selector with `:hover` stripped finds them in one querySelectorAll per rule.

const MAX_RULES = 400;

function hoverSelectors(sheets: Iterable<CSSStyleSheet>): string[] {
  const out: string[] = [];
  const visitRules = (rules: CSSRuleList | undefined): void => {
    if (!rules) return;
    for (let i = 0; i < rules.length && out.length < MAX_RULES; i++) {
      const rule = rules[i];
      const style = (rule as CSSStyleRule).style;
      const sel = (rule as CSSStyleRule).selectorText;
      if (sel && style && sel.includes(":hover") && style.cursor === "pointer") {
        for (const part of sel.split(",")) {
          if (!part.includes(":hover")) continue;
          const stripped = part.replace(/:hover\b/g, "").trim();
          if (stripped && !/:(?:before|after)\b|::/.test(stripped)) out.push(stripped);
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
  return out;
}

/** Elements under `root` that a `:hover { cursor: pointer }` rule would apply to. */
export function hoverPointerElements(root: Document | ShadowRoot, into: Set<Element>): void {
  const sheets: CSSStyleSheet[] = [];
  for (const s of Array.from(root.styleSheets)) sheets.push(s);
  const adopted = (root as { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets;
  if (adopted) for (const s of adopted) sheets.push(s);
  for (const sel of hoverSelectors(sheets)) {
    try {
      root.querySelectorAll(sel).forEach((el) => into.add(el));
    } catch {
      // an invalid selector after stripping (e.g. `:is(:hover)`): ignore that rule
    }
  }
}
