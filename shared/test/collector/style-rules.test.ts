import { describe, expect, it } from "vitest";
import { splitSelectorList } from "../../src/collector/style-rules.js";

describe("splitSelectorList: a rule's selectors, split on its top-level commas only", () => {
  it.each([
    [".a, .b::before", [".a", " .b::before"]],
    [":is(.a, .b)::before", [":is(.a, .b)::before"]],
    [":is(:not(.a, .b), .c)::after, .d", [":is(:not(.a, .b), .c)::after", " .d"]],
    ['[title="a,b"]::before, .c', ['[title="a,b"]::before', " .c"]],
    ["[x='a\\',b']::before", ["[x='a\\',b']::before"]],
    [".a\\,b::before, .c", [".a\\,b::before", " .c"]],
    [".a:hover", [".a:hover"]],
    // A stray closing bracket or a trailing backslash must not throw or swallow the rest.
    [".a), .b", [".a)", " .b"]],
    [".a\\", [".a\\"]],
  ])("%s", (list, parts) => {
    expect(splitSelectorList(list)).toEqual(parts);
  });
});
