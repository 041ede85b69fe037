// requires_vision from the goal: "click the red circle", "the chart's tallest bar" ask how
// something looks. When no candidate's words (text, name, inferred name) or colour name say
// what the goal asks for, and a picture (canvas, image, SVG) is in view, the answer is likely in
// pixels the DOM cannot describe: the response says so, with the words it could not find.
import type { RefinedElement } from "../contract/index.js";

const LOOK_WORDS = new Set([
  // colours (the names visual_cues.background_color_name answers, and a few more)
  "red", "green", "blue", "yellow", "orange", "purple", "violet", "pink", "brown", "black", "white", "gray", "grey",
  "cyan", "teal", "magenta", "maroon", "olive", "navy", "gold", "silver",
  // shapes
  "circle", "square", "triangle", "rectangle", "ellipse", "oval", "pentagon", "hexagon", "octagon", "polygon", "diamond",
  "star", "sides", "arrow", "dot", "dots",
  // pictures
  "chart", "graph", "plot", "bar", "bars", "slice", "pie", "drawing", "diagram", "canvas", "figure",
]);

const WORD = /[\p{L}\p{N}]+/gu;

/** The look words of the goal that no candidate's description carries (empty: none asked, or all answered). */
export function unanswered(goal: string, elements: readonly RefinedElement[]): string[] {
  const asked = new Set<string>();
  for (const w of goal.toLowerCase().match(WORD) ?? []) if (LOOK_WORDS.has(w)) asked.add(w === "grey" ? "gray" : w);
  if (asked.size === 0) return [];
  for (const e of elements) {
    const desc = `${e.text} ${e.name ?? ""} ${e.inferred_name ?? ""} ${e.visual_cues?.background_color_name ?? ""}`.toLowerCase();
    for (const w of desc.match(WORD) ?? []) asked.delete(w === "grey" ? "gray" : w);
    if (asked.size === 0) return [];
  }
  // A goal's "sides" is answered by any polygon name (a shape hint names its sides).
  return [...asked];
}
