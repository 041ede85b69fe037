#!/usr/bin/env node
// Roles and accessible names on real saved pages, element by element: the collector's
// `attributes.role` / `accessible_name` against Chromium's own accessibility tree (CDP
// Accessibility.getFullAXTree) of the same page, for interactive elements and headings. The
// pages are the read corpora beside the repository (AEB, wcxb-dev, the Readability test pages),
// each opened with scripts off like the service's static capture (read-pages.mjs).
//
// Matching: an element is keyed by its path from the document (child element indices). Chromium's
// side comes from one load (the AX tree, each node's backendDOMNodeId resolved to a path through
// DOM.getDocument) and is cached in $TMPDIR/sightline-names/ (it does not depend on Sightline's
// build); the collector's side from another load of the same static page: after collect(), the
// collector's id map (its per-page state) gives the DOM node of every raw element, and so its
// path. Nothing the product outputs changes for the bench.
//
// Compared: every top-level raw element whose role is interactive or heading on either side.
// Elements Chromium leaves out of its tree (aria-hidden, ignored) are counted apart and not in
// the agreement figures. Names are compared with runs of whitespace collapsed; disagreements are
// sorted into classes by what the element carries (placeholder, title, alt, value, …).
//
//   node bench/quality/names-vs-chromium.mjs [--corpora wcxb-dev,aeb,readability] [--sample N]
//        [--bundle shared/dist/collector.js] [--compare-bundle BEFORE.js] [--concurrency 1] [--examples FILE]
//
// --examples writes up to 12 disagreements per class (page id, tag, both answers, the element's
// outer HTML start) to FILE for looking at; the results file holds counts only.
// Results: bench/results/names-vs-chromium.json (BENCH_RESULTS=0 to skip).
// Build the bundle first: pnpm --filter @sightline/shared run build
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync, gunzipSync } from "node:zlib";
import { launchChromium } from "../collector/serve.mjs";
import { startRun } from "../lib/results.mjs";
import { PATH_OF_SOURCE, loadReadPages, openStatic, pathsFromCdpDocument, samplePages, servePages } from "./read-pages.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const opt = { corpora: "wcxb-dev,aeb,readability", concurrency: "1" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i].replace(/^--/, "");
  if (argv[i + 1] === undefined || argv[i + 1].startsWith("--")) opt[k] = "true";
  else opt[k] = argv[++i];
}
const bundlePath = resolve(opt.bundle ?? join(root, "shared/dist/collector.js"));
const bundle = readFileSync(bundlePath, "utf8");
// --compare-bundle B.js: the same pages through another build (the one before a change), side by side.
const compare = opt["compare-bundle"] ? readFileSync(resolve(opt["compare-bundle"]), "utf8") : null;
let pages = loadReadPages(opt.corpora.split(","));
if (!pages.length) {
  console.error("names-vs-chromium: no read corpora beside the repository (../shared/corpora/read); nothing measured");
  process.exit(2);
}
if (opt.sample) pages = samplePages(pages, Number(opt.sample), Number(opt.seed ?? 1));
const cacheDir = join(process.env.TMPDIR || tmpdir(), "sightline-names");
mkdirSync(cacheDir, { recursive: true });

/** Roles the targets are about: what an agent acts on, and headings. */
const INTERACTIVE = new Set([
  "button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider", "spinbutton",
  "listbox", "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem",
]);
const HEADING = "heading";
/**
 * Chromium's CDP role strings that name the same ARIA role under another spelling, and its own
 * roles for date and time fields (no ARIA equivalent), read as what one does with them: textbox.
 */
const CHROMIUM_ROLE = { Date: "textbox", DateTime: "textbox", InputTime: "textbox", image: "img", DisclosureTriangle: "button", disclosureTriangle: "button", ComboBoxSelect: "combobox", comboBoxSelect: "combobox", ComboBoxMenuButton: "combobox", PopUpButton: "combobox", MenuListPopup: "listbox", MenuListOption: "option", LineBreak: "none", StaticText: "text", LabelText: "label", ListMarker: "marker", RootWebArea: "document", sectionheader: "sectionheader" };
const normRole = (r) => CHROMIUM_ROLE[r] ?? r ?? "";
/** Runs of any whitespace (a no-break space too) as one space: spacing that tells nobody anything. */
const normName = (n) => String(n ?? "").replace(/\s+/g, " ").trim();

// ------------------------------------------------------------------ Chromium's side (cached)
const chromiumVersion = { v: null };
function cacheFile(p) {
  return join(cacheDir, `${p.corpus}-${p.id.slice(0, 40)}.ax.json.gz`);
}
/** path → [role, name, ignored] for every element node of Chromium's tree. */
async function chromiumSide(browser, server, i) {
  const p = pages[i];
  const file = cacheFile(p);
  if (existsSync(file)) {
    const c = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8"));
    if (c.chromium === chromiumVersion.v) return new Map(c.nodes);
  }
  const { context, page } = await openStatic(browser, server.origin, server.urlOf(i));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("DOM.enable");
    await cdp.send("Accessibility.enable");
    const { root: doc } = await cdp.send("DOM.getDocument", { depth: -1, pierce: true });
    const paths = pathsFromCdpDocument(doc);
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const out = [];
    for (const n of nodes) {
      const path = n.backendDOMNodeId !== undefined ? paths.get(n.backendDOMNodeId) : undefined;
      if (path === undefined) continue;
      out.push([path, [n.role?.value ?? "", normName(n.name?.value), n.ignored ? 1 : 0]]);
    }
    writeFileSync(file, gzipSync(JSON.stringify({ chromium: chromiumVersion.v, nodes: out })));
    return new Map(out);
  } finally {
    await context.close().catch(() => {});
  }
}

// ------------------------------------------------------------------ Sightline's side
/** In the page: collect(), then each top-level raw element's path and what its markup carries. */
async function collectorSide(browser, server, i, source) {
  const { context, page } = await openStatic(browser, server.origin, server.urlOf(i));
  try {
    await page.evaluate(source);
    return await page.evaluate(async (pathSrc) => {
      const pathOf = (0, eval)(pathSrc);
      const body = await globalThis.sightline.collect({});
      const state = globalThis.__sightlineCollectorState__;
      const byId = new Map();
      const all = [];
      const gather = (rootNode) => {
        for (const el of rootNode.querySelectorAll("*")) {
          all.push(el);
          if (el.shadowRoot) gather(el.shadowRoot);
        }
      };
      gather(document);
      for (const el of all) {
        const id = state.ids.get(el);
        if (id !== undefined) byId.set(id, el);
      }
      const attr = (el, k) => (el.hasAttribute(k) ? el.getAttribute(k) : null);
      return body.raw_elements.map((r) => {
        const el = byId.get(r.id);
        if (!el) return null;
        const a = r.attributes ?? {};
        const svgTitle = el.querySelector?.("svg title")?.textContent ?? null;
        const img = el.localName === "img" ? el : el.querySelector?.("img[alt]");
        return {
          path: pathOf(el),
          tag: r.tag,
          role: a.role ?? "",
          name: a.accessible_name ?? "",
          type: el.localName === "input" ? el.type : null,
          placeholder: attr(el, "placeholder"),
          title: attr(el, "title"),
          value: el.localName === "input" ? el.value : null,
          alt: img ? img.getAttribute("alt") : null,
          ariaLabel: attr(el, "aria-label"),
          labelledby: attr(el, "aria-labelledby"),
          describedby: attr(el, "aria-describedby"),
          labels: el.labels ? el.labels.length : null,
          inLabel: !!el.closest?.("label"),
          svgTitle,
          hasSvg: !!el.querySelector?.("svg"),
          roleAttr: attr(el, "role"),
          html: el.outerHTML.slice(0, 1200),
        };
      });
    }, PATH_OF_SOURCE);
  } finally {
    await context.close().catch(() => {});
  }
}

// ------------------------------------------------------------------ classes
const squashAll = (s) => s.replace(/\s+/g, "");
/** Why the two names differ, from what the element carries (first matching class). */
function nameClass(e, chrome) {
  const s = normName(e.name), c = chrome;
  if (s.toLowerCase() === c.toLowerCase()) return "case";
  if (squashAll(s) === squashAll(c)) return "spacing";
  if (!s && c) {
    if (e.placeholder && normName(e.placeholder) === c) return "placeholder (empty)";
    if (e.title && normName(e.title) === c) return "title (empty)";
    if (e.value && normName(e.value) === c) return "value (empty)";
    if (e.alt && normName(e.alt) === c) return "alt (empty)";
    if (e.svgTitle && normName(e.svgTitle) === c) return "svg title (empty)";
    return "empty, other";
  }
  if (s && !c) {
    if (e.title && normName(e.title) === s) return "title where Chromium has none";
    if (e.placeholder && normName(e.placeholder) === s) return "placeholder where Chromium has none";
    return "Chromium empty";
  }
  if (e.placeholder && normName(e.placeholder) === c) return "placeholder";
  if (e.title && normName(e.title) === c) return "title";
  if (e.alt !== null && c.includes(normName(e.alt)) !== s.includes(normName(e.alt))) return "alt";
  if (e.value && normName(e.value) === c) return "value";
  if (e.svgTitle && normName(e.svgTitle) && c.includes(normName(e.svgTitle)) !== s.includes(normName(e.svgTitle))) return "svg title";
  if (e.labelledby) return "aria-labelledby";
  if (e.ariaLabel) return "aria-label";
  if (e.labels || e.inLabel) return "label";
  if (c.startsWith(s) || c.endsWith(s)) return "Chromium longer";
  if (s.startsWith(c) || s.endsWith(c)) return "Sightline longer";
  if (squashAll(s).length !== squashAll(c).length && (squashAll(c).includes(squashAll(s)) || squashAll(s).includes(squashAll(c)))) return "content, partly";
  return "other";
}

// ------------------------------------------------------------------ run
const run = startRun("names-vs-chromium", { title: "Roles and accessible names on real pages: the collector against Chromium's accessibility tree" });
const server = await servePages(pages);
const browser = await launchChromium();
chromiumVersion.v = browser.version();
run.machine({ chromium: chromiumVersion.v });
function tally() {
  return {
    pages: 0, failures: 0,
    compared: { all: 0, interactive: 0, heading: 0 },
    ignored: 0, unmatched: 0,
    roleAgree: { all: 0, interactive: 0, heading: 0 },
    nameAgree: { all: 0, interactive: 0, heading: 0 },
    roleClasses: new Map(),
    nameClasses: new Map(),
  };
}
const sides = compare ? { before: { t: tally(), src: compare }, current: { t: tally(), src: bundle } } : { current: { t: tally(), src: bundle } };
const examples = new Map();
const bump = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
const example = (cls, item) => {
  let l = examples.get(cls);
  if (!l) examples.set(cls, (l = []));
  if (l.length < 12) l.push(item);
};
/** One page's elements of one build against Chromium's tree. */
function score(counts, chrome, mine, i, keepExamples) {
  counts.pages++;
  for (const e of mine) {
    if (!e) continue;
    const ax = chrome.get(e.path);
    const sRole = e.role;
    if (!ax) {
      if (INTERACTIVE.has(sRole) || sRole === HEADING) counts.unmatched++;
      continue;
    }
    const [cRoleRaw, cNameRaw, ignored] = ax;
    const cName = normName(cNameRaw);
    const cRole = normRole(cRoleRaw);
    const kind = INTERACTIVE.has(cRole) || INTERACTIVE.has(sRole) ? "interactive" : cRole === HEADING || sRole === HEADING ? "heading" : null;
    if (!kind) continue;
    if (ignored) {
      counts.ignored++;
      continue;
    }
    counts.compared.all++;
    counts.compared[kind]++;
    if (sRole === cRole) {
      counts.roleAgree.all++;
      counts.roleAgree[kind]++;
    } else {
      const cls = `${sRole || "(none)"} → ${cRole || "(none)"}`;
      bump(counts.roleClasses, `${kind}|${cls}`);
      if (keepExamples) example(`${kind} role ${cls}`, { page: `${pages[i].corpus}/${pages[i].id}`, tag: e.tag, sightline: sRole, chromium: cRoleRaw, html: e.html });
    }
    if (normName(e.name) === cName) {
      counts.nameAgree.all++;
      counts.nameAgree[kind]++;
    } else {
      const cls = nameClass(e, cName);
      bump(counts.nameClasses, `${kind}|${cls}`);
      if (keepExamples) example(`${kind} name ${cls}`, { page: `${pages[i].corpus}/${pages[i].id}`, tag: e.tag, role: sRole, sightline: normName(e.name), chromium: cName, html: e.html });
    }
  }
}
let done = 0;
const t0 = Date.now();
async function one(i) {
  try {
    const chrome = await chromiumSide(browser, server, i);
    for (const [name, side] of Object.entries(sides)) score(side.t, chrome, await collectorSide(browser, server, i, side.src), i, name === "current");
  } catch (err) {
    for (const side of Object.values(sides)) side.t.failures++;
    if (sides.current.t.failures <= 5) console.error(`[names] ${pages[i].corpus}/${pages[i].id}: ${String(err).split("\n")[0].slice(0, 200)}`);
  } finally {
    done++;
    if (done % 50 === 0 || done === pages.length) process.stderr.write(`[names] ${done}/${pages.length} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
}
try {
  let next = 0;
  await Promise.all(Array.from({ length: Number(opt.concurrency) }, async () => {
    while (next < pages.length) await one(next++);
  }));
} finally {
  await browser.close();
  await server.close();
}

const share = (a, b) => (b ? a / b : null);
const cur = sides.current.t;
const bef = sides.before?.t ?? null;
const cols = ["elements", { label: "compared", format: "int" }, ...(bef ? [{ label: "role before", format: "percent" }] : []), { label: "role agrees", format: "percent" }, ...(bef ? [{ label: "name before", format: "percent" }] : []), { label: "name agrees", format: "percent" }];
run.table({
  id: "agreement",
  title: `Agreement with Chromium's accessibility tree, element by element (${cur.pages} real pages, scripts off)`,
  columns: cols,
  rows: ["interactive", "heading", "all"].map((k) => [
    k, cur.compared[k],
    ...(bef ? [share(bef.roleAgree[k], bef.compared[k])] : []), share(cur.roleAgree[k], cur.compared[k]),
    ...(bef ? [share(bef.nameAgree[k], bef.compared[k])] : []), share(cur.nameAgree[k], cur.compared[k]),
  ]),
  note: `Interactive: the role is a control's (button, link, textbox, combobox, checkbox, …) on either side. Left out: ${cur.ignored} elements Chromium keeps out of its tree (aria-hidden, ignored), ${cur.unmatched} raw elements with no node there; ${cur.failures} pages failed to load.${bef ? " before: the build given as --compare-bundle, on the same pages." : ""}`,
});
for (const k of ["interactive", "heading"]) {
  run.figure(`${k}_role`, share(cur.roleAgree[k], cur.compared[k]));
  run.figure(`${k}_name`, share(cur.nameAgree[k], cur.compared[k]));
  if (bef) {
    run.figure(`${k}_role_before`, share(bef.roleAgree[k], bef.compared[k]));
    run.figure(`${k}_name_before`, share(bef.nameAgree[k], bef.compared[k]));
  }
}
/** Classes of one kind, largest (in either build) first: elements before and now. */
function classRows(key, kind) {
  const names = new Set();
  for (const t of [cur, bef]) if (t) for (const k of t[key].keys()) if (k.startsWith(`${kind}|`)) names.add(k);
  return [...names]
    .map((k) => [k.slice(kind.length + 1), ...(bef ? [bef[key].get(k) ?? 0] : []), cur[key].get(k) ?? 0])
    .sort((a, b) => Math.max(...b.slice(1)) - Math.max(...a.slice(1)))
    .map((r) => [...r, r[r.length - 1] / cur.compared[kind]]);
}
const classCols = ["class", ...(bef ? [{ label: "before", format: "int" }] : []), { label: "elements", format: "int" }, { label: "share of compared", format: "percent" }];
for (const kind of ["interactive", "heading"]) {
  const roles = classRows("roleClasses", kind).slice(0, 15);
  if (roles.length) run.table({ id: `roles-${kind}`, title: `Role disagreements, ${kind} elements (Sightline → Chromium)`, columns: classCols, rows: roles });
  const names = classRows("nameClasses", kind).slice(0, 18);
  if (names.length) run.table({ id: `names-${kind}`, title: `Name disagreements by class, ${kind} elements`, columns: classCols, rows: names });
}
run.note(`Chromium ${chromiumVersion.v}; collector bundle ${bundlePath.startsWith(root) ? bundlePath.slice(root.length) : bundlePath}.`);
run.write();
if (opt.examples) writeFileSync(opt.examples, JSON.stringify(Object.fromEntries(examples), null, 1));
