// Modal and overlay detection with close/primary controls.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { ModalGridSchema } from "@sightline/shared/contract";
import { button, link, listingPage, raw, request } from "./factory.js";

describe("modal detection", () => {
  it("no modal: modal_detected false and an empty list", () => {
    const r = refineSnapshot(request(listingPage(5).elements));
    expect(r.modal_detected).toBe(false);
    expect(r.modal_grids).toEqual([]);
  });

  it("detects a role=dialog with its close and primary controls", () => {
    const page = listingPage(10).elements.map((e) => ({ ...e, is_occluded: true }));
    const dialog = raw("div", { x: 340, y: 200, width: 600, height: 400, attributes: { role: "dialog", aria_modal: "true" }, styles: { z_index: "1000", position: "fixed" } });
    const close = button("×", { x: 900, y: 210, width: 30, height: 30 });
    const closeByLabel = button("", { x: 860, y: 210, width: 30, height: 30, attributes: { aria_label: "Close" } });
    const accept = button("Accept all", { x: 700, y: 540, width: 200, height: 40 });
    const noThanks = link("No thanks", { x: 400, y: 550, width: 100, height: 20 });
    const text = raw("p", { x: 360, y: 260, width: 560, height: 100, text: "We use cookies" });
    const r = refineSnapshot(request([...page, dialog, close, closeByLabel, accept, noThanks, text]));
    expect(r.modal_detected).toBe(true);
    expect(r.modal_grids).toHaveLength(1);
    const g = r.modal_grids![0];
    expect(ModalGridSchema.safeParse(g).success).toBe(true);
    expect(g.container_id).toBe(dialog.id);
    expect(g.role).toBe("dialog");
    expect(g.z_index).toBe(1000);
    expect(g.bbox).toEqual({ x: 340, y: 200, width: 600, height: 400 });
    expect(g.viewport_coverage).toBeCloseTo((600 * 400) / (1280 * 800), 3);
    expect(g.close_ids.sort()).toEqual([close.id, closeByLabel.id, noThanks.id].sort());
    expect(g.primary_ids).toEqual([accept.id]);
    expect(g.element_ids).toEqual(expect.arrayContaining([close.id, accept.id, text.id]));
    expect(r.diagnostics!.reasons.map((x) => x.code)).toContain("modal_open");
  });

  it("detects an overlay without a role: a fixed, high z-index container over hidden content", () => {
    const behind = listingPage(10).elements.map((e) => ({ ...e, is_occluded: true }));
    const backdrop = raw("div", { x: 0, y: 0, width: 1280, height: 800, styles: { z_index: "9000", position: "fixed", background_color: "rgba(0,0,0,0.5)" } });
    const box = raw("div", { x: 390, y: 250, width: 500, height: 300, styles: { z_index: "9001", position: "fixed", background_color: "#fff" } });
    const email = raw("input", { x: 420, y: 350, width: 300, height: 36, attributes: { input_type: "email", placeholder: "Your email" } });
    const subscribe = button("Subscribe", { x: 420, y: 400, width: 150, height: 40 });
    const dismiss = raw("span", { x: 850, y: 260, width: 24, height: 24, text: "✕", styles: { cursor: "pointer" } });
    const r = refineSnapshot(request([...behind, backdrop, box, email, subscribe, dismiss]));
    expect(r.modal_detected).toBe(true);
    expect(r.modal_grids).toHaveLength(1);
    const g = r.modal_grids![0];
    expect(g.role).toBe("overlay");
    expect(g.container_id).toBe(box.id);
    expect(g.close_ids).toEqual([dismiss.id]);
    expect(g.primary_ids).toEqual([subscribe.id]);
  });

  it("with a modal open, its controls outrank the covered page, even a covered text field", () => {
    const field = raw("input", { x: 100, y: 300, width: 400, height: 36, is_occluded: true, attributes: { input_type: "text", aria_label: "Email" } });
    const dialog = raw("div", { x: 340, y: 200, width: 600, height: 400, attributes: { role: "dialog" }, styles: { z_index: "50" } });
    const accept = button("Accept", { x: 700, y: 540, width: 120, height: 40 });
    const close = button("×", { x: 900, y: 210, width: 30, height: 30 });
    const r = refineSnapshot(request([field, dialog, accept, close]));
    const ids = r.elements.map((e) => e.id);
    expect(ids.indexOf(accept.id)).toBeLessThan(ids.indexOf(field.id));
    expect(ids.indexOf(close.id)).toBeLessThan(ids.indexOf(field.id));
    // Without the dialog the field leads again.
    const alone = refineSnapshot(request([{ ...field, is_occluded: false }, accept]));
    expect(alone.elements[0].id).toBe(field.id);
  });

  it("a sticky header with a high z-index is not a modal", () => {
    const header = raw("header", { x: 0, y: 0, width: 1280, height: 64, styles: { z_index: "1000", position: "fixed" } });
    const menu = link("Menu", { x: 10, y: 10 });
    const r = refineSnapshot(request([header, menu, ...listingPage(5).elements]));
    expect(r.modal_detected).toBe(false);
  });

  it("a closed dialog (no box) is not a modal", () => {
    const r = refineSnapshot(request([raw("dialog", { width: 0, height: 0 }), button("Open")]));
    expect(r.modal_detected).toBe(false);
  });
});
