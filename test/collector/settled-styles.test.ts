// Whatever the rules (classes with escapes, attribute selectors, @import, <link>, @media,
// nesting, pseudo-elements, inline styles, UA styles of controls, dialogs, animations, open and
// closed shadow hosts, quirks mode), every raw element's cursor and position are what
// getComputedStyle() says, and the elements collected are exactly those checkVisibility() calls
// visible. A guard for any shortcut that skips style reads: one that inferred them from the
// page's style rules (session 4) failed on closed shadow roots, whose :host and slot wrappers
// no sheet scan can see, and on escaped attribute names.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../support/chromium.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { FIXTURES, collectIn, flatten } from "./support.js";

const KEYED = `<!doctype html><html><head>
<link rel="stylesheet" href="/settle/linked.css">
<style>@import url("/settle/imported.css");</style>
<style>
.btn-x { cursor: pointer }
.md\\:abs { position: absolute; top: 400px }
#hero { position: relative; z-index: 2 }
span.help { cursor: help }
[data-drag] { cursor: move }
.wrap:hover .inner, .inner.never { cursor: wait }
.row > .cell { position: sticky; top: 0 }
@media (min-width: 1px) { .m { cursor: crosshair } }
.parent { .child { cursor: grab } }
.pp::before { content: "x"; cursor: zoom-in }
.b-\\31 0 { cursor: ns-resize }
</style></head><body>
<div id="d1" tabindex="0" style="cursor: text"><span id="s1" tabindex="0">inherits text</span> <a id="a1" href="#x">link</a></div>
<div id="d2" class="btn-x" tabindex="0"><span id="s2" tabindex="0">child of pointer</span><button id="b2">button</button><label id="l2" tabindex="0">label</label></div>
<div id="d3" class="md:abs" tabindex="0">absolute</div>
<section id="hero"><h2 id="h1">heading</h2></section>
<p><span id="s3" class="help" tabindex="0">help</span></p>
<div id="d4" data-drag tabindex="0">drag <span id="s4" tabindex="0">inside</span></div>
<div class="wrap"><span id="s5" class="inner" tabindex="0">inner</span></div>
<div class="row"><div id="c1" class="cell" tabindex="0">cell</div></div>
<div id="d5" class="m" tabindex="0">media</div>
<div class="parent"><span id="s6" class="child" tabindex="0">nested</span></div>
<div id="d6" class="pp" tabindex="0">pseudo-element only</div>
<div id="d7" class="imp" tabindex="0">imported <span id="s7" tabindex="0">in</span></div>
<div id="d8" class="lnk" tabindex="0">linked</div>
<div id="d9" class="b-10" tabindex="0">escaped digits</div>
<div id="d10" tabindex="0">animated <span id="s10" tabindex="0">in</span></div>
<div id="d11" tabindex="0" style="color: green; position: relative">inline position <span id="s11" tabindex="0">in</span></div>
<div id="d12" tabindex="0" style="color: green">inline colour <span id="s12" class="help" tabindex="0">help</span><span id="s13" tabindex="0">in</span></div>
<dialog id="dl" open>dialog <button id="b3">close</button></dialog>
<form><input id="i1" aria-label="text"><input id="i2" type="checkbox" aria-label="box"><input id="i3" disabled aria-label="off"><textarea id="t1" aria-label="t"></textarea><select id="sel1" aria-label="s"><option>a</option></select></form>
<div id="host" tabindex="0"><span id="light" tabindex="0">slotted</span></div>
<script>
  document.getElementById("d10").animate([{ cursor: "wait" }, { cursor: "wait" }], { duration: 1e7 });
  const root = document.getElementById("host").attachShadow({ mode: "open" });
  root.innerHTML = '<style>:host { cursor: progress } ::slotted(span) { cursor: copy } b { position: relative }</style><b id="in1" tabindex="0">inner</b><slot></slot>';
</script>
</body></html>`;

const QUIRKS = `<html><head><style>.Foo { cursor: pointer } #Bar { position: relative }</style></head><body>
<div class="x"><span id="q1" class="foo" tabindex="0">class in another case</span><span id="bar" tabindex="0">id in another case</span><span id="q3" tabindex="0">plain</span></div>
</body></html>`;

// Every element is a candidate (tabindex); which of them are visible depends on rules the walk
// must see (it skips checkVisibility() for elements none of them reaches).
const VISIBILITY = `<!doctype html><html><head><style>
.ghost { opacity: 0 } .hid { visibility: hidden } .show { visibility: visible } .cv { content-visibility: hidden }
.fade:hover, .fade.never { opacity: 0 } [data-off] { visibility: hidden } .par { .kid { opacity: 0 } }
</style></head><body>
<div id="v1" tabindex="0">plain <span id="v1a" tabindex="0">child</span></div>
<div class="ghost" tabindex="0" id="v2">transparent <span id="v2a" tabindex="0">child of transparent</span></div>
<div class="hid" id="v3" tabindex="0">hidden <span id="v3a" tabindex="0">child</span><span id="v3b" class="show" tabindex="0">shown again</span></div>
<div class="cv" id="v4" tabindex="0">cv hidden <span id="v4a" tabindex="0">skipped child</span></div>
<div hidden="until-found" id="v5"><span id="v5a" tabindex="0">until found</span></div>
<div data-off id="v6" tabindex="0">attr <span id="v6a" tabindex="0">child</span></div>
<div class="par"><span class="kid" id="v7" tabindex="0">nested rule</span></div>
<div id="v8" tabindex="0" style="opacity: 0">inline <span id="v8a" tabindex="0">child</span></div>
<div id="v9" tabindex="0">animated <span id="v9a" tabindex="0">child</span></div>
<div id="v10" tabindex="0"><span id="v10a" tabindex="0"></span>empty child</div>
<div id="v11" tabindex="0" style="color: green; visibility: hidden">inline <span id="v11a" tabindex="0">child</span></div>
<div id="v12" tabindex="0" style="color: green">inline colour <span id="v12a" class="ghost" tabindex="0">ghost</span><span id="v12b" tabindex="0">child</span></div>
<script>document.getElementById("v9").animate([{ opacity: 0 }, { opacity: 0 }], { duration: 1e7 });</script>
</body></html>`;

// Styles no sheet scan can see: closed shadow roots (a slot inside a link, :host rules, a
// transparent wrapper around a slot) and an escaped attribute name. Nothing else on the page.
const HIDDEN_RULES = `<!doctype html><html><head><style>[data\\:x] { cursor: help; position: absolute; top: 600px }</style></head><body>
<x-btn id="ch1"><span id="cl1" tabindex="0">slotted into a link of a closed root</span></x-btn>
<div id="ch2"><span id="cl2" tabindex="0">host styled by a closed root</span></div>
<section class="ch3"><span id="cl3" tabindex="0">in a closed root's transparent wrapper</span></section>
<div id="ea1" data:x tabindex="0">escaped attribute name</div>
<script>
  document.getElementById("ch1").attachShadow({ mode: "closed" }).innerHTML = '<a href="#"><slot></slot></a>';
  document.getElementById("ch2").attachShadow({ mode: "closed" }).innerHTML = '<style>:host { cursor: pointer; position: relative }</style><slot></slot>';
  document.querySelector(".ch3").attachShadow({ mode: "closed" }).innerHTML = '<div style="opacity: 0"><slot></slot></div>';
</script>
</body></html>`;

const FILES: Record<string, [string, string]> = {
  "/settle/hidden-rules.html": ["text/html", HIDDEN_RULES],
  "/settle/visibility.html": ["text/html", VISIBILITY],
  "/settle/keyed.html": ["text/html", KEYED],
  "/settle/quirks.html": ["text/html", QUIRKS],
  "/settle/linked.css": ["text/css", ".lnk { cursor: cell }"],
  "/settle/imported.css": ["text/css", ".imp { cursor: copy; position: relative }"],
};

let browser: Browser;
let server: StaticServer;
let page: Page;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchChromium(),
    serveStatic(FIXTURES, [
      (req, res) => {
        const f = FILES[new URL(req.url ?? "/", "http://x").pathname];
        if (!f) return false;
        res.writeHead(200, { "content-type": f[0] }).end(f[1]);
        return true;
      },
    ]),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** [cursor, position] of each collected element with a DOM id (shadow tree included), from the collector and from the browser. */
async function compare(path: string): Promise<Array<[string, string, string]>> {
  await page.goto(server.url(path));
  const body = await collectIn(page);
  const computed = await page.evaluate(() => {
    const out: Record<string, string> = {};
    const scopes: Array<Document | ShadowRoot> = [document];
    for (const el of document.querySelectorAll("*")) if (el.shadowRoot) scopes.push(el.shadowRoot);
    for (const s of scopes) for (const el of s.querySelectorAll("[id]")) {
      const cs = getComputedStyle(el);
      out[el.id] = `${cs.cursor} ${cs.position}`;
    }
    return out;
  });
  return flatten(body.raw_elements)
    .filter((e) => e.attributes?.id)
    .map((e) => [e.attributes!.id as string, `${e.styles?.cursor} ${e.styles?.position}`, computed[e.attributes!.id as string]]);
}

it("reports every element's computed cursor and position, rules of every kind", async () => {
  const rows = await compare("/settle/keyed.html");
  const ids = rows.map((r) => r[0]);
  for (const id of ["s1", "s2", "d3", "h1", "s4", "s5", "c1", "d5", "s6", "d6", "s7", "d8", "d9", "s10", "dl", "i3", "in1", "light"]) expect(ids).toContain(id);
  for (const [id, collected, computed] of rows) expect(collected, id).toBe(computed);
  // The page really has elements whose cursor or position differs from the inherited/initial one.
  const got = Object.fromEntries(rows.map((r) => [r[0], r[1]]));
  expect(got.s2).toBe("pointer static");
  expect(got.d3).toBe("auto absolute");
  expect(got.s6).toBe("grab static");
  expect(got.d6).toBe("auto static");
  expect(got.s7).toBe("copy static");
  expect(got.d9).toBe("ns-resize static");
  expect(got.s10).toBe("wait static");
  expect(got.d11).toBe("auto relative");
  expect(got.in1).toBe("progress relative");
  expect(got.light).toBe("copy static");
});

it("matches ids and classes case-insensitively in quirks mode, as the browser does", async () => {
  const rows = await compare("/settle/quirks.html");
  expect(rows.map((r) => r[0]).sort()).toEqual(["bar", "q1", "q3"]);
  for (const [id, collected, computed] of rows) expect(collected, id).toBe(computed);
  expect(Object.fromEntries(rows.map((r) => [r[0], r[1]]))).toMatchObject({ q1: "pointer static", bar: "auto relative" });
});

it("collects exactly the elements checkVisibility() calls visible that have a box, whatever hides the others", async () => {
  await page.goto(server.url("/settle/visibility.html"));
  const body = await collectIn(page);
  const expected = await page.evaluate(() =>
    Array.from(document.querySelectorAll("[tabindex]"))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && r.width * r.height > 0;
      })
      .map((el) => el.id)
      .sort(),
  );
  const got = flatten(body.raw_elements).map((e) => e.attributes?.id as string).filter(Boolean).sort();
  expect(got).toEqual(expected);
  // Hidden in every way the page offers, and visible where a child overrides its parent.
  for (const id of ["v2a", "v3a", "v4a", "v5a", "v6a", "v7", "v8a", "v9a", "v11a", "v12a"]) expect(got, id).not.toContain(id);
  for (const id of ["v1", "v1a", "v3b", "v10", "v12", "v12b"]) expect(got, id).toContain(id);
});

it("reads styles set where no sheet scan can see them: closed shadow roots, escaped attribute names", async () => {
  const rows = await compare("/settle/hidden-rules.html");
  const got = Object.fromEntries(rows.map((r) => [r[0], r[1]]));
  for (const [id, collected, computed] of rows) expect(collected, id).toBe(computed);
  expect(got).toMatchObject({ cl1: "pointer static", ch2: "pointer relative", cl2: "pointer static", ea1: "help absolute" });
  expect(got.cl3, "hidden by a closed root's opacity: 0 wrapper").toBeUndefined();
});
