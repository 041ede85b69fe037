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
import { collectPage, trackListeners } from "@sightline/shared/playwright";
import { markListeners } from "@sightline/shared/agent";
import { byDomId, collectIn, flatten, useFixturePage } from "../collector/support.js";

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

describe("controls made clickable only by script", () => {
  const foundBy = (body: CollectResult, ids: string[]) =>
    Object.fromEntries(ids.map((id) => [id, `${attr(byDomId(body, id), "found_by") ?? "-"} ${attr(byDomId(body, id), "inferred_name") ?? ""}`.trim()]));

  it("finds listener-only elements from the init script's records, delegated ones through their container", async () => {
    const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await trackListeners(page);
      await page.goto(fx.server.url("targets/listeners.html"));
      const body = await collectIn(page);
      expect(foundBy(body, ["sw-red", "sw-blue", "card-pro", "day-14", "sq-4", "shape-tri"])).toEqual({
        "sw-red": "listener red square",
        "sw-blue": "listener blue square",
        "card-pro": "listener",
        "day-14": "delegated-listener",
        // Listened to from the document: found by its looks (a bordered tile among look-alikes).
        "sq-4": "visual",
        "shape-tri": "visual green triangle",
      });
      // The calendar grid itself is not a candidate (its cells are), nor the page.
      expect(flatten(body.raw_elements).some((e) => e.attributes?.id === "cal")).toBe(false);
      expect(firstFor(body, "Choose the Pro plan")).toEqual({ heuristic: "card-pro", model: "card-pro" });
      expect(firstFor(body, "Pick the 14th")).toEqual({ heuristic: "day-14", model: "day-14" });
    } finally {
      await page.close();
    }
  });

  it("takes the same records from a debugger (CDP DOMDebugger) when the page loaded without the init script", async () => {
    // The extension's path once it holds the debugger: no init script ran, the page's
    // listeners are read over CDP and sent to the collector's receiver as events.
    const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(fx.server.url("targets/listeners.html"));
      await collectIn(page); // injects the collector
      await page.evaluate(() => (globalThis as unknown as { sightline: { receiveListenerMarks(): void } }).sightline.receiveListenerMarks());
      const cdp = await page.context().newCDPSession(page);
      const marked = await markListeners((method, params) => cdp.send(method as "Runtime.evaluate", params as never));
      expect(marked).toBeGreaterThanOrEqual(4);
      const body = await collectIn(page);
      expect(foundBy(body, ["sw-red", "card-pro", "day-14", "sq-4"])).toEqual({
        "sw-red": "listener red square",
        "card-pro": "listener", // a text block the looks alone do not find
        "day-14": "delegated-listener",
        "sq-4": "visual",
      });
      expect(firstFor(body, "Choose the Pro plan")).toEqual({ heuristic: "card-pro", model: "card-pro" });
    } finally {
      await page.close();
    }
  });

  it("takes the init script's records across worlds, when the collector runs in Sightline's isolated world (the SDK and the server)", async () => {
    // The script records in the page's world, the collector reads in its own: asked with an
    // event, the script answers with a mark per recorded node (an onclick property included).
    const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await trackListeners(page);
      await page.goto(fx.server.url("targets/listeners.html"));
      await page.evaluate(() => {
        (document.getElementById("sw-green") as HTMLElement).onclick = () => undefined;
      });
      const body = (await collectPage(page)) as CollectResult;
      expect(foundBy(body, ["sw-red", "sw-green", "card-pro", "day-14", "sq-4"])).toEqual({
        "sw-red": "listener red square",
        "sw-green": "listener green square",
        "card-pro": "listener",
        "day-14": "delegated-listener",
        "sq-4": "visual",
      });
    } finally {
      await page.close();
    }
  });

  it("asks a page without the init script nothing, so it sees no sign of a collect", async () => {
    const page = await fx.page.context().browser()!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(fx.server.url("targets/listeners.html"));
      await page.evaluate(() => {
        const g = globalThis as unknown as { asked: number };
        g.asked = 0;
        document.addEventListener("sightline:listener-request", () => g.asked++, true);
      });
      const body = (await collectPage(page)) as CollectResult;
      expect(foundBy(body, ["sw-red", "card-pro"])).toEqual({ "sw-red": "visual red square", "card-pro": "-" });
      expect(await page.evaluate(() => (globalThis as unknown as { asked: number }).asked)).toBe(0);
    } finally {
      await page.close();
    }
  });

  it("without records, finds swatches, tiles and shapes by their looks", async () => {
    const body = await open("targets/listeners.html");
    expect(foundBy(body, ["sw-red", "sw-blue", "day-14", "sq-4", "shape-circle", "shape-rect", "shape-tri", "card-pro"])).toEqual({
      "sw-red": "visual red square",
      "sw-blue": "visual blue square",
      "day-14": "visual",
      "sq-4": "visual",
      "shape-circle": "visual red circle",
      "shape-rect": "visual blue square",
      "shape-tri": "visual green triangle",
      "card-pro": "-", // a text block with no listener record is not guessed at
    });
    expect(firstFor(body, "Click the blue colour")).toEqual({ heuristic: "sw-blue", model: "sw-blue" });
    expect(firstFor(body, "Click on the red circle")).toEqual({ heuristic: "shape-circle", model: "shape-circle" });
    expect(firstFor(body, "Select the green triangle")).toEqual({ heuristic: "shape-tri", model: "shape-tri" });
  });
});

describe("look-alike controls in repeated rows", () => {
  it("ranks the row's control for a goal naming the row, and shows the row in toPrompt", async () => {
    const body = await open("targets/icons.html");
    expect(firstFor(body, "Delete the email from Marco")).toEqual({ heuristic: "del-marco", model: "del-marco" });
    expect(firstFor(body, "Star the invoice email")).toEqual({ heuristic: "star-priya", model: "star-priya" });
    const out = refineSnapshot({ ...body, goal: "Delete the email from Marco" });
    const del = out.elements[0];
    // (The row's other icon's ligature text is part of the row's text.)
    expect(del.context_text).toBe("Marco Ruiz Team offsite photos star_border");
    expect(toPrompt({ elements: [del] }, { header: false }).text).toMatch(/^\[\d+\] button inferred "trash \(delete\)" row "Marco Ruiz Team offsite photos star_border" @/);
    // A control with a label of its own is not look-alike: no row text.
    expect(out.elements.find((e) => e.id === byDomId(body, "t-use")?.id)?.context_text).toBeUndefined();
  });
});

describe("nested duplicates", () => {
  it("merges an interactive element with the one inside it that covers the same box", async () => {
    const body = await open("targets/nested.html");
    const raw = (id: string) => byDomId(body, id)!.id;
    const out = refineSnapshot(body);
    const ids = new Set(out.elements.map((e) => e.id));
    const kept = (a: string, b: string) => {
      const both = [raw(a), raw(b)].filter((i) => ids.has(i));
      expect(both, `${a} / ${b}`).toHaveLength(1);
      const el = out.elements.find((e) => e.id === both[0])!;
      expect(el.merged_ids).toEqual([both[0] === raw(a) ? raw(b) : raw(a)]);
      return both[0] === raw(a) ? a : b;
    };
    // The tab and its link: both are named; the tab (its role and selection state) stays.
    expect(kept("tab-security", "a-security")).toBe("tab-security");
    expect(kept("li-export", "b-export")).toBe("b-export");
    expect(kept("wrap-save", "b-save")).toBe("b-save");
    // A label around a checkbox is not the same box: both stay.
    expect(ids.has(raw("cb-remember"))).toBe(true);
    expect(firstFor(body, "Open the Security tab")).toEqual({ heuristic: "tab-security", model: "tab-security" });
    expect(firstFor(body, "Export my data")).toEqual({ heuristic: "b-export", model: "b-export" });
  });
});
