// collect() in real Chromium on fixture pages: candidates, roles and names, boxes, hidden
// elements, occlusion, modal, privacy, stable ids, captcha, quiet_ms, SVG shapes.
import { describe, expect, it } from "vitest";
import { SnapshotRequestSchema } from "@sightline/shared/contract";
import { useFixturePage, boxOf, byDomId, collectIn, flatten } from "./support.js";

const fx = useFixturePage();

async function open(path: string) {
  await fx.page.goto(fx.server.url(path));
}

describe("collect() on a form", () => {
  it("returns a valid /v1/snapshot body with the controls, their roles, names and values", async () => {
    await open("/collector/form.html");
    const body = await collectIn(fx.page);
    expect(SnapshotRequestSchema.safeParse(body).success).toBe(true);
    expect(body.url).toBe(fx.server.url("/collector/form.html"));
    expect(body.viewport).toEqual({ width: 1280, height: 900 });

    const email = byDomId(body, "email")!;
    expect(email.attributes).toMatchObject({
      role: "textbox",
      aria_label: "Email address",
      input_type: "email",
      name: "email",
      value: "ann@example.com",
      placeholder: "you@example.com",
    });
    expect(byDomId(body, "fullname")!.attributes!.aria_label).toBe("Full name");
    expect(byDomId(body, "country")!.attributes).toMatchObject({ role: "combobox", value: "de" });
    expect(byDomId(body, "country")!.text).toBe("Germany");
    expect(byDomId(body, "country")!.attributes!.nearby_text).toBe("Country");
    expect(byDomId(body, "bio")!.attributes!.aria_label).toBe("About you");
    expect(byDomId(body, "terms")!.attributes).toMatchObject({ role: "checkbox", checked: "true", nearby_text: "I accept the terms" });
    expect(byDomId(body, "news")!.attributes).toMatchObject({ role: "radio", checked: "false" });
    expect(byDomId(body, "fancy")!.attributes).toMatchObject({ role: "checkbox", aria_checked: "mixed", tabindex: "0" });
    expect(byDomId(body, "submit")!.attributes).toMatchObject({ role: "button", aria_label: "Create account", type_: "submit" });
    expect(byDomId(body, "submit")!.text).toBe("Create account");
    expect(byDomId(body, "later")!.attributes!.disabled).toBe("true");
    expect(byDomId(body, "help")!.attributes!.href).toBe(fx.server.url("/help"));
    expect(byDomId(body, "editor")!.attributes!.contenteditable).toBe("true");
    expect(byDomId(body, "clicky")!.attributes!.has_click_handler).toBe("true");
    expect(byDomId(body, "pointer")!.styles!.cursor).toBe("pointer");
    expect(byDomId(body, "more")).toBeDefined();
    // hidden inputs are not elements a user can see
    expect(flatten(body.raw_elements).some((e) => e.attributes?.name === "csrf")).toBe(false);
    // a text span inside a clickable div is part of it, not a control of its own
    expect(byDomId(body, "pointer-child")).toBeUndefined();
    // structural roles of the ranking table are reported too
    expect(flatten(body.raw_elements).find((e) => e.tag === "h1")!.attributes!.role).toBe("heading");
  });

  it("reports boxes in viewport coordinates with centre, doc_y and scroll_y", async () => {
    await open("/collector/form.html");
    await fx.page.evaluate(() => {
      document.body.style.height = "3000px";
      window.scrollTo(0, 40);
    });
    const body = await collectIn(fx.page);
    const submit = byDomId(body, "submit")!;
    const live = await boxOf(fx.page, "#submit");
    expect(submit.rect.x).toBeCloseTo(live.x, 0);
    expect(submit.rect.y).toBeCloseTo(live.y, 0);
    expect(submit.rect.width).toBeCloseTo(live.width, 0);
    expect(submit.scroll_y).toBe(40);
    expect(submit.center_x).toBeCloseTo(live.x + live.width / 2, 0);
    expect(submit.doc_y).toBeCloseTo(live.y + live.height / 2 + 40, 0);
    expect(submit.in_viewport).toBe(true);
    expect(typeof submit.group_key).toBe("string");
  });

  it("keeps ids stable across calls and gives new nodes new ids", async () => {
    await open("/collector/form.html");
    const a = await collectIn(fx.page);
    await fx.page.evaluate(() => {
      const b = document.createElement("button");
      b.id = "added";
      b.textContent = "Added";
      document.body.prepend(b);
    });
    const b = await collectIn(fx.page);
    for (const id of ["email", "submit", "help", "country"]) expect(byDomId(b, id)!.id).toBe(byDomId(a, id)!.id);
    const added = byDomId(b, "added")!;
    expect(a.raw_elements.map((e) => e.id)).not.toContain(added.id);
  });
});

describe("visibility", () => {
  it("skips display:none, visibility:hidden, zero-size and transparent elements", async () => {
    await open("/collector/hidden.html");
    const body = await collectIn(fx.page);
    const ids = flatten(body.raw_elements).map((e) => e.attributes?.id);
    expect(ids).toContain("visible");
    expect(ids).toContain("vis-override");
    for (const hidden of ["display-none", "in-none", "vis-hidden", "zero", "transparent", "in-transparent", "hidden-attr"]) {
      expect(ids).not.toContain(hidden);
    }
  });
});

describe("occlusion", () => {
  it("tells covered from visible elements using several points", async () => {
    await open("/collector/occlusion.html");
    const body = await collectIn(fx.page);
    expect(byDomId(body, "covered")!.is_occluded).toBe(true);
    // a small badge over the centre does not hide a wide button
    expect(byDomId(body, "badge-btn")!.is_occluded).toBe(false);
    // an icon inside the button, or the label of a checkbox, counts as the element itself
    expect(byDomId(body, "free")!.is_occluded).toBe(false);
    expect(byDomId(body, "boxed")!.is_occluded).toBe(false);
    // a label on top of the field it names (by for=, a form-associated custom element too) is
    // the field; a label over an element it does not name covers it
    expect(byDomId(body, "under-label")!.is_occluded).toBe(false);
    expect(byDomId(body, "custom-field")!.is_occluded).toBe(false);
    expect(byDomId(body, "link-under-label")!.is_occluded).toBe(true);
    const below = byDomId(body, "below")!;
    expect(below.in_viewport).toBe(false);
    expect(below.is_occluded).toBe(false);
  });

  it("marks the page under a modal as occluded and the dialog's buttons as not", async () => {
    await open("/collector/modal.html");
    const body = await collectIn(fx.page);
    for (const id of ["home", "buy", "search"]) expect(byDomId(body, id)!.is_occluded).toBe(true);
    for (const id of ["accept", "close"]) expect(byDomId(body, id)!.is_occluded).toBe(false);
    const dialog = byDomId(body, "dialog")!;
    expect(dialog.attributes).toMatchObject({ role: "dialog", aria_label: "Accept cookies?" });
    expect(byDomId(body, "close")!.attributes!.aria_label).toBe("Close");
  });
});

describe("shadow DOM", () => {
  it("walks open shadow roots (nested), with names across the shadow boundary and shadow-aware hit tests", async () => {
    await open("/collector/shadow.html");
    const body = await collectIn(fx.page);
    const q = byDomId(body, "q")!;
    expect(q.attributes).toMatchObject({ role: "textbox", aria_label: "Search", in_shadow: "true" });
    const go = byDomId(body, "go")!;
    expect(go.is_occluded).toBe(false);
    const live = await boxOf(fx.page, "#host >> #go");
    expect(go.rect.x).toBeCloseTo(live.x, 0);
    expect(byDomId(body, "deep")!.attributes!.role).toBe("link");
    // covered inside a shadow root by a sibling in the same root
    expect(byDomId(body, "under")!.is_occluded).toBe(true);
    // closed shadow roots stay closed
    expect(flatten(body.raw_elements).some((e) => e.text === "Secret")).toBe(false);
  });
});

describe("SVG and hover-only pointers", () => {
  it("finds shapes that get cursor:pointer only on :hover, and clickable <g> / shapes", async () => {
    await open("/collector/svg.html");
    const body = await collectIn(fx.page);
    for (const id of ["c1", "c2"]) {
      const c = byDomId(body, id)!;
      expect(c).toBeDefined();
      expect(c.attributes!.cursor_on_hover).toBe("pointer");
      expect(c.styles!.cursor).toBe("pointer");
    }
    expect(byDomId(body, "g-btn")!.attributes!.has_click_handler).toBe("true");
    expect(byDomId(body, "ptr-rect")).toBeDefined();
    expect(byDomId(body, "hot-div")).toBeDefined();
    expect(byDomId(body, "icon")!.attributes).toMatchObject({ aria_label: "Settings" });
    // the background rect is not a control
    expect(flatten(body.raw_elements).filter((e) => e.tag === "rect").map((e) => e.attributes?.id)).toEqual(["ptr-rect"]);
  });
});

describe("privacy", () => {
  it("never sends password, one-time-code or card values", async () => {
    await open("/collector/privacy.html");
    const body = await collectIn(fx.page);
    for (const id of ["pw", "otp", "cc", "cvc", "cvv2"]) {
      const e = byDomId(body, id)!;
      expect(e.attributes!.value_redacted).toBe("true");
      expect(e.attributes!.value).toBeNull();
    }
    expect(byDomId(body, "nick")!.attributes!.value).toBe("annie");
    // Without the page's address and timings: a random port or a time may hold a short code's digits ("36987").
    const json = JSON.stringify({ ...body, url: "", client_metrics: undefined });
    for (const secret of ["hunter2secret", "735911", "4111111111111111", "987", "321"]) expect(json).not.toContain(secret);
  });
});

describe("client metrics and diagnostics", () => {
  it("detects captcha markup and challenge text, and not a page that merely mentions captcha", async () => {
    await open("/collector/captcha.html");
    const body = await collectIn(fx.page);
    const c = body.client_diagnostics.captcha!;
    expect(c.detected).toBe(true);
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    // Per provider, the first matching element in tree order (the badge precedes the widget,
    // though its selector comes later in the reCAPTCHA list), as one querySelector of the list gives.
    expect(c.evidence!.selector_hits).toEqual(["div.grecaptcha-badge", "div.cf-turnstile", "div.grecaptcha-badge"]);
    expect(c.evidence!.text_hits!.length).toBeGreaterThan(0);
    expect(c.providers).toEqual(expect.arrayContaining(["recaptcha", "turnstile"]));

    await open("/collector/plain.html");
    const plain = await collectIn(fx.page);
    expect(plain.client_diagnostics.captcha!.detected).toBe(false);
  });

  it("measures quiet_ms from the last DOM mutation and counts nodes", async () => {
    await open("/collector/late-content.html");
    const early = await collectIn(fx.page);
    expect(early.client_metrics.ready_state).toBe("complete");
    expect(early.client_metrics.quiet_ms).toBeLessThan(1000);
    await fx.page.waitForFunction(() => document.querySelectorAll("#list button").length >= 15);
    await fx.page.waitForTimeout(700);
    const late = await collectIn(fx.page);
    expect(late.client_metrics.quiet_ms).toBeGreaterThanOrEqual(500);
    expect(late.raw_elements.filter((e) => e.tag === "button")).toHaveLength(15);
    expect(late.client_metrics.node_count).toBeGreaterThan(15);
  });
});
