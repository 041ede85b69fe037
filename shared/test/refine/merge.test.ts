// Nested duplicates, row context and purpose, on hand-made raw elements.
import { describe, expect, it } from "vitest";
import { refineSnapshot } from "@sightline/shared/refine";
import { button, link, raw, request } from "./factory.js";

describe("nested duplicates", () => {
  it("keeps one of two clickable elements with the same box and lists the other", () => {
    const li = raw("li", { id: 1, attributes: { role: "tab" }, styles: { cursor: "pointer" }, text: "Billing" });
    const a = raw("a", { id: 2, x: 1, y: 1, width: 98, height: 28, attributes: { href: "#billing" }, text: "Billing" });
    const other = raw("a", { id: 3, y: 100, attributes: { href: "#x" }, text: "Other" });
    const out = refineSnapshot(request([li, a, other])).elements;
    // The tab (role and state) is kept over the link inside it.
    expect(out.map((e) => e.id).sort()).toEqual([1, 3]);
    expect(out.find((e) => e.id === 1)?.merged_ids).toEqual([2]);
    expect(out.find((e) => e.id === 3)?.merged_ids).toBeUndefined();
  });

  it("keeps the labelled one, and leaves boxes that only overlap alone", () => {
    const wrap = raw("div", { id: 1, attributes: { role: "button", accessible_name: "Save" }, text: "Save" });
    const icon = raw("span", { id: 2, attributes: { has_click_handler: "true", accessible_name: "" } });
    const near = raw("button", { id: 3, x: 30, text: "Near" });
    const out = refineSnapshot(request([wrap, icon, near])).elements;
    expect(out.map((e) => e.id).sort()).toEqual([1, 3]);
    expect(out.find((e) => e.id === 1)?.merged_ids).toEqual([2]);
  });

  it("merges an unnamed icon inside a control into the control, and keeps a part with a handler of its own", () => {
    // <a href="#" class="act"><i class="bi bi-pencil"></i></a>: the <i> inherits the pointer cursor.
    const link = raw("a", { id: 1, width: 28, height: 28, attributes: { href: "#", accessible_name: "", inferred_name: "pencil (edit)" } });
    const icon = raw("i", { id: 2, x: 6, y: 6, width: 16, height: 16, styles: { cursor: "pointer" }, attributes: { is_clickable: "true", inferred_name: "pencil (edit)" } });
    // A chip with its own remove button (a listener of its own): two targets.
    const chip = raw("button", { id: 3, y: 100, width: 120, height: 28, text: "Red" });
    const remove = raw("span", { id: 4, x: 100, y: 106, width: 16, height: 16, styles: { cursor: "pointer" }, attributes: { found_by: "listener", inferred_name: "close" } });
    // <button aria-label="edit"><span class="material-icons">edit</span></button>: the ligature is the button's word.
    const button = raw("button", { id: 5, y: 200, width: 28, height: 28, text: "edit", attributes: { aria_label: "edit", accessible_name: "edit" } });
    const ligature = raw("span", { id: 6, x: 6, y: 206, width: 16, height: 16, text: "edit", styles: { cursor: "pointer" }, attributes: { is_clickable: "true" } });
    // A part with words of its own ("3" unread) is not the control's duplicate.
    const badge = raw("span", { id: 7, x: 14, y: 200, width: 12, height: 12, text: "3", styles: { cursor: "pointer" }, attributes: { is_clickable: "true" } });
    const out = refineSnapshot(request([link, icon, chip, remove, button, ligature, badge])).elements;
    expect(out.map((e) => e.id).sort()).toEqual([1, 3, 4, 5, 7]);
    expect(out.find((e) => e.id === 1)?.merged_ids).toEqual([2]);
    expect(out.find((e) => e.id === 5)?.merged_ids).toEqual([6]);
    expect(out.find((e) => e.id === 3)?.merged_ids).toBeUndefined();
  });
});

describe("row context", () => {
  it("is given to look-alike controls only, and ranks the row the goal names", () => {
    const row = (id: number, y: number, who: string) =>
      raw("button", { id, y, width: 24, height: 24, attributes: { accessible_name: "", inferred_name: "trash (delete)", context_text: `${who} Lunch on Friday` } });
    const solo = raw("button", { id: 9, y: 300, text: "Compose", attributes: { context_text: "Mail Compose" } });
    const body = request([row(1, 0, "Dana Lee"), row(2, 40, "Marco Ruiz"), row(3, 80, "Priya N"), solo], { goal: "Delete the email from Marco" });
    const out = refineSnapshot(body).elements;
    expect(out[0].id).toBe(2);
    expect(out[0].context_text).toBe("Marco Ruiz Lunch on Friday");
    expect(out.find((e) => e.id === 9)?.context_text).toBeUndefined();
  });
});

describe("row context only where it tells look-alikes apart", () => {
  it("leaves out a menu's listing of its own links and a context two look-alikes share", () => {
    const menu = "Home Shop About Contact";
    // A menu shown twice (desktop and mobile, as a page without its style sheet shows it): each
    // link has a twin and the same list around it.
    const links = ["Home", "Shop", "About", "Contact"].flatMap((t, i) => [
      link(t, { id: 10 + i, y: 10, x: i * 80, attributes: { context_text: menu } }),
      link(t, { id: 20 + i, y: 400 + i * 30, attributes: { context_text: menu } }),
    ]);
    // Two "Read more" links whose cards share a text: it separates nothing.
    const same = [1, 2].map((id) => link("Read more", { id: 30 + id, y: 600 + id * 40, attributes: { context_text: "Latest news Read more" } }));
    const out = refineSnapshot(request([...links, ...same])).elements;
    for (const e of out) expect(e.context_text, `${e.id}`).toBeUndefined();
  });
  it("keeps a card's text that is its own", () => {
    const books = [["2h 23m", 145], ["8h 18m", 1977]].map(([d, p], i) => button(`Book for $${p}`, { id: 40 + i, y: 100 + i * 60, attributes: { context_text: `Duration: ${d} Book for $${p}` } }));
    const out = refineSnapshot(request(books)).elements;
    expect(out.find((e) => e.id === 40)?.context_text).toBe("Duration: 2h 23m Book for $145");
  });
});

describe("purpose of look-alike controls", () => {
  const field = (id: number, y: number, purpose: string) =>
    raw("input", { id, y, attributes: { role: "textbox", accessible_name: "Email", input_type: "email", purpose, purpose_words: purpose.toLowerCase() } });
  it("is given to fields of one role in forms of different purposes, and leads the goal to the right one", () => {
    const body = request([field(1, 100, "Sign in"), field(2, 900, "Newsletter")], { goal: "subscribe to the newsletter with my email" });
    const out = refineSnapshot(body).elements;
    expect(out[0].id).toBe(2);
    expect(out.find((e) => e.id === 1)?.purpose).toBe("Sign in");
    expect(out.find((e) => e.id === 2)?.purpose).toBe("Newsletter");
  });
  it("is left out where the control's own label says it already", () => {
    const search = raw("input", { id: 3, y: 20, attributes: { role: "searchbox", accessible_name: "Search", purpose: "Search" } });
    const fields = [search, raw("input", { id: 4, y: 900, attributes: { role: "searchbox", accessible_name: "Find a store", purpose: "Store finder" } })];
    const out = refineSnapshot(request(fields)).elements;
    expect(out.find((e) => e.id === 3)?.purpose).toBeUndefined();
    expect(out.find((e) => e.id === 4)?.purpose).toBe("Store finder");
  });
  it("is left out where nothing looks alike", () => {
    const out = refineSnapshot(request([field(1, 100, "Newsletter"), button("Subscribe", { id: 2, y: 140, attributes: { purpose: "Newsletter" } })])).elements;
    for (const e of out) expect(e.purpose).toBeUndefined();
  });
});

describe("requires_vision from the goal", () => {
  const canvas = raw("canvas", { id: 1, width: 300, height: 200 });
  const ok = raw("button", { id: 2, y: 220, text: "Submit" });
  it("is raised when the goal asks for a look nothing describes and a picture is in view", () => {
    const d = refineSnapshot(request([canvas, ok], { goal: "Click the red circle" })).diagnostics!;
    expect(d.requires_vision).toBe(true);
    expect(d.requires_vision_reason).toContain('"red", "circle"');
  });
  it("is not raised when an element's description answers it, or without a goal", () => {
    const shape = raw("circle", { id: 3, x: 20, y: 20, width: 40, height: 40, attributes: { inferred_name: "red circle", found_by: "visual" } });
    expect(refineSnapshot(request([canvas, ok, shape], { goal: "Click the red circle" })).diagnostics!.requires_vision).toBe(false);
    expect(refineSnapshot(request([canvas, ok])).diagnostics!.requires_vision).toBe(false);
  });
});
