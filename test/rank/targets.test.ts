// The right element on pages nobody tuned for (issue 21), in real Chromium: icon-only controls
// get an inferred name (the accessible name unchanged), and a goal naming them ranks them first.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { createLinearReranker } from "@sightline/shared/rank";
import { toPrompt } from "@sightline/shared/prompt";
import type { RawElement } from "@sightline/shared/contract";
import type { CollectResult } from "@sightline/shared/collector";
import { byDomId, collectIn, useFixturePage } from "../collector/support.js";

const reranker = createLinearReranker(JSON.parse(readFileSync(fileURLToPath(new URL("../../shared/src/rank/model.json", import.meta.url)), "utf8")));

const fx = useFixturePage();

async function open(path: string): Promise<CollectResult> {
  await fx.page.goto(fx.server.url(path));
  return collectIn(fx.page);
}

/** The DOM id of the first element for `goal`, heuristic alone and with the committed model. */
function firstFor(body: CollectResult, goal: string): { heuristic: string; model: string } {
  const ids = new Map<number, string>();
  for (const e of body.raw_elements) if (e.attributes?.id) ids.set(e.id, String(e.attributes.id));
  const top = (rr: typeof reranker | null) => {
    const first = refineSnapshot({ ...body, goal }, { reranker: rr }).elements[0];
    return ids.get(first.id) ?? `${first.role}:${first.text || first.name || first.inferred_name || first.id}`;
  };
  return { heuristic: top(null), model: top(reranker) };
}

const attr = (e: RawElement | undefined, k: string) => e?.attributes?.[k];

describe("icon-only controls", () => {
  it("infers a name from what the icon is, leaving the accessible name alone", async () => {
    const body = await open("targets/icons.html");
    const inferred = (id: string) => `${attr(byDomId(body, id), "inferred_name")} / ${attr(byDomId(body, id), "inferred_from")}`;
    const ids = ["t-close", "t-bi", "t-svgtitle", "t-use", "t-data", "t-img", "t-bg", "t-times", "t-pencil", "t-bin", "t-kebab", "star-priya", "del-marco"];
    expect(Object.fromEntries(ids.map((id) => [id, inferred(id)]))).toEqual({
      "t-close": "remove (close) / icon-class", // glyphicon-remove
      "t-bi": "x (close) / icon-class", // bi-x-lg
      "t-svgtitle": "undefined / undefined", // the SVG <title> names the button already
      "t-use": "archive / svg-use", // <use href="#icon-archive">
      "t-data": "refresh / data-icon",
      "t-img": "printer (print) / image-file", // printer.svg, alt=""
      "t-bg": "share / background-image", // share-24px.png
      "t-times": "close / symbol", // ×
      "t-pencil": "edit / symbol", // ✎
      "t-bin": "delete / symbol", // 🗑
      "t-kebab": "ellipsis v (more options) / icon-class", // fas fa-ellipsis-v fa-fw
      "star-priya": "star border (star favorite) / ligature", // material-icons star_border
      "del-marco": "trash (delete) / icon-class", // fa fa-trash-o
    });
    // A named control is not second-guessed; the accessible names are what they were.
    expect(attr(byDomId(body, "t-named"), "inferred_name")).toBeUndefined();
    expect(attr(byDomId(body, "t-close"), "accessible_name")).toBe("");
    expect(attr(byDomId(body, "t-times"), "accessible_name")).toBe("×");
    expect(attr(byDomId(body, "star-priya"), "accessible_name")).toBe("star_border");
  });

  it("passes the inferred name through refine and marks it in toPrompt", async () => {
    const body = await open("targets/icons.html");
    const out = refineSnapshot(body);
    const del = out.elements.find((e) => e.id === byDomId(body, "del-marco")?.id);
    expect(del?.name).toBeNull();
    expect(del?.inferred_name).toBe("trash (delete)");
    const line = toPrompt({ elements: [del!] }, { header: false }).text;
    expect(line).toContain('inferred "trash (delete)"');
  });

  it("ranks the icon a goal names first", async () => {
    const body = await open("targets/icons.html");
    for (const [goal, id] of [
      ["Archive this message", "t-use"],
      ["Refresh the inbox", "t-data"],
      ["Print the page", "t-img"],
      ["Share it", "t-bg"],
      ["Open more options", "t-kebab"],
    ] as const) {
      expect(firstFor(body, goal), goal).toEqual({ heuristic: id, model: id });
    }
  });
});
