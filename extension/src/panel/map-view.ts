// Map: the ranked element list. Hovering a row highlights the element on the page; clicking
// scrolls the page to it.
import type { RefinedElement } from "@sightline/shared/contract";
import type { Box } from "../messages.js";
import { $, h } from "./dom.js";
import type { RankedSnapshot } from "./engine.js";

export interface MapHandlers {
  hover(box: Box | null): void;
  select(box: Box): void;
}

export function boxOf(e: RefinedElement): Box {
  return { id: e.id, rect: e.bbox };
}

function label(e: RefinedElement): string {
  return (e.name || e.text || e.nearby_text || e.href || "").replace(/\s+/g, " ").trim() || "(no text)";
}

function row(e: RefinedElement, rank: number, on: MapHandlers): HTMLLIElement {
  const flags = [
    e.is_occluded && h("span", { class: "flag", title: "Covered by another element" }, "occluded"),
    !e.in_viewport && h("span", { class: "flag", title: "Outside the visible part of the page" }, "off-screen"),
    e.disabled && h("span", { class: "flag" }, "disabled"),
    e.visual_cues?.is_primary && h("span", { class: "flag" }, "primary"),
  ];
  const li = h(
    "li",
    { "data-id": e.id, "data-rank": rank, title: "Hover: highlight on page. Click: scroll to it." },
    h("span", { class: "el-id" }, `#${e.id}`),
    h("span", { class: "el-main" }, h("span", { class: "el-role" }, e.role), " ", h("span", { class: "el-label" }, label(e)), ...flags),
    h("span", { class: "el-score", title: "Importance (0–1000)" }, Math.round(e.importance)),
  );
  li.addEventListener("mouseenter", () => on.hover(boxOf(e)));
  li.addEventListener("mouseleave", () => on.hover(null));
  li.addEventListener("click", () => on.select(boxOf(e)));
  return li;
}

export function renderMap(snap: RankedSnapshot | null, on: MapHandlers): void {
  const list = $("#element-list");
  list.replaceChildren();
  $("#map-empty").hidden = !!snap;
  $("#export").hidden = !snap;
  if (!snap) {
    $("#map-summary").textContent = "";
    return;
  }
  if (!snap.elements.length) {
    list.append(h("li", { class: "empty" }, "No elements an agent could act on were found on this page."));
  }
  snap.elements.forEach((e, i) => list.append(row(e, i, on)));
  const credits = snap.credits_remaining !== null ? ` · ${snap.credits_remaining} credits left` : "";
  $("#map-summary").textContent = `${snap.elements.length} elements${credits}`;
}
