// The rule keys that let the walk skip cursor/position reads: every selector is reduced to a
// key its elements must carry (id, class, tag, attribute), or marks the whole collect unkeyable.
import { describe, expect, it } from "vitest";
import { addSelectorKeys, emptyStyleKeys, foldCase } from "../../src/collector/style-keys.js";

function keysOf(...selectors: Array<string | undefined>) {
  const k = emptyStyleKeys();
  for (const s of selectors) addSelectorKeys(s, k);
  return { all: k.all, tags: [...k.tags], ids: [...k.ids], classes: [...k.classes], attrs: [...k.attrs] };
}

describe("addSelectorKeys", () => {
  it("keys a rule by the rightmost compound, preferring id, then class, then tag", () => {
    expect(keysOf(".card > a.btn:hover")).toEqual({ all: false, tags: [], ids: [], classes: ["btn"], attrs: [] });
    expect(keysOf("nav ul li#home.active")).toEqual({ all: false, tags: [], ids: ["home"], classes: [], attrs: [] });
    expect(keysOf("DIV + Span:not(.x)")).toEqual({ all: false, tags: ["span"], ids: [], classes: [], attrs: [] });
    expect(keysOf('input[type="submit" i], [role=button]')).toEqual({ all: false, tags: ["input"], ids: [], classes: [], attrs: ["role"] });
    expect(keysOf(":is(.a, .b) .c ~ .d", "& .e")).toEqual({ all: false, tags: [], ids: [], classes: ["d", "e"], attrs: [] });
  });

  it("unescapes identifiers as CSS does", () => {
    expect(keysOf(".md\\:flex", ".\\31 23", ".a\\.b", "#x\\ y").classes).toEqual(["md:flex", "123", "a.b"]);
    expect(keysOf("#x\\ y").ids).toEqual(["x y"]);
  });

  it("skips rules for pseudo-elements and shadow hosts, which style no element the walk settles", () => {
    expect(keysOf(".a::before", "p:after", "::-webkit-scrollbar", ":host(.x)", "input::placeholder")).toEqual({
      all: false, tags: [], ids: [], classes: [], attrs: [],
    });
  });

  it("gives up on what it cannot key", () => {
    for (const s of ["*", ":root", "*:hover", "&:hover", "svg|a", "::slotted(span)", "x-el::part(label)", ":is(.a, .b)", "[xlink|href]", undefined, ""]) {
      expect(keysOf(s).all, String(s)).toBe(true);
    }
    // One unkeyable selector in a list is enough.
    expect(keysOf(".a, *").all).toBe(true);
  });

  it("does not split at commas or combinators inside brackets, parentheses or strings", () => {
    expect(keysOf('.a:not(.b, .c) .d[title="x, y > z"]')).toEqual({ all: false, tags: [], ids: [], classes: ["d"], attrs: [] });
  });

  it("folds ids and classes to lower case for quirks-mode documents, keys found before included", () => {
    const k = emptyStyleKeys();
    addSelectorKeys(".Btn", k);
    foldCase(k);
    addSelectorKeys("#Main", k);
    expect([...k.classes, ...k.ids]).toEqual(["btn", "main"]);
  });
});
